import { describe, expect, it } from 'vitest';
import type { Signer } from 'ethers';
import { validators, type ValidateFunction } from '@exchange-api/validators';
import { Client, newWallet, quietMarket, signed, start } from './helpers';

const table = { ...validators.results, ...validators.assumedResults } as Record<string, ValidateFunction>;
const valid = (method: string, result: unknown) =>
  expect(table[method]!(result), `${method}: ${JSON.stringify(table[method]!.errors)}`).toBe(true);
const sell = {
  instrument_name: 'TEST-PERP',
  direction: 'sell',
  order_type: 'limit',
  limit_price: '100.01',
  max_fee: '1',
};

async function trader(url: string) {
  const w = newWallet();
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  const order = async (fields: Record<string, unknown>, signer: Signer = w) =>
    c.request('private/order', await signed(signer, 'private/order', { ...fields, subaccount_id: sub! }));
  const open = async () => (await c.call('private/get_open_orders', { subaccount_id: sub })).orders;
  return { w, c, sub: sub!, order, open };
}

describe('market maker protection: mmp orders freeze when their fills pass a limit', () => {
  it(
    'freezes past the amount limit: open mmp orders cancelled, new ones refused ' + 'until reset; others untouched',
    async () => {
      const sb = await start(quietMarket);
      const maker = await trader(sb.wsUrl);
      const taker = await trader(sb.wsUrl);
      const set = await maker.c.call('private/set_mmp_config', {
        subaccount_id: maker.sub,
        currency: 'TST',
        mmp_amount_limit: '1.5',
        mmp_interval: 60_000,
        mmp_frozen_time: 0,
      });
      valid('private/set_mmp_config', set);
      expect(set).toMatchObject({ currency: 'TST', mmp_amount_limit: '1.5', mmp_delta_limit: '0' });
      expect((await maker.order({ ...sell, amount: '1', mmp: true })).result.order.mmp).toBe(true);
      const second = (await maker.order({ ...sell, amount: '1', mmp: true })).result.order;
      const plain = (await maker.order({ ...sell, amount: '1' })).result.order;
      // 1.5 filled: at the limit, not past it.
      await taker.order({ ...sell, direction: 'buy', amount: '1.5', time_in_force: 'ioc' });
      let cfg = await maker.c.call('private/get_mmp_config', { subaccount_id: maker.sub });
      valid('private/get_mmp_config', cfg);
      expect(cfg[0].is_frozen).toBe(false);
      expect((await maker.open()).map((o: { order_id: string }) => o.order_id)).toEqual([
        second.order_id,
        plain.order_id,
      ]);
      // 0.2 more: past it. The rest of the mmp order is cancelled; the plain order stays.
      await taker.order({ ...sell, direction: 'buy', amount: '0.2', time_in_force: 'ioc' });
      expect((await maker.open()).map((o: { order_id: string }) => o.order_id)).toEqual([plain.order_id]);
      const orders = (await maker.c.call('private/get_orders', { subaccount_id: maker.sub })).orders;
      expect(orders.find((o: { order_id: string }) => o.order_id === second.order_id)).toMatchObject({
        order_status: 'cancelled',
        cancel_reason: 'mmp_trigger',
        filled_amount: '0.7',
      });
      cfg = await maker.c.call('private/get_mmp_config', { subaccount_id: maker.sub, currency: 'TST' });
      expect(cfg).toEqual([expect.objectContaining({ is_frozen: true, mmp_unfreeze_time: 0 })]);
      const refused = await maker.order({ ...sell, amount: '1', mmp: true });
      expect(refused.error).toMatchObject({
        code: 11015,
        data: expect.stringMatching(/^mmp is frozen .* until reset_mmp/),
      });
      expect((await maker.order({ ...sell, amount: '1' })).result.order.order_status).toBe('open');
      expect(await maker.c.call('private/reset_mmp', { subaccount_id: maker.sub })).toBe('ok');
      expect((await maker.order({ ...sell, amount: '1', mmp: true })).result.order.order_status).toBe('open');
    },
  );

  it('a freeze with a time ends by itself on the sandbox clock; bad settings are refused by name', async () => {
    const sb = await start({ ...quietMarket, control: true });
    const maker = await trader(sb.wsUrl);
    const taker = await trader(sb.wsUrl);
    await maker.c.call('private/set_mmp_config', {
      subaccount_id: maker.sub,
      currency: 'TST',
      mmp_delta_limit: '0.5',
      mmp_interval: 10_000,
      mmp_frozen_time: 30_000,
    });
    await maker.order({ ...sell, amount: '1', mmp: true });
    await taker.order({ ...sell, direction: 'buy', amount: '0.6', time_in_force: 'ioc' });
    expect((await maker.order({ ...sell, amount: '1', mmp: true })).error.data).toMatch(/^mmp is frozen .* until \d+/);
    await fetch(`${sb.httpUrl}/control/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 31_000 }),
    });
    expect((await maker.order({ ...sell, amount: '1', mmp: true })).result.order.order_status).toBe('open');
    const bad = (fields: Record<string, unknown>) =>
      maker.c.request('private/set_mmp_config', {
        subaccount_id: maker.sub,
        currency: 'TST',
        mmp_interval: 1000,
        mmp_frozen_time: 0,
        ...fields,
      });
    expect((await bad({ currency: 'NOPE' })).error.data).toMatch(/^\/currency/);
    expect((await bad({ mmp_interval: 0 })).error.data).toMatch(/^\/mmp_interval/);
    expect((await bad({ mmp_amount_limit: '-1' })).error.data).toMatch(/^\/mmp_amount_limit/);
    expect((await bad({ subaccount_id: 1 })).error.code).toBe(14003);
  });
});

import { describe, expect, it } from 'vitest';
import type { Signer } from 'ethers';
import { Client, newWallet, signed, start, quietMarket } from './helpers';
import type { SandboxOptions } from '../src';

// A quiet market with one instrument at 100: best bid 99.98, best ask 100.02, no ticks during a test.
const quiet = quietMarket;
const base = { instrument_name: 'TEST-PERP', order_type: 'limit', max_fee: '1', amount: '1' };
const buyBelow = { ...base, direction: 'buy', limit_price: '90' };
const buyThrough = { ...base, direction: 'buy', limit_price: '101' };

async function trader(options: SandboxOptions = quiet) {
  const sb = await start(options);
  const w = newWallet();
  const c = await Client.connect(sb.wsUrl);
  const [sub] = await c.login(w);
  const order = async (fields: Record<string, unknown>, signer: Signer = w) =>
    c.request('private/order', await signed(signer, 'private/order', { ...fields, subaccount_id: sub! }));
  const openOrders = async () => (await c.call('private/get_open_orders', { subaccount_id: sub })).orders;
  const position = async () => {
    const { positions } = await c.call('private/get_subaccount', { subaccount_id: sub });
    return positions.find((p: { instrument_name: string }) => p.instrument_name === 'TEST-PERP')?.amount ?? '0';
  };
  return { sb, w, c, sub: sub!, order, openOrders, position };
}

describe('every order field is honoured or refused by name, never ignored', () => {
  it('atomic signing and extra fees are refused naming their fields, never placed as plain orders', async () => {
    const t = await trader();
    try {
      const atomic = await t.order({ ...buyBelow, is_atomic_signing: true });
      expect(atomic.error.data).toMatch(/^is_atomic_signing: not modelled/);
      expect((await t.order({ ...buyBelow, extra_fee: '0.5' })).error.data).toMatch(/^extra_fee: not modelled/);
      expect(await t.openOrders()).toEqual([]);
      expect(await t.position()).toBe('0');
      // Explicit nulls (derive-ts sends them) are no request for a trigger.
      const plain = await t.order({
        ...buyBelow,
        trigger_type: null,
        trigger_price: null,
        algo_type: null,
        extra_fee: '0',
      });
      expect(plain.result.order.order_status).toBe('open');
    } finally {
      await t.sb.close();
    }
  });

  it('reduce_only never opens or increases a position', async () => {
    const t = await trader();
    try {
      expect((await t.order({ ...buyBelow, reduce_only: true })).error).toMatchObject({ code: 11024 });
      const opening = await t.order({ ...buyThrough, time_in_force: 'ioc', reduce_only: true });
      expect(opening.error).toMatchObject({ code: 11025, data: expect.stringMatching(/position in TEST-PERP is 0/) });
      expect(await t.position()).toBe('0');
      expect((await t.order({ ...buyThrough, amount: '0.2', time_in_force: 'ioc' })).result.order.order_status).toBe(
        'filled',
      );
      expect(await t.position()).toBe('0.2');
      const sellTooMuch = { ...base, direction: 'sell', limit_price: '99', amount: '5', time_in_force: 'ioc' };
      expect((await t.order({ ...sellTooMuch, reduce_only: true })).error).toMatchObject({ code: 11025 });
      expect(
        (await t.order({ ...buyThrough, amount: '0.1', time_in_force: 'ioc', reduce_only: true })).error.code,
      ).toBe(11025);
      const closing = await t.order({ ...sellTooMuch, amount: '0.2', reduce_only: true });
      expect(closing.result.order.order_status).toBe('filled');
      expect(await t.position()).toBe('0');
    } finally {
      await t.sb.close();
    }
  });

  it('max_fee is per unit and refuses an order whose fee could exceed it (11023)', async () => {
    const t = await trader();
    try {
      // The taker fee at the highest price it can trade at: 101 × 3 bps = 0.0303 per unit.
      const zero = await t.order({ ...buyThrough, max_fee: '0' });
      expect(zero.error).toMatchObject({
        code: 11023,
        message: 'Max fee order param is too low',
        data: 'signed max_fee must be >= 0.0303',
      });
      expect((await t.order({ ...buyThrough, max_fee: '0.0302' })).error.code).toBe(11023);
      expect(await t.position()).toBe('0');
      const enough = await t.order({ ...buyThrough, max_fee: '0.0303' });
      expect(enough.result.order.order_status).toBe('filled');
      const fee = Number(enough.result.trades[0].trade_fee);
      expect(fee).toBeGreaterThan(0);
      expect(fee).toBeLessThanOrEqual(0.0303);
    } finally {
      await t.sb.close();
    }
  });

  it('self-trade: an order that would fill against its own subaccount is refused whole (11007)', async () => {
    const t = await trader();
    try {
      const resting = await t.order({ ...base, direction: 'sell', limit_price: '100.01' });
      expect(resting.result.order.order_status).toBe('open');
      const crossing = await t.order({ ...buyThrough });
      expect(crossing.error).toMatchObject({
        code: 11007,
        data: expect.stringContaining(resting.result.order.order_id),
      });
      expect(await t.position()).toBe('0');
      expect((await t.openOrders()).map((o: { order_id: string }) => o.order_id)).toEqual([
        resting.result.order.order_id,
      ]);
      // Another trader takes it as usual.
      const other = newWallet();
      const c2 = await Client.connect(t.sb.wsUrl);
      const [sub2] = await c2.login(other);
      const taken = await c2.call(
        'private/order',
        await signed(other, 'private/order', {
          ...buyThrough,
          amount: '1',
          limit_price: '100.01',
          subaccount_id: sub2!,
        }),
      );
      expect(taken.trades[0]).toMatchObject({ trade_price: '100.01', liquidity_role: 'taker' });
    } finally {
      await t.sb.close();
    }
  });

  it('reject_timestamp: an order arriving after it is refused (11022)', async () => {
    const t = await trader();
    try {
      const late = await t.order({ ...buyBelow, reject_timestamp: Date.now() - 60_000 });
      expect(late.error).toMatchObject({ code: 11022, data: expect.stringMatching(/has passed/) });
      const timely = await t.order({ ...buyBelow, reject_timestamp: Date.now() + 600_000 });
      expect(timely.result.order.order_status).toBe('open');
    } finally {
      await t.sb.close();
    }
  });
});

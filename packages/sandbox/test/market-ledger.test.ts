/**
 * The ledger refuses what an account cannot carry: spot sells of assets it does not hold, spot buys
 * beyond its cash, and perp or option exposure beyond its margin, counting the orders it already has
 * resting. The refusal is errorTable's RPC_ORDER_REJECTED, with data naming the reason, and nothing
 * moves or is pushed.
 */
import { describe, expect, it } from 'vitest';
import { errorByName } from '@exchange-api/types';
import { Client, newWallet, signed, start } from './helpers';

const REJECTED = errorByName('RPC_ORDER_REJECTED');

// A quiet market (no ticks during the test): TEST-PERP around 100 (best bid 99.98, ask 100.02), TST-USDC around 100.37.
const quiet = {
  market: { intervalMs: 60_000 },
  limits: { matching: { points: 100 }, bucket_perp_spot: { capacity: 100 } },
  instruments: [
    {
      instrument_name: 'TEST-PERP',
      instrument_type: 'perp' as const,
      base_currency: 'TST',
      tick_size: '0.01',
      amount_step: '0.1',
      price: 100,
    },
    {
      instrument_name: 'TST-USDC',
      instrument_type: 'erc20' as const,
      base_currency: 'TST',
      tick_size: '0.01',
      amount_step: '0.001',
      price: 100.37,
    },
  ],
};

async function trader(url: string) {
  const w = newWallet();
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  await c.call('subscribe', { channels: [`${sub}.orders`, `${sub}.trades`, `${sub}.balances`] });
  const order = async (fields: Record<string, unknown>) =>
    c.request(
      'private/order',
      await signed(w, 'private/order', { subaccount_id: sub!, order_type: 'limit', max_fee: '1000', ...fields }),
    );
  return { w, c, sub: sub!, order };
}

describe('the ledger refuses what an account cannot carry', () => {
  it('a spot sell of 50 with nothing held is refused, and no balance goes negative', async () => {
    const sb = await start(quiet);
    const t = await trader(sb.wsUrl);
    const reply = await t.order({ instrument_name: 'TST-USDC', direction: 'sell', amount: '50', limit_price: '99' });
    expect(reply.error).toMatchObject({
      code: REJECTED.code,
      message: REJECTED.message,
      data: expect.stringMatching(/insufficient balance.*TST/),
    });
    // Nothing more is coming: the sandbox answers a socket in order, so a round trip flushes what it sent.
    await t.c.roundTrip();
    expect(t.c.pushes(`${t.sub}.balances`)).toEqual([]);
    expect(t.c.pushes(`${t.sub}.trades`)).toEqual([]);
    expect(t.c.pushes(`${t.sub}.orders`)).toEqual([]);
  });

  it('a spot sell may use what is held, less what resting sells already hold back', async () => {
    const sb = await start(quiet);
    const t = await trader(sb.wsUrl);
    expect(
      (await t.order({ instrument_name: 'TST-USDC', direction: 'buy', amount: '1', limit_price: '101' })).result.order
        .order_status,
    ).toBe('filled');
    expect(
      (await t.order({ instrument_name: 'TST-USDC', direction: 'sell', amount: '0.6', limit_price: '200' })).result
        .order.order_status,
    ).toBe('open');
    const second = await t.order({ instrument_name: 'TST-USDC', direction: 'sell', amount: '0.6', limit_price: '200' });
    expect(second.error).toMatchObject({ code: REJECTED.code, data: expect.stringMatching(/insufficient balance/) });
    expect(
      (await t.order({ instrument_name: 'TST-USDC', direction: 'sell', amount: '0.4', limit_price: '200' })).result
        .order.order_status,
    ).toBe('open');
  });

  it('a spot buy beyond the cash is refused (spot is not leveraged)', async () => {
    const sb = await start(quiet);
    const t = await trader(sb.wsUrl);
    // 1 000 000 USDC buys about 9960 TST at 100.4; 10 000 at 100.5 is more than the cash.
    const reply = await t.order({
      instrument_name: 'TST-USDC',
      direction: 'buy',
      amount: '10000',
      limit_price: '100.5',
    });
    expect(reply.error).toMatchObject({
      code: REJECTED.code,
      data: expect.stringMatching(/insufficient balance.*USDC/),
    });
  });

  it('a resting perp sell with a notional a billion times the collateral is refused', async () => {
    const sb = await start(quiet);
    const t = await trader(sb.wsUrl);
    // 1 000 000 USDC of collateral; 10^13 contracts at 100 are 10^15 USDC of notional.
    const reply = await t.order({
      instrument_name: 'TEST-PERP',
      direction: 'sell',
      amount: '10000000000000',
      limit_price: '100',
    });
    expect(reply.error).toMatchObject({
      code: REJECTED.code,
      message: REJECTED.message,
      data: expect.stringMatching(/insufficient margin/),
    });
    await t.c.roundTrip();
    expect(t.c.pushes(`${t.sub}.orders`)).toEqual([]);
  });

  it('perp orders may use the margin once: resting orders count against it', async () => {
    const sb = await start(quiet);
    const t = await trader(sb.wsUrl);
    // Initial margin is 10 % of the notional: 1 000 000 USDC carries 10 000 000 USDC of perp exposure.
    expect(
      (await t.order({ instrument_name: 'TEST-PERP', direction: 'sell', amount: '60000', limit_price: '150' })).result
        .order.order_status,
    ).toBe('open');
    const second = await t.order({
      instrument_name: 'TEST-PERP',
      direction: 'sell',
      amount: '60000',
      limit_price: '150',
    });
    expect(second.error).toMatchObject({ code: REJECTED.code, data: expect.stringMatching(/insufficient margin/) });
    // A buy on the other side does not add to the worst case while it is smaller than the resting sell.
    expect(
      (await t.order({ instrument_name: 'TEST-PERP', direction: 'buy', amount: '50000', limit_price: '50' })).result
        .order.order_status,
    ).toBe('open');
  });
});

import { describe, expect, it } from 'vitest';
import { validators, type ValidateFunction } from '@exchange-api/validators';
import { Client, control, newWallet, quietMarket, signed, start } from './helpers';

// One instrument at 100 (step 0.1), no tick during a test: slices run only when the clock is advanced.
const options = { ...quietMarket, control: true };
const twapBuy = {
  instrument_name: 'TEST-PERP',
  direction: 'buy',
  order_type: 'limit',
  limit_price: '101',
  max_fee: '1',
  amount: '1',
  algo_type: 'twap',
  algo_duration_sec: 60,
  algo_num_slices: 4,
};
const table = { ...validators.results, ...validators.assumedResults } as Record<string, ValidateFunction>;
const valid = (method: string, result: unknown) =>
  expect(table[method]!(result), `${method}: ${JSON.stringify(table[method]!.errors)}`).toBe(true);

async function trader() {
  const sb = await start(options);
  const w = newWallet();
  const c = await Client.connect(sb.wsUrl);
  const [sub] = await c.login(w);
  const order = async (fields: Record<string, unknown>) =>
    c.request('private/order', await signed(w, 'private/order', { ...fields, subaccount_id: sub! }));
  const position = async () => {
    const { positions } = await c.call('private/get_subaccount', { subaccount_id: sub });
    return positions.find((p: { instrument_name: string }) => p.instrument_name === 'TEST-PERP')?.amount ?? '0';
  };
  const working = async () => c.call('private/get_algo_orders', { subaccount_id: sub });
  const advance = async (ms: number) => expect((await control(sb, 'advance', { ms })).status).toBe(200);
  return { sb, w, c, sub: sub!, order, position, working, advance };
}

describe('TWAP orders are worked in slices on the sandbox clock', () => {
  it('nothing trades when placed; each slice buys its share when due; filled after the last', async () => {
    const t = await trader();
    const placed = await t.order(twapBuy);
    valid('private/order', placed.result);
    expect(placed.result).toMatchObject({
      trades: [],
      order: { order_status: 'algo_active', algo_type: 'twap', algo_num_slices: 4, algo_slices_completed: 0 },
    });
    expect(await t.position()).toBe('0');
    const listed = await t.working();
    valid('private/get_algo_orders', listed);
    expect(listed.map((o: { order_id: string }) => o.order_id)).toEqual([placed.result.order.order_id]);
    // The sandbox clock also runs in real time: a second short of the first slice leaves room for it.
    await t.advance(14_000);
    expect(await t.position()).toBe('0');
    await t.advance(1_000);
    expect(await t.position()).toBe('0.2');
    await t.advance(15_000);
    expect(await t.position()).toBe('0.5');
    expect((await t.working())[0]).toMatchObject({ algo_slices_completed: 2, filled_amount: '0.5' });
    // A jump runs every slice due, in order.
    await t.advance(30_000);
    expect(await t.position()).toBe('1');
    expect(await t.working()).toEqual([]);
    const orders = (await t.c.call('private/get_orders', { subaccount_id: t.sub })).orders;
    expect(orders.find((o: { order_id: string }) => o.order_id === placed.result.order.order_id)).toMatchObject({
      order_status: 'filled',
      algo_slices_completed: 4,
      filled_amount: '1',
    });
  });

  it('cancelled, it trades no more; cancel_all with cancel_algo_orders and cancel_all_algo_orders', async () => {
    const t = await trader();
    const a = (await t.order(twapBuy)).result.order;
    await t.advance(15_000);
    const cancelled = await t.c.call('private/cancel_algo_order', { subaccount_id: t.sub, order_id: a.order_id });
    valid('private/cancel_algo_order', cancelled);
    expect(cancelled).toMatchObject({ order_status: 'cancelled', cancel_reason: 'user_request', filled_amount: '0.2' });
    expect(
      (await t.c.request('private/cancel_algo_order', { subaccount_id: t.sub, order_id: a.order_id })).error.code,
    ).toBe(11001);
    await t.order(twapBuy);
    expect(await t.c.call('private/cancel_all', { subaccount_id: t.sub })).toBe('ok');
    expect(await t.working()).toHaveLength(1);
    expect(await t.c.call('private/cancel_all', { subaccount_id: t.sub, cancel_algo_orders: true })).toBe('ok');
    await t.order(twapBuy);
    expect(await t.c.call('private/cancel_all_algo_orders', { subaccount_id: t.sub })).toBe('ok');
    expect(await t.working()).toEqual([]);
    await t.advance(120_000);
    expect(await t.position()).toBe('0.2');
  });

  it('a slice the checks refuse ends the order (validation_failed); bad algo fields are refused by name', async () => {
    const t = await trader();
    await t.c.call('subscribe', { channels: [`${t.sub}.orders`] });
    const ro = (await t.order({ ...twapBuy, reduce_only: true })).result.order;
    await t.advance(15_000);
    const ended = await t.c.nextPush(
      `${t.sub}.orders`,
      undefined,
      (d) => d[0]?.order_id === ro.order_id && d[0].order_status === 'cancelled',
    );
    expect(ended[0].cancel_reason).toBe('validation_failed');
    expect(await t.position()).toBe('0');
    expect((await t.order({ ...twapBuy, algo_num_slices: 0 })).error.data).toMatch(/^algo_num_slices must be/);
    expect((await t.order({ ...twapBuy, algo_duration_sec: null })).error.data).toMatch(/^algo_duration_sec must be/);
    expect((await t.order({ ...twapBuy, amount: '0.3' })).error.data).toMatch(/less than one amount_step .* per slice/);
    const both = await t.order({ ...twapBuy, trigger_type: 'stoploss', trigger_price: '110' });
    expect(both.error.data).toMatch(/a trigger order that works as an algo is not modelled/);
    expect(await t.working()).toEqual([]);
  });
});

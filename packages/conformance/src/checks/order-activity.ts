/**
 * The order activity (only with --allow-order-flow): a resting buy far below the touch, its cancel, and a
 * buy of the smallest amount at the ask, so the private channels have something to push.
 */
import type { Ctx, Instrument } from '../context';
import type { RpcResponse, WsConn } from '../connection';
import { method } from './util';
import { DECIMAL_DIGITS, decimalToUnits, truncateTo, unitsToDecimal } from '@exchange-api/types/decimal';
import { action } from './actions';
import { publicSamples, pushesOf } from './samples';

/** What the order activity did (null where it did not get that far). */
export interface Activity {
  resting: RpcResponse | null;
  cancel: RpcResponse | null;
  crossing: RpcResponse | null;
  orderId: string | null;
}

/** The best bid and ask of the instrument from the public samples (null when the book was empty). */
export async function touch(p: Ctx, inst: Instrument): Promise<{ bid: bigint | null; ask: bigint | null }> {
  const samples = await publicSamples(p);
  const books = pushesOf(samples, 'orderbook').filter(
    (x) => (x.data as { instrument_name?: unknown })?.instrument_name === inst.instrument_name,
  );
  const last = books.at(-1)?.data as { bids?: [string, string][]; asks?: [string, string][] } | undefined;
  const first = (side?: [string, string][]) =>
    Array.isArray(side) && side[0] ? decimalToUnits(String(side[0][0]), DECIMAL_DIGITS) : null;
  return { bid: first(last?.bids), ask: first(last?.asks) };
}

/**
 * Place a resting buy far below the touch, cancel it, then buy the smallest amount at the ask. Runs on a
 * logged-in connection subscribed to the private channels, so their pushes are sampled meanwhile; fills
 * `out` as it goes, so what was done before a failure is kept.
 */
export async function orderActivity(p: Ctx, conn: WsConn, subaccount: number, out: Activity): Promise<void> {
  const key = p.options.key!;
  const inst = p.env.perp;
  if (!inst?.tick_size || !inst.amount_step) return;
  const tick = decimalToUnits(inst.tick_size, DECIMAL_DIGITS) ?? 0n;
  const step = decimalToUnits(inst.amount_step, DECIMAL_DIGITS) ?? 0n;
  const { bid, ask } = await touch(p, inst);
  const ref = bid ?? ask;
  if (ref === null || step <= 0n) return;
  const amount = unitsToDecimal(step, DECIMAL_DIGITS);
  const low = truncateTo(ref / 2n, tick);
  out.resting = await action(p, conn, key, method('order'), subaccount, {
    instrument_name: inst.instrument_name,
    direction: 'buy',
    order_type: 'limit',
    amount,
    limit_price: unitsToDecimal(low > 0n ? low : tick, DECIMAL_DIGITS),
    max_fee: '1000',
    label: 'conformance',
  });
  const order = (out.resting.result as { order?: { order_id?: unknown } } | undefined)?.order;
  out.orderId = typeof order?.order_id === 'string' ? order.order_id : null;
  if (out.orderId)
    out.cancel = await action(p, conn, key, method('cancel'), subaccount, {
      instrument_name: inst.instrument_name,
      order_id: out.orderId,
    });
  if (ask !== null) {
    const worst = truncateTo(ask + ask / 20n + tick, tick);
    out.crossing = await action(p, conn, key, method('order'), subaccount, {
      instrument_name: inst.instrument_name,
      direction: 'buy',
      order_type: 'market',
      amount,
      limit_price: unitsToDecimal(worst, DECIMAL_DIGITS),
      max_fee: '1000',
      label: 'conformance',
    });
  }
}

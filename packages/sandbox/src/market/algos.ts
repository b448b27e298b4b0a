/**
 * Algo orders: TWAP, the one algo_type there is. The order is `algo_active` under its own id and is
 * worked in `algo_num_slices` slices over `algo_duration_sec` on the sandbox clock: slice i is due at
 * creation + i × duration / slices (i = 1 … slices), so nothing trades when it is placed and the last
 * slice goes at the end of the duration. Each slice is an ioc order of the order's type and limit
 * price, for the amount that brings the fills up to i/slices of the whole (what an earlier slice did
 * not fill is tried again), through every check of a new order. Slices are worked after each market
 * tick and after the clock is advanced (a jump runs every slice due, in order).
 *
 * The order ends `filled` when all is filled; else, after its last slice, `cancelled` with cancel_reason
 * `algo_completed`. A slice refused (margin, reduce_only, max_fee, self-trade) cancels the rest, with
 * cancel_reason `validation_failed`. One whose signature expires while it works is `expired`.
 */
import { errorByName, type Order } from '@exchange-api/types';
import type { Session } from '../accounts';
import type { Clock } from '../clock';
import { div, fmt, mul, parseFixed } from '../fixed';
import { nonceText } from '../actions';
import { RpcFailure } from '../rpc';
import { amountText, amt, priceText, type Instrument } from './instrument';
import type { Instruments } from './instruments';
import { checkOrder } from './order-input';
import { checkMaxFee, checkReduceOnlyTimeInForce, checkRejectTimestamp } from './order-rules';
import type { OrderFlow, OrderParams } from './orders';
import type { Streams } from './random';
import type { OrderOutcome } from './types';
import { KeptOrders } from './kept-orders';

const ORDER_REJECTED = errorByName('RPC_ORDER_REJECTED').code;
const ORDER_NOT_FOUND = errorByName('RPC_ORDER_NOT_FOUND').code;
/** The most slices one order may have. */
export const MAX_SLICES = 1000;
/** The longest an order may work: a week. */
export const MAX_DURATION_SEC = 7 * 24 * 3600;

interface Working {
  order: Order;
  params: OrderParams;
  session: Session;
  inst: Instrument;
  lots: number;
  filled: number;
  notional: bigint;
  fee: bigint;
  slices: number;
  done: number;
  everyMs: number;
}

const isSet = (v: unknown) => v !== undefined && v !== null;

/** Whether an order asks for an algo. */
export const hasAlgo = (p: OrderParams): boolean =>
  isSet(p.algo_type) || isSet(p.algo_duration_sec) || isSet(p.algo_num_slices);

/** The TWAP fields of an order, or an order rejection naming the one not twap or out of range. */
function twapShape(p: OrderParams): { duration: number; slices: number } {
  if (p.algo_type !== 'twap')
    throw new RpcFailure(ORDER_REJECTED, `algo_type ${JSON.stringify(p.algo_type ?? null)} is not twap`);
  const duration = p.algo_duration_sec;
  const slices = p.algo_num_slices;
  if (!Number.isSafeInteger(duration) || duration! < 1 || duration! > MAX_DURATION_SEC)
    throw new RpcFailure(ORDER_REJECTED, `algo_duration_sec must be 1 to ${MAX_DURATION_SEC} (got ${duration})`);
  if (!Number.isSafeInteger(slices) || slices! < 1 || slices! > MAX_SLICES)
    throw new RpcFailure(ORDER_REJECTED, `algo_num_slices must be 1 to ${MAX_SLICES} (got ${slices})`);
  return { duration: duration!, slices: slices! };
}

type Checked = Pick<ReturnType<typeof checkOrder>, 'inst' | 'priceTicks' | 'lots' | 'maxFee' | 'tif'>;

/** The order an accepted TWAP shows: algo_active, nothing filled yet. */
function twapOrder(
  p: OrderParams,
  { inst, priceTicks, lots, maxFee, tif }: Checked,
  { t, orderId, duration, slices }: { t: number; orderId: string; duration: number; slices: number },
): Order {
  return {
    amount: amountText(inst, lots),
    average_price: '0',
    creation_timestamp: t,
    direction: p.direction,
    extra_fee: '0',
    filled_amount: '0',
    instrument_name: inst.cfg.instrument_name,
    is_transfer: false,
    last_update_timestamp: t,
    limit_price: priceText(inst, priceTicks),
    max_fee: fmt(maxFee),
    mmp: p.mmp ?? false,
    nonce: nonceText(p.nonce),
    order_fee: '0',
    order_id: orderId,
    order_status: 'algo_active',
    order_type: p.order_type ?? 'limit',
    quote_id: null,
    replaced_order_id: null,
    signature: p.signature,
    signature_expiry_sec: p.signature_expiry_sec,
    signed_limit_price: priceText(inst, priceTicks),
    signer: p.signer,
    subaccount_id: p.subaccount_id,
    time_in_force: tif,
    trigger_price: null,
    algo_type: 'twap',
    algo_duration_sec: duration,
    algo_num_slices: slices,
    algo_slices_completed: 0,
    cancel_reason: '',
    label: p.label ?? '',
  };
}

/** The TWAP orders working now. */
export class AlgoBook {
  private readonly working = new Map<string, Working>();
  /** This book's orders as a fleet keeps them for the next owner of their instrument's book. */
  readonly kept: KeptOrders<Working>;

  constructor(
    private readonly instruments: Instruments,
    private readonly orders: OrderFlow,
    private readonly streams: Streams,
    private readonly clock: Clock,
    private readonly publishOrder: (o: Order) => Order,
  ) {
    this.kept = new KeptOrders(this.working, instruments, ['notional', 'fee']);
  }

  /** `order` with algo fields: check it and start working it; nothing trades yet. */
  add(session: Session, p: OrderParams): OrderOutcome {
    const { duration, slices } = twapShape(p);
    checkRejectTimestamp(p, this.clock.now());
    const { inst, priceTicks, lots, maxFee, tif } = checkOrder(this.instruments, p);
    if (lots < slices)
      throw new RpcFailure(
        ORDER_REJECTED,
        `amount ${amountText(inst, lots)} is less than one amount_step (${inst.cfg.amount_step}` +
          `) per slice of ${slices}`,
      );
    checkReduceOnlyTimeInForce(p, 'ioc');
    checkMaxFee(inst, maxFee, priceTicks, []);
    const t = this.clock.now();
    const orderId = this.streams.uuid('algo order ids', inst.cfg.instrument_name);
    const order = twapOrder(p, { inst, priceTicks, lots, maxFee, tif }, { t, orderId, duration, slices });
    this.working.set(order.order_id, {
      order,
      params: p,
      session,
      inst,
      lots,
      filled: 0,
      notional: 0n,
      fee: 0n,
      slices,
      done: 0,
      everyMs: (duration * 1000) / slices,
    });
    return { order: this.publishOrder(order), trades: [] };
  }

  /** Run every slice that is due, oldest order first. */
  sweep(): void {
    const now = this.clock.now();
    for (const w of [...this.working.values()]) {
      while (this.working.has(w.order.order_id) && w.order.creation_timestamp + (w.done + 1) * w.everyMs <= now) {
        if (w.order.signature_expiry_sec * 1000 <= now) {
          this.finish(w, { order_status: 'expired' });
          break;
        }
        this.slice(w);
      }
    }
  }

  /** One slice: ioc for what brings the fills up to its share of the whole. */
  private slice(w: Working): void {
    w.done++;
    const target = Math.floor((w.lots * w.done) / w.slices);
    const want = target - w.filled;
    w.order.algo_slices_completed = w.done;
    if (want > 0) {
      const p = {
        ...w.params,
        amount: amountText(w.inst, want),
        time_in_force: 'ioc',
        algo_type: null,
        algo_duration_sec: null,
        algo_num_slices: null,
        label: w.params.label ?? '',
      };
      try {
        const { trades } = this.orders.place(w.session, p);
        for (const t of trades) {
          const amount = parseFixed(t.trade_amount) ?? 0n;
          w.filled += Number(amount / w.inst.stepFx);
          w.notional += mul(amount, parseFixed(t.trade_price) ?? 0n);
          w.fee += parseFixed(t.trade_fee) ?? 0n;
        }
      } catch (err) {
        if (!(err instanceof RpcFailure)) throw err;
        this.finish(w, { order_status: 'cancelled', cancel_reason: 'validation_failed' });
        return;
      }
    }
    this.record(w);
    if (w.filled >= w.lots) this.finish(w, { order_status: 'filled' });
    else if (w.done >= w.slices) this.finish(w, { order_status: 'cancelled', cancel_reason: 'algo_completed' });
    else this.publishOrder(w.order);
  }

  private record(w: Working): void {
    const filled = amt(w.inst, w.filled);
    w.order.filled_amount = fmt(filled);
    w.order.average_price = filled > 0n ? fmt(div(w.notional, filled)) : '0';
    w.order.order_fee = fmt(w.fee);
    w.order.last_update_timestamp = this.clock.now();
  }

  private finish(w: Working, change: Partial<Order>): Order {
    this.working.delete(w.order.order_id);
    Object.assign(w.order, change, { last_update_timestamp: this.clock.now() });
    return this.publishOrder(w.order);
  }

  /** A subaccount's working algo orders, oldest first. */
  ofSubaccount(subaccount: number): Order[] {
    return [...this.working.values()].filter((w) => w.order.subaccount_id === subaccount).map((w) => ({ ...w.order }));
  }

  /** `cancel_algo_order` (11001 when it is not working). */
  cancel(subaccount: number, orderId: string): Order {
    const w = this.working.get(orderId);
    if (!w || w.order.subaccount_id !== subaccount)
      throw new RpcFailure(
        ORDER_NOT_FOUND,
        `no working algo order ${JSON.stringify(orderId).slice(0, 60)} of subaccount ${subaccount}`,
      );
    return this.finish(w, { order_status: 'cancelled', cancel_reason: 'user_request' });
  }

  /** Cancel every working algo order of the subaccount; returns how many. */
  cancelAll(subaccount: number): number {
    let n = 0;
    for (const w of [...this.working.values()])
      if (w.order.subaccount_id === subaccount) {
        this.finish(w, { order_status: 'cancelled', cancel_reason: 'user_request' });
        n++;
      }
    return n;
  }
}

/**
 * Trigger orders (stop-loss and take-profit). One rests off the book, `untriggered`, until its price
 * (the mark) crosses its trigger price; then it enters the book as the order it is
 * (limit or market, with its time in force), under its own id, through the same checks as any order.
 * A stop filled at once would teach a bot what the venue never does, so the crossing is the only way
 * in, and a trigger order whose price already holds when it arrives is refused rather than placed.
 *
 * The rule, by direction (a stop-loss protects a position, a take-profit books its gain):
 * - stoploss sell, takeprofit buy: trigger when the price falls to the trigger price or below;
 * - stoploss buy, takeprofit sell: trigger when the price rises to the trigger price or above.
 * trigger_price_type defaults to `mark` when absent (derive-ts sends it as optional); `index` is refused
 * (11053), as the venue refuses it, so a bot is not taught a trigger the venue would not take.
 *
 * Checked when it arrives: every field of a plain order (instrument, amount, limit price, time in
 * force, max_fee against its limit and the mark, reject_timestamp, reduce_only's time in force).
 * Checked when it triggers: everything else (margin, reduce_only against the position then, self-trade,
 * post_only, fok). An order refused then is `cancelled` with cancel_reason `trigger_failed` and the
 * refusal in trigger_reject_message. One whose signature expires while it waits is `expired`.
 */
import { errorByName, type Order } from '@exchange-api/types';
import type { Session } from '../accounts';
import type { Clock } from '../clock';
import { fmt, parseFixed } from '../fixed';
import { nonceText } from '../actions';
import { RpcFailure } from '../rpc';
import { amountText, mid, priceText, type Instrument } from './instrument';
import type { Instruments } from './instruments';
import { checkOrder } from './order-input';
import { checkMaxFee, checkReduceOnlyTimeInForce, checkRejectTimestamp, refuseUnmodelled } from './order-rules';
import type { OrderFlow, OrderParams } from './orders';
import type { Streams } from './random';
import type { OrderOutcome } from './types';
import { KeptOrders } from './kept-orders';

const ORDER_REJECTED = errorByName('RPC_ORDER_REJECTED').code;
const ORDER_NOT_FOUND = errorByName('RPC_ORDER_NOT_FOUND').code;
const TRIGGER_PRICE_CROSSED = errorByName('RPC_TRIGGER_PRICE_CROSSED').code;
const TRIGGER_PRICE_TYPE = errorByName('RPC_TRIGGER_PRICE_TYPE').code;
const TRIGGER_TYPES = ['stoploss', 'takeprofit'] as const;
const PRICE_TYPES = ['mark', 'index'] as const;
/** The price types the venue triggers on (its 11053 refuses index and last-trade prices). */
const SERVED_PRICE_TYPES: readonly string[] = ['mark'];

type TriggerType = (typeof TRIGGER_TYPES)[number];
type PriceType = (typeof PRICE_TYPES)[number];

/** A trigger order waiting for its price. */
interface Waiting {
  order: Order;
  params: OrderParams;
  session: Session;
  inst: Instrument;
  at: bigint;
  /** The price must rise to `at` (true) or fall to it (false). */
  rising: boolean;
  priceType: PriceType;
}

/** Whether the order waits for the price to rise (else to fall), by its type and direction. */
const waitsForRise = (type: TriggerType, direction: string) => (type === 'stoploss') === (direction === 'buy');

/** Why a crossed trigger order could not enter the book, for trigger_reject_message: code and data. */
const refusal = (err: RpcFailure) => err.toWire().message + ` (${err.code})` + (err.data ? `: ${err.data}` : '');

/** The trigger orders of every subaccount, waiting in the order they arrived. */
export class TriggerBook {
  private readonly waiting = new Map<string, Waiting>();
  /** This book's orders as a fleet keeps them for the next owner of their instrument's book. */
  readonly kept: KeptOrders<Waiting>;

  constructor(
    private readonly instruments: Instruments,
    private readonly orders: OrderFlow,
    private readonly streams: Streams,
    private readonly clock: Clock,
    private readonly publishOrder: (o: Order) => Order,
  ) {
    this.kept = new KeptOrders(this.waiting, instruments, ['at']);
  }

  /** The price a trigger order watches. */
  private priceOf(inst: Instrument, type: PriceType): bigint {
    return type === 'index' ? this.instruments.indexPrice(inst) : mid(inst);
  }

  /** `order` with trigger fields: check it and rest it `untriggered`; nothing trades. */
  add(session: Session, p: OrderParams): OrderOutcome {
    refuseUnmodelled(p);
    checkRejectTimestamp(p, this.clock.now());
    const checked = checkOrder(this.instruments, p);
    const { inst, priceTicks, lots, maxFee, tif } = checked;
    const type = this.triggerType(p);
    const priceType = this.priceType(p);
    const at = this.triggerPrice(p, inst);
    checkReduceOnlyTimeInForce(p, tif);
    checkMaxFee(inst, maxFee, priceTicks, []);
    const rising = waitsForRise(type, p.direction);
    const now = this.priceOf(inst, priceType);
    if (rising ? now >= at : now <= at)
      throw new RpcFailure(
        TRIGGER_PRICE_CROSSED,
        `trigger_price ${fmt(at)} would trigger at once: the ${priceType} price of ${inst.cfg.instrument_name} ` +
          `is ${fmt(now)} and a ${type} ${p.direction} triggers at or ${rising ? 'above' : 'below'} it`,
      );
    const t = this.clock.now();
    const order: Order = {
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
      order_id: this.streams.uuid('trigger order ids', inst.cfg.instrument_name),
      order_status: 'untriggered',
      order_type: p.order_type ?? 'limit',
      quote_id: null,
      replaced_order_id: null,
      signature: p.signature,
      signature_expiry_sec: p.signature_expiry_sec,
      signed_limit_price: priceText(inst, priceTicks),
      signer: p.signer,
      subaccount_id: p.subaccount_id,
      time_in_force: tif,
      trigger_price: fmt(at),
      trigger_price_type: priceType,
      trigger_type: type,
      trigger_reject_message: null,
      cancel_reason: '',
      label: p.label ?? '',
    };
    this.waiting.set(order.order_id, { order, params: p, session, inst, at, rising, priceType });
    return { order: this.publishOrder(order), trades: [] };
  }

  private triggerType(p: OrderParams): TriggerType {
    const v = p.trigger_type;
    if (v === undefined || v === null)
      throw new RpcFailure(ORDER_REJECTED, 'trigger_type is missing: a trigger order is a stoploss or a takeprofit');
    if (!(TRIGGER_TYPES as readonly string[]).includes(v))
      throw new RpcFailure(
        ORDER_REJECTED,
        `trigger_type ${JSON.stringify(v).slice(0, 40)} is not stoploss or takeprofit`,
      );
    return v as TriggerType;
  }

  private priceType(p: OrderParams): PriceType {
    const v = p.trigger_price_type ?? 'mark';
    if (!(PRICE_TYPES as readonly string[]).includes(v))
      throw new RpcFailure(ORDER_REJECTED, `trigger_price_type ${JSON.stringify(v).slice(0, 40)} is not mark or index`);
    if (!SERVED_PRICE_TYPES.includes(v))
      throw new RpcFailure(TRIGGER_PRICE_TYPE, `trigger_price_type ${v}: only mark prices trigger, as on the venue`);
    return v as PriceType;
  }

  private triggerPrice(p: OrderParams, inst: Instrument): bigint {
    if (p.trigger_price === undefined || p.trigger_price === null)
      throw new RpcFailure(ORDER_REJECTED, 'trigger_price is missing: a trigger order needs the price it waits for');
    const at = parseFixed(p.trigger_price);
    if (at === null || at <= 0n)
      throw new RpcFailure(
        ORDER_REJECTED,
        `trigger_price must be a decimal above zero (got ${String(p.trigger_price).slice(0, 40)})`,
      );
    if (at % inst.tickFx !== 0n)
      throw new RpcFailure(
        ORDER_REJECTED,
        `trigger_price ${p.trigger_price} is not a multiple of tick_size ${inst.cfg.tick_size}`,
      );
    return at;
  }

  /**
   * Look at every waiting order, in the order they arrived: one whose signature has expired is
   * `expired`; one whose price has been crossed enters the book. Run after each market tick, after the
   * mark is moved, and after the clock is advanced.
   */
  sweep(): void {
    const nowMs = this.clock.now();
    for (const w of [...this.waiting.values()]) {
      if (!this.waiting.has(w.order.order_id)) continue;
      if (w.order.signature_expiry_sec * 1000 <= nowMs) {
        this.finish(w, { order_status: 'expired' });
        continue;
      }
      const price = this.priceOf(w.inst, w.priceType);
      if (w.rising ? price >= w.at : price <= w.at) this.fire(w);
    }
  }

  /** The crossing: the order enters the book as its order type, or is cancelled saying why it could not. */
  private fire(w: Waiting): void {
    this.waiting.delete(w.order.order_id);
    const plain = { ...w.params, trigger_type: null, trigger_price: null, trigger_price_type: null };
    try {
      this.orders.place(w.session, plain, w.order);
    } catch (err) {
      if (!(err instanceof RpcFailure)) throw err;
      this.finish(w, {
        order_status: 'cancelled',
        cancel_reason: 'trigger_failed',
        trigger_reject_message: refusal(err),
      });
    }
  }

  private finish(w: Waiting, change: Partial<Order>): Order {
    this.waiting.delete(w.order.order_id);
    Object.assign(w.order, change, { last_update_timestamp: this.clock.now() });
    return this.publishOrder(w.order);
  }

  /** A subaccount's waiting trigger orders, oldest first. */
  ofSubaccount(subaccount: number): Order[] {
    return [...this.waiting.values()].filter((w) => w.order.subaccount_id === subaccount).map((w) => ({ ...w.order }));
  }

  /** `cancel_trigger_order`: one waiting order of the subaccount (11001 when none). */
  cancel(subaccount: number, orderId: string): Order {
    const w = this.waiting.get(orderId);
    if (!w || w.order.subaccount_id !== subaccount)
      throw new RpcFailure(
        ORDER_NOT_FOUND,
        `no untriggered order ${JSON.stringify(orderId).slice(0, 60)} of subaccount ${subaccount}`,
      );
    return this.finish(w, { order_status: 'cancelled', cancel_reason: 'user_request' });
  }

  /** Cancel every waiting order of the subaccount passing the filter; returns how many. */
  cancelWhere(subaccount: number, keep: (o: Order) => boolean = () => true): number {
    let n = 0;
    for (const w of [...this.waiting.values()])
      if (w.order.subaccount_id === subaccount && keep(w.order)) {
        this.finish(w, { order_status: 'cancelled', cancel_reason: 'user_request' });
        n++;
      }
    return n;
  }
}

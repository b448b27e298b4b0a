/**
 * Order flow: accepting an order (its checks, matching, settling, resting or cancelling the rest),
 * replacing one, and the cancels.
 */
import { errorByName, type CancelReason, type Order } from '@exchange-api/types';
import type { Session } from '../accounts';
import type { Clock } from '../clock';
import { RpcFailure } from '../rpc';
import { nonceText } from '../actions';
import { fmt } from '../fixed';
import { amountText, priceText, type Resting } from './instrument';
import type { Instruments } from './instruments';
import { insertResting, removeResting, type OpenOrders } from './book';
import { plan } from './matching';
import { checkOrder, type CheckedOrder } from './order-input';
import {
  checkMaxFee,
  checkReduceOnly,
  checkRejectTimestamp,
  refuseSelfCrossing,
  refuseTriggerFields,
  refuseUnmodelled,
} from './order-rules';
import type { Margin } from './margin';
import type { Settlement } from './settlement';
import type { Streams } from './random';
import type { ActionFieldsLike, Fill, OrderFields, OrderOutcome, PrivateTrade, Publisher } from './types';

const ORDER_REJECTED = errorByName('RPC_ORDER_REJECTED').code;
const ORDER_NOT_FOUND = errorByName('RPC_ORDER_NOT_FOUND').code;

/** The params of `order` (and of `replace`, without its order_id_to_cancel). */
export type OrderParams = OrderFields & ActionFieldsLike;

/** The order-flow methods over the books, the ledger and the channels. */
export class OrderFlow {
  constructor(
    private readonly instruments: Instruments,
    private readonly open: OpenOrders,
    private readonly margin: Margin,
    private readonly settlement: Settlement,
    private readonly streams: Streams,
    private readonly clock: Clock,
    private readonly out: Publisher,
  ) {}

  /**
   * `order`: check, match, rest or cancel the remainder, push. `triggered` is the record of a trigger
   * order whose price was crossed (triggers.ts): the order keeps its id, creation time and trigger fields.
   */
  place(session: Session, p: OrderParams, triggered?: Order): OrderOutcome {
    const checked = this.check(p, triggered ? 'a triggered order' : 'private/order');
    return this.execute(session, p, checked, this.admit(p, checked), null, triggered);
  }

  /**
   * `replace`, all or nothing: the old order must be open (11001) and the new one must pass every
   * check as if the old one were gone (it neither trades against it nor counts its margin); only then
   * is the old one cancelled and pushed, and the new one placed.
   */
  replace(
    session: Session,
    p: OrderParams & { order_id_to_cancel: string },
  ): { cancelled_order: Order; order: Order; trades: PrivateTrade[] } {
    const checked = this.check(p, 'private/replace');
    const old = this.openOrder(p.subaccount_id, p.order_id_to_cancel);
    const fills = this.admit(p, checked, old);
    const cancelled = this.cancelResting(old);
    const placed = this.execute(session, p, checked, fills, old.order.order_id);
    return { cancelled_order: cancelled, order: placed.order, trades: placed.trades };
  }

  /** `cancel`: one open order by id (11001 when none). */
  cancel(subaccount: number, instrument: string, orderId: string): Order {
    this.instruments.orReject(instrument);
    return this.cancelResting(this.openOrder(subaccount, orderId, instrument));
  }

  /** The other cancels: every open order of the subaccount passing the filter; returns how many. */
  cancelWhere(subaccount: number, keep: (o: Order) => boolean, reason: CancelReason = 'user_request'): number {
    let n = 0;
    for (const r of this.open.ofSubaccount(subaccount)) {
      if (!keep(r.order)) continue;
      this.cancelResting(r, reason);
      n++;
    }
    return n;
  }

  /** An order's fields in exact units, once no field is one the sandbox leaves unmodelled and it is in time. */
  private check(p: OrderParams, where: string): CheckedOrder {
    refuseUnmodelled(p);
    refuseTriggerFields(p, where);
    checkRejectTimestamp(p, this.clock.now());
    return checkOrder(this.instruments, p);
  }

  /**
   * The fills an order would get, once it passes its checks: post_only must not cross, fok must fill in
   * full, reduce_only must only reduce, max_fee must cover the fee, no fill against its own subaccount,
   * and the account must carry it.
   */
  private admit(p: OrderParams, checked: CheckedOrder, replacing?: Resting): Fill[] {
    const { inst, priceTicks, lots, tif } = checked;
    const fills = plan(inst, p.direction, priceTicks, lots, replacing);
    checkReduceOnly(p, tif, inst, lots, this.margin.positionOf(p.subaccount_id, inst));
    checkMaxFee(inst, checked.maxFee, priceTicks, fills);
    refuseSelfCrossing(p.subaccount_id, p.direction, fills);
    const fillable = fills.reduce((s, f) => s + f.lots, 0);
    // The sandbox rejects a crossing post_only order; the venue reprices it unless reject_post_only is
    // true. Said by name where the two differ, never a silent change of behaviour.
    if (tif === 'post_only' && fills.length > 0)
      throw new RpcFailure(
        ORDER_REJECTED,
        `post_only order would cross the book at ${priceText(inst, fills[0]!.priceTicks)}` +
          ((p as { reject_post_only?: boolean | null }).reject_post_only === true
            ? ''
            : ' (reject_post_only: the sandbox does not reprice a post_only order; it rejects it, as true asks)'),
      );
    if (tif === 'fok' && fillable < lots)
      throw new RpcFailure(
        ORDER_REJECTED,
        `fok order cannot be filled in full (${amountText(inst, fillable)} of ${amountText(inst, lots)} available)`,
      );
    this.margin.assertCanCarry({
      inst,
      subaccount: p.subaccount_id,
      direction: p.direction,
      priceTicks,
      lots,
      replacing,
    });
    return fills;
  }

  /** Place an admitted order: settle its fills, then rest the remainder or cancel it (market, ioc, fok). */
  private execute(
    session: Session,
    p: OrderParams,
    checked: CheckedOrder,
    fills: Fill[],
    replaced: string | null,
    triggered?: Order,
  ): OrderOutcome {
    const { inst, priceTicks, lots, tif } = checked;
    const now = this.clock.now();
    const order = { ...this.newOrder(p, checked, replaced, now), ...(triggered && keptOnTrigger(triggered)) };
    const taker: Resting = {
      order,
      priceTicks,
      remaining: lots,
      filled: 0,
      notional: 0n,
      fee: 0n,
      wallet: session.wallet,
    };
    this.open.add(taker);
    const trades = fills.map((f) =>
      this.settlement.settle(
        inst,
        { subaccount: p.subaccount_id, wallet: session.wallet, resting: taker },
        f,
        p.direction,
        now,
      ),
    );
    this.settlement.publishPublic(
      inst,
      trades.map((t) => t.shown),
    );
    if (taker.remaining > 0) {
      if ((p.order_type ?? 'limit') === 'market' || tif === 'ioc' || tif === 'fok') {
        this.open.delete(order.order_id);
        order.order_status = 'cancelled';
        order.cancel_reason = 'ioc_or_market_partial_fill';
        order.last_update_timestamp = now;
        this.publishOrder(order);
      } else {
        insertResting(inst, taker);
        if (fills.length === 0) this.publishOrder(order);
      }
    }
    return { order: { ...order }, trades: trades.map((t) => t.own) };
  }

  private newOrder(p: OrderParams, checked: CheckedOrder, replaced: string | null, now: number): Order {
    const { inst, priceTicks, lots, maxFee, tif } = checked;
    return {
      amount: amountText(inst, lots),
      average_price: '0',
      creation_timestamp: now,
      direction: p.direction,
      extra_fee: '0',
      filled_amount: '0',
      instrument_name: inst.cfg.instrument_name,
      is_transfer: false,
      last_update_timestamp: now,
      limit_price: priceText(inst, priceTicks),
      max_fee: fmt(maxFee),
      mmp: p.mmp ?? false,
      nonce: nonceText(p.nonce),
      order_fee: '0',
      order_id: this.streams.uuid('order ids', inst.cfg.instrument_name),
      order_status: 'open',
      order_type: p.order_type ?? 'limit',
      quote_id: null,
      replaced_order_id: replaced,
      signature: p.signature,
      signature_expiry_sec: p.signature_expiry_sec,
      signed_limit_price: priceText(inst, priceTicks),
      signer: p.signer,
      subaccount_id: p.subaccount_id,
      time_in_force: tif,
      trigger_price: null,
      cancel_reason: '',
      label: p.label ?? '',
    };
  }

  /** The subaccount's open order of this id (and instrument, when given), or 11001. */
  private openOrder(subaccount: number, orderId: string, instrument?: string): Resting {
    const r = this.open.get(orderId);
    if (
      !r ||
      r.order.subaccount_id !== subaccount ||
      (instrument !== undefined && r.order.instrument_name !== instrument)
    ) {
      throw new RpcFailure(
        ORDER_NOT_FOUND,
        `no open order ${JSON.stringify(orderId).slice(0, 60)} of subaccount ${subaccount}` +
          `${instrument ? ` in ${instrument}` : ''}`,
      );
    }
    return r;
  }

  /** Take an open order off the book at the user's request and push it; returns its record. */
  private cancelResting(r: Resting, reason: CancelReason = 'user_request'): Order {
    removeResting(this.instruments.ofOrder(r), r);
    this.open.delete(r.order.order_id);
    r.order.order_status = 'cancelled';
    r.order.cancel_reason = reason;
    r.order.last_update_timestamp = this.clock.now();
    return this.publishOrder(r.order);
  }

  private publishOrder(order: Order): Order {
    return this.settlement.publishOrder(order);
  }
}

/** What a trigger order keeps when it enters the book: its id, its creation time and its trigger fields. */
function keptOnTrigger(o: Order): Partial<Order> {
  const { order_id, creation_timestamp, trigger_type, trigger_price, trigger_price_type } = o;
  return {
    order_id,
    creation_timestamp,
    trigger_type,
    trigger_price,
    trigger_price_type,
    trigger_reject_message: null,
  };
}

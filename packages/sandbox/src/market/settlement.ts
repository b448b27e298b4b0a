/**
 * Settling fills: both sides booked in the ledger, the order records brought up to date, the trade
 * records written and kept (history.ts), and the pushes on the private and public channels. A fill
 * settles at once, so its batch is Settled as it is pushed (the batch-status-channels assumption).
 */
import { keccak256, toUtf8Bytes } from 'ethers';
import type { Order, PublicTrade } from '@exchange-api/types';
import { address } from '../channels';
import { bps, div, fmt } from '../fixed';
import { amountText, amt, mid, notional, priceText, type Instrument, type Resting } from './instrument';
import type { Instruments } from './instruments';
import type { Counterparties } from './counterparties';
import { removeResting, type OpenOrders } from './book';
import type { Ledger } from './ledger';
import type { Streams } from './random';
import { MAKER_FEE_BPS, TAKER_FEE_BPS } from './rates';
import type { History } from './history';
import type { Direction, Fill, PrivateTrade, Publisher, SettledTrade, Side } from './types';

/** The one batch state the sandbox's fills reach: they settle as they happen. */
const SETTLED = 'Settled';

/** What a trade record says about one side of a fill. */
export interface TradeFacts {
  direction: Direction;
  priceTicks: number;
  lots: number;
  role: 'maker' | 'taker';
  wallet: string;
  subaccount: number;
  fee: bigint;
  realized: bigint;
  now: number;
  tradeId: string;
}

/** Applies fills to the ledger, the orders and the channels. */
export class Settlement {
  /** Told of every fill of a user's order, after it is booked (market maker protection counts them). */
  filled: ((inst: Instrument, r: Resting, direction: Direction, lots: number) => void) | null = null;

  constructor(
    private readonly instruments: Instruments,
    private readonly ledger: Ledger,
    private readonly counterparties: Counterparties,
    private readonly open: OpenOrders,
    private readonly streams: Streams,
    private readonly out: Publisher,
    private readonly history: History,
  ) {}

  /**
   * Apply one fill to both sides: ledgers, order records, trades, and the pushes on the private
   * channels. Returns the taker's trade: its own record, and the record the public channels show.
   */
  settle(
    inst: Instrument,
    taker: Side,
    fill: Fill,
    takerDirection: Direction,
    now: number,
  ): { own: PrivateTrade; shown: PublicTrade } {
    const tradeId = this.streams.uuid('trade ids', inst.cfg.instrument_name);
    const value = notional(inst, fill.priceTicks, fill.lots);
    this.recordStats(inst, fill.priceTicks, fill.lots);
    const maker: Side = fill.maker
      ? { subaccount: fill.maker.order.subaccount_id, wallet: fill.maker.wallet, resting: fill.maker }
      : this.counterparties.side(this.counterparties.maker);
    const makerDirection: Direction = takerDirection === 'buy' ? 'sell' : 'buy';
    let takerRecord: { own: PrivateTrade; shown: PublicTrade } | null = null;
    for (const [side, role, direction, feeBps] of [
      [taker, 'taker', takerDirection, TAKER_FEE_BPS],
      [maker, 'maker', makerDirection, MAKER_FEE_BPS],
    ] as const) {
      const fee = bps(value, feeBps);
      const { updates, realized } = this.ledger.book(inst, side.subaccount, direction, fill, fee, now);
      const shown = this.tradeRecord(inst, {
        direction,
        priceTicks: fill.priceTicks,
        lots: fill.lots,
        role,
        wallet: side.wallet,
        subaccount: side.subaccount,
        fee,
        realized,
        now,
        tradeId,
      });
      const own = this.privateRecordOf(shown, side);
      if (role === 'taker') takerRecord = { own, shown };
      if (side.resting) this.applyToOrder(inst, side.resting, fill.lots, value, fee, now);
      if (side.resting) this.filled?.(inst, side.resting, direction, fill.lots);
      this.history.trade(own);
      this.out.publish(address('subaccountTrades', { subaccount_id: side.subaccount }), [own]);
      this.out.publish(address('subaccountTradesBatch', { subaccount_id: side.subaccount, batch_status: SETTLED }), [
        { ...own, batch_status: SETTLED },
      ]);
      this.out.publish(address('subaccountBalances', { subaccount_id: side.subaccount }), updates);
    }
    this.consumeMakerLiquidity(inst, fill, takerDirection);
    return takerRecord!;
  }

  /** A trade record of one side of a fill. */
  tradeRecord(inst: Instrument, t: TradeFacts): PublicTrade {
    return {
      direction: t.direction,
      expected_rebate: '0',
      extra_fee: '0',
      index_price: fmt(this.instruments.indexPrice(inst), inst.priceDp),
      mark_price: fmt(mid(inst)),
      realized_pnl: fmt(t.realized - t.fee),
      realized_pnl_excl_fees: fmt(t.realized),
      trade_amount: amountText(inst, t.lots),
      trade_fee: fmt(t.fee),
      trade_id: t.tradeId,
      trade_price: priceText(inst, t.priceTicks),
      instrument_name: inst.cfg.instrument_name,
      wallet: t.wallet,
      liquidity_role: t.role,
      subaccount_id: t.subaccount,
      timestamp: t.now,
      quote_id: null,
      rfq_id: null,
    };
  }

  /**
   * The side's own record of a fill: the public record plus the order it filled. A simulated
   * counterparty has no order in the book, so each of its fills gets an order id of its own.
   */
  private privateRecordOf(shown: PublicTrade, side: Side): PrivateTrade {
    const order = side.resting?.order;
    return privateRecord(
      shown,
      order?.order_id ?? this.streams.uuid('counterparty order ids', shown.instrument_name),
      order?.label ?? '',
    );
  }

  /** Push the takers' trades on the instrument's public trade channels, and keep them on the tape. */
  publishPublic(inst: Instrument, trades: PublicTrade[]): void {
    if (trades.length === 0) return;
    const { instrument_type, base_currency: currency } = inst.cfg;
    this.out.publish(address('trades', { instrument_name: inst.cfg.instrument_name }), trades);
    this.out.publish(address('tradesByType', { instrument_type, currency }), trades);
    const settled = trades.map(settledOf);
    for (const t of settled) this.history.publicTrade(t);
    this.out.publish(address('tradesByTypeBatch', { instrument_type, currency, batch_status: SETTLED }), settled);
  }

  /** Push an order's current record on its subaccount's orders channel, and keep it; returns the copy pushed. */
  publishOrder(order: Order): Order {
    this.history.order(order);
    return publishOrder(this.out, order);
  }

  /** A filled resting order leaves the book; synthetic liquidity shrinks by what was taken. */
  private consumeMakerLiquidity(inst: Instrument, fill: Fill, takerDirection: Direction): void {
    if (fill.maker) {
      if (fill.maker.remaining === 0) removeResting(inst, fill.maker);
      return;
    }
    const syn = takerDirection === 'buy' ? inst.synAsks : inst.synBids;
    const left = (syn.get(fill.priceTicks) ?? 0) - fill.lots;
    if (left > 0) syn.set(fill.priceTicks, left);
    else syn.delete(fill.priceTicks);
  }

  private applyToOrder(inst: Instrument, r: Resting, lots: number, value: bigint, fee: bigint, now: number): void {
    const o = r.order;
    r.filled += lots;
    r.remaining -= lots;
    r.notional += value;
    r.fee += fee;
    o.filled_amount = amountText(inst, r.filled);
    o.average_price = fmt(div(r.notional, amt(inst, r.filled)), Math.min(12, inst.priceDp + 4));
    o.order_fee = fmt(r.fee);
    o.last_update_timestamp = now;
    if (r.remaining === 0) {
      o.order_status = 'filled';
      this.open.delete(o.order_id);
    }
    this.publishOrder(o);
  }

  private recordStats(inst: Instrument, ticks: number, lots: number): void {
    const s = inst.stats;
    s.c += lots;
    s.n += 1;
    const value = notional(inst, ticks, lots);
    s.v += value;
    if (inst.cfg.instrument_type === 'option') s.pr += value;
    s.h = Math.max(s.h, ticks);
    s.l = Math.min(s.l, ticks);
  }
}

/**
 * A public trade record with the order it filled: the private Trade record. The sandbox settles at once,
 * so the fill is in a settled batch with its transaction; op_uuid names the operation (derive-ts reads it).
 */
export function privateRecord(shown: PublicTrade, orderId: string, label: string): PrivateTrade {
  const op = keccak256(toUtf8Bytes(`sandbox operation ${shown.trade_id} ${orderId}`)).slice(2, 34);
  return {
    ...shown,
    quote_id: shown.quote_id ?? null,
    rfq_id: shown.rfq_id ?? null,
    order_id: orderId,
    label,
    is_transfer: false,
    op_uuid: `${op.slice(0, 8)}-${op.slice(8, 12)}-4${op.slice(13, 16)}-8${op.slice(17, 20)}-${op.slice(20, 32)}`,
    tx_hash: keccak256(toUtf8Bytes(`sandbox trade ${shown.trade_id}`)),
    batch_status: SETTLED,
  };
}

/** A public trade as the tape and the batch-status channel show it: settled, with its transaction. */
export function settledOf(t: PublicTrade): SettledTrade {
  return {
    ...t,
    tx_status: 'settled',
    tx_hash: keccak256(toUtf8Bytes(`sandbox trade ${t.trade_id}`)),
    batch_status: SETTLED,
  };
}

/** Push an order's current record on its subaccount's orders channel; returns the copy pushed. */
function publishOrder(out: Publisher, order: Order): Order {
  const copy = { ...order };
  out.publish(address('subaccountOrders', { subaccount_id: order.subaccount_id }), [copy]);
  return copy;
}

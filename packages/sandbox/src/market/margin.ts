/**
 * Margin: what a subaccount is worth at the mids, what its exposure asks of it, whether it can carry
 * one more order, and the two account channels (margin.watch and auctions.watch).
 */
import { errorByName, type AuctionResult, type MarginWatchResult } from '@exchange-api/types';
import { RpcFailure } from '../rpc';
import { ONE, abs, bps, fmt, max, mul } from '../fixed';
import { amt, mid, notional, positionAsset, type Instrument, type Resting } from './instrument';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { OpenOrders } from './book';
import { INITIAL_MARGIN_BPS, MAINTENANCE_MARGIN_BPS, TAKER_FEE_BPS } from './rates';
import type { Direction } from './types';

const ORDER_REJECTED = errorByName('RPC_ORDER_REJECTED').code;

/** An order about to be accepted: its instrument, side, limit and size, and an order it replaces (not counted). */
export interface Proposed {
  inst: Instrument;
  subaccount: number;
  direction: Direction;
  priceTicks: number;
  lots: number;
  replacing?: Resting;
}

/** A subaccount's value and margins at the mids, with the records margin.watch shows. */
interface Valuation {
  value: bigint;
  initial: bigint;
  maintenance: bigint;
  collaterals: unknown[];
  positions: unknown[];
}

const isDerivative = (inst: Instrument) => inst.cfg.instrument_type !== 'erc20';

/** Valuations, the carry check and the account channels. */
export class Margin {
  constructor(
    private readonly instruments: Instruments,
    private readonly ledger: Ledger,
    private readonly open: OpenOrders,
  ) {}

  /** A subaccount's position in an instrument (spot: its holding of the base currency), signed. */
  positionOf(subaccount: number, inst: Instrument): bigint {
    return this.ledger.accounts.balance(subaccount, positionAsset(inst));
  }

  /**
   * Cash and spot assets at their price, options at their mark, perps by their unrealized PnL; margins on perp and
   * option notional.
   */
  valuation(subaccount: number): Valuation {
    let value = 0n;
    let exposure = 0n;
    const collaterals: unknown[] = [];
    const positions: unknown[] = [];
    for (const [asset, amount] of this.ledger.accounts.balances.get(subaccount) ?? []) {
      const inst = this.instruments.get(asset);
      if (!inst) {
        collaterals.push({ asset_name: asset, amount: fmt(amount) });
        value += mul(amount, this.instruments.spotPrice(asset));
        continue;
      }
      const mark = mid(inst);
      positions.push({ instrument_name: asset, amount: fmt(amount), mark_price: fmt(mark) });
      exposure += abs(mul(amount, mark));
      if (inst.cfg.instrument_type === 'perp')
        value += mul(amount, mark - (this.ledger.entryOf(subaccount, asset) ?? mark));
      else value += mul(amount, mark);
    }
    return {
      value,
      initial: bps(exposure, INITIAL_MARGIN_BPS),
      maintenance: bps(exposure, MAINTENANCE_MARGIN_BPS),
      collaterals,
      positions,
    };
  }

  /**
   * Refuse an order the subaccount cannot carry, counting its open orders: a spot sell needs the asset
   * (less what open sells hold back); a spot or option buy needs the cash for its price and taker fee
   * (less what open buys hold back); perp and option orders need the initial margin of the worst case
   * of every position and its open orders filling one way, at the mids, within the subaccount's value.
   */
  assertCanCarry(p: Proposed): void {
    const open = this.open.ofSubaccount(p.subaccount).filter((r) => r !== p.replacing);
    if (p.inst.cfg.instrument_type === 'erc20' && p.direction === 'sell') this.assertHolds(p, open);
    if (p.direction === 'buy' && p.inst.cfg.instrument_type !== 'perp') this.assertCash(p, open);
    if (isDerivative(p.inst)) this.assertMargin(p, open);
  }

  private assertHolds(p: Proposed, open: Resting[]): void {
    const base = p.inst.cfg.base_currency;
    const heldBack = open
      .map((r) => ({ r, inst: this.instruments.ofOrder(r) }))
      .filter(
        ({ r, inst }) =>
          r.order.direction === 'sell' && inst.cfg.instrument_type === 'erc20' && inst.cfg.base_currency === base,
      )
      .reduce((s, { r, inst }) => s + amt(inst, r.remaining), 0n);
    const held = this.ledger.accounts.balance(p.subaccount, base);
    const wanted = amt(p.inst, p.lots);
    if (heldBack + wanted > held) {
      throw new RpcFailure(
        ORDER_REJECTED,
        `insufficient balance: selling ${fmt(wanted)} ${base} needs ${fmt(heldBack + wanted)}` +
          ` with the open sells, and subaccount ${p.subaccount} holds ${fmt(held)} ${base}`,
      );
    }
  }

  private assertCash(p: Proposed, open: Resting[]): void {
    const quote = p.inst.cfg.quote_currency;
    const cost = (inst: Instrument, ticks: number, lots: number) => {
      const n = notional(inst, ticks, lots);
      return n + bps(n, TAKER_FEE_BPS);
    };
    const heldBack = open
      .map((r) => ({ r, inst: this.instruments.ofOrder(r) }))
      .filter(
        ({ r, inst }) =>
          r.order.direction === 'buy' && inst.cfg.instrument_type !== 'perp' && inst.cfg.quote_currency === quote,
      )
      .reduce((s, { r, inst }) => s + cost(inst, r.priceTicks, r.remaining), 0n);
    const cash = this.ledger.accounts.balance(p.subaccount, quote);
    const needed = heldBack + cost(p.inst, p.priceTicks, p.lots);
    if (needed > cash) {
      throw new RpcFailure(
        ORDER_REJECTED,
        `insufficient balance: the buy costs up to ${fmt(needed - heldBack, 2)} ${quote}` +
          ` with fees (${fmt(needed, 2)} with the open buys), and subaccount ${p.subaccount}` +
          ` holds ${fmt(cash, 2)} ${quote}`,
      );
    }
  }

  private assertMargin(p: Proposed, open: Resting[]): void {
    let exposure = 0n;
    for (const inst of this.instruments.all()) {
      if (!isDerivative(inst)) continue;
      const position = this.ledger.accounts.balance(p.subaccount, positionAsset(inst));
      const sum = (direction: Direction) =>
        open
          .filter((r) => r.order.instrument_name === inst.cfg.instrument_name && r.order.direction === direction)
          .reduce((s, r) => s + amt(inst, r.remaining), 0n) +
        (inst === p.inst && p.direction === direction ? amt(inst, p.lots) : 0n);
      const worst = max(max(position + sum('buy'), sum('sell') - position), 0n);
      exposure += mul(worst, mid(inst));
    }
    const required = bps(exposure, INITIAL_MARGIN_BPS);
    const value = this.valuation(p.subaccount).value;
    if (required > value) {
      throw new RpcFailure(
        ORDER_REJECTED,
        `insufficient margin: the initial margin of the positions and open orders ` +
          `with this one is ${fmt(required, 2)} ${p.inst.cfg.quote_currency}, above ` +
          `subaccount ${p.subaccount}'s value of ${fmt(value, 2)}`,
      );
    }
  }

  /** margin.watch: every known subaccount's margin state (first 50), valued at the mids. */
  margins(now: number): MarginWatchResult[] {
    const out: MarginWatchResult[] = [];
    for (const id of this.ledger.accounts.balances.keys()) {
      if (out.length >= 50) break;
      const v = this.valuation(id);
      out.push({
        collaterals: v.collaterals,
        currency: 'USDC',
        initial_margin: fmt(v.initial, 6),
        maintenance_margin: fmt(v.maintenance, 6),
        margin_type: 'SM',
        positions: v.positions,
        subaccount_id: id,
        subaccount_value: fmt(v.value, 6),
        valuation_timestamp: now,
      });
    }
    return out;
  }

  /** auctions.watch: a simulated account in auction, and one whose auction ended. */
  auctions(now: number): AuctionResult[] {
    const inst = this.instruments.first();
    const mark = mid(inst);
    // Short 2 perps entered at 78 % of today's mark, with 1500 USDC: the unrealized loss leaves a
    // mark-to-market value under the 5 % maintenance margin, so the account is in auction.
    const position = -2n * ONE;
    const entry = bps(mark, 7800);
    const mtm = 1500n * ONE + mul(position, mark - entry);
    const details = {
      estimated_bid_price: fmt(bps(mark, 9500), 2),
      estimated_discount_pnl: fmt(-bps(mul(abs(position), mark), 500), 2),
      estimated_mtm: fmt(mtm, 2),
      estimated_percent_bid: '0.25',
      margin_type: 'SM',
      min_price_limit: fmt(bps(mark, 9000), 2),
      subaccount_balances: { USDC: '1500', [inst.cfg.instrument_name]: fmt(position) },
      currency: null,
    };
    return [
      { state: 'ongoing', subaccount_id: 900_001, timestamp: now, details },
      { state: 'ended', subaccount_id: 900_002, timestamp: now, details: null },
    ];
  }
}

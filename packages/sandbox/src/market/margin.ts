/**
 * Margin: what a subaccount is worth at the mids, what its exposure asks of it, whether it can carry
 * one more order, and margin.watch. The model's parameters are the `margin` option (options-margin.ts).
 */
import { errorByName, type MarginWatchResult } from '@exchange-api/types';
import { RpcFailure } from '../rpc';
import { abs, bps, fixed, fmt, max, mul } from '../fixed';
import { defaultMarginModel, type KindMargin, type MarginModel } from '../options-margin';
import { amt, mid, notional, positionAsset, type Instrument, type Resting } from './instrument';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { OpenOrders } from './book';
import { TAKER_FEE_BPS } from './rates';
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
export interface Valuation {
  value: bigint;
  initial: bigint;
  maintenance: bigint;
  collaterals: unknown[];
  positions: unknown[];
}

/** Balances to value: asset or instrument name → signed amount, with the perps' entry prices. */
export interface Holdings {
  balances: Iterable<[string, bigint]>;
  entryOf(instrument: string): bigint | undefined;
}

const isDerivative = (inst: Instrument) => inst.cfg.instrument_type !== 'erc20';
const fraction = (x: number) => fixed(x.toFixed(12));

/** Valuations, the carry check and margin.watch. */
export class Margin {
  private readonly rates: Record<'perp' | 'option' | 'erc20', { initial: bigint; maintenance: bigint }>;

  constructor(
    private readonly instruments: Instruments,
    private readonly ledger: Ledger,
    private readonly open: OpenOrders,
    /** The model's parameters (the `margin` option). */
    readonly model: MarginModel = defaultMarginModel,
  ) {
    const of = (k: KindMargin) => ({ initial: fraction(k.initial), maintenance: fraction(k.maintenance) });
    this.rates = { perp: of(model.perp), option: of(model.option), erc20: of(model.erc20) };
  }

  /** The initial and maintenance margin of a holding of an instrument kind worth `value` (its sign ignored). */
  requirement(kind: 'perp' | 'option' | 'erc20', value: bigint): { initial: bigint; maintenance: bigint } {
    const r = this.rates[kind];
    return { initial: mul(abs(value), r.initial), maintenance: mul(abs(value), r.maintenance) };
  }

  /** A subaccount's position in an instrument (spot: its holding of the base currency), signed. */
  positionOf(subaccount: number, inst: Instrument): bigint {
    return this.ledger.accounts.balance(subaccount, positionAsset(inst));
  }

  /** A spot token's erc20 instrument (a base currency traded spot), or undefined for cash. */
  private spotOf(asset: string): Instrument | undefined {
    for (const i of this.instruments.all())
      if (i.cfg.instrument_type === 'erc20' && i.cfg.base_currency === asset) return i;
    return undefined;
  }

  /** A subaccount's valuation (margin.ts's model, docs/sandbox.md). */
  valuation(subaccount: number): Valuation {
    return this.value({
      balances: this.ledger.accounts.balances.get(subaccount) ?? [],
      entryOf: (name) => this.ledger.entryOf(subaccount, name),
    });
  }

  /**
   * Cash and spot tokens at their price, options at their mark, perps by their unrealized PnL. The
   * margins: each perp and option position's kind's fraction of |amount| × mark, and the erc20 haircut
   * of each spot token held (cash is never cut).
   */
  value(h: Holdings): Valuation {
    let value = 0n;
    let initial = 0n;
    let maintenance = 0n;
    const collaterals: unknown[] = [];
    const positions: unknown[] = [];
    const add = (r: { initial: bigint; maintenance: bigint }) => {
      initial += r.initial;
      maintenance += r.maintenance;
    };
    for (const [asset, amount] of h.balances) {
      const inst = this.instruments.get(asset);
      if (!inst) {
        collaterals.push({ asset_name: asset, amount: fmt(amount) });
        const worth = mul(amount, this.instruments.spotPrice(asset));
        value += worth;
        if (this.spotOf(asset) && amount > 0n) add(this.requirement('erc20', worth));
        continue;
      }
      const mark = mid(inst);
      positions.push({ instrument_name: asset, amount: fmt(amount), mark_price: fmt(mark) });
      add(this.requirement(inst.cfg.instrument_type, mul(amount, mark)));
      if (inst.cfg.instrument_type === 'perp') value += mul(amount, mark - (h.entryOf(asset) ?? mark));
      else value += mul(amount, mark);
    }
    return { value, initial, maintenance, collaterals, positions };
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
    const withIt = this.worstCase(p, open, true);
    // An order that does not add to the worst case (one that reduces a position) is never refused for margin;
    // no order at all (lots 0: funds.ts asking whether the account still carries itself) is checked.
    if (p.lots > 0 && withIt <= this.worstCase(p, open, false)) return;
    const exposure = withIt;
    // The spot tokens' haircut is part of the initial margin too; the derivatives' part is the worst case above.
    const required = exposure + this.haircut(p.subaccount);
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

  /**
   * The initial margin of the worst case, per instrument, of the position and its open orders (and the
   * proposed one, when `counted`) all filling one way, at the mids.
   */
  private worstCase(p: Proposed, open: Resting[], counted: boolean): bigint {
    let exposure = 0n;
    for (const inst of this.instruments.all()) {
      if (!isDerivative(inst)) continue;
      const position = this.ledger.accounts.balance(p.subaccount, positionAsset(inst));
      const sum = (direction: Direction) =>
        open
          .filter((r) => r.order.instrument_name === inst.cfg.instrument_name && r.order.direction === direction)
          .reduce((s, r) => s + amt(inst, r.remaining), 0n) +
        (counted && inst === p.inst && p.direction === direction ? amt(inst, p.lots) : 0n);
      const worst = max(max(position + sum('buy'), sum('sell') - position), 0n);
      exposure += this.requirement(inst.cfg.instrument_type, mul(worst, mid(inst))).initial;
    }
    return exposure;
  }

  /** The erc20 haircut of the spot tokens a subaccount holds. */
  private haircut(subaccount: number): bigint {
    let cut = 0n;
    for (const [asset, amount] of this.ledger.accounts.balances.get(subaccount) ?? [])
      if (amount > 0n && this.spotOf(asset))
        cut += this.requirement('erc20', mul(amount, this.instruments.spotPrice(asset))).initial;
    return cut;
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
}

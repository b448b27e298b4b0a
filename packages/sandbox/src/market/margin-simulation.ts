/**
 * get_margin (private, and public's simulation): the margins of a subaccount, or of a portfolio the
 * caller describes, before and after simulated changes, under the sandbox's margin model (margin.ts).
 * "Initial margin" and "maintenance margin" are what get_subaccount names so: the value less the
 * requirement, so below zero is short. A change is valued at its entry price (the mark when none is
 * given): a perp or option change adds amount × (mark − entry) to the value, a collateral change its
 * amount at the asset's price. A trade is valid when the initial margin after it is not below zero.
 */
import { fixed, fmt, mul } from '../fixed';
import { RpcFailure } from '../rpc';
import { mid } from './instrument';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { Margin } from './margin';

/** A simulated position or position change. */
export interface PositionChange {
  instrument_name: string;
  amount: string | number;
  entry_price?: string | number | null;
}

/** A simulated collateral or collateral change. */
export interface CollateralChange {
  asset_name: string;
  amount: string | number;
}

/** A portfolio to value: balances by asset or instrument name, and its value. */
interface Book {
  balances: Map<string, bigint>;
  value: bigint;
}

/** The margins before and after the changes. */
export interface MarginFigures {
  is_valid_trade: boolean;
  pre_initial_margin: string;
  pre_maintenance_margin: string;
  post_initial_margin: string;
  post_maintenance_margin: string;
}

const CHANGES = {
  positions: '/simulated_position_changes',
  collaterals: '/simulated_collateral_changes',
  holding: false,
};
const HOLDINGS = { positions: '/simulated_positions', collaterals: '/simulated_collaterals', holding: true };
const invalid = (data: string) => RpcFailure.of('RPC_INVALID_PARAMS', data);

/** Values portfolios and their changes. */
export class MarginSimulation {
  constructor(
    private readonly instruments: Instruments,
    private readonly ledger: Ledger,
    private readonly margin: Margin,
  ) {}

  /** A decimal param, or -32602 naming it. */
  private amount(v: string | number, where: string): bigint {
    try {
      return fixed(String(v));
    } catch {
      throw invalid(`${where}: not a decimal (got ${String(v).slice(0, 40)})`);
    }
  }

  /** Apply changes to a book (a copy is changed and returned). */
  private apply(
    book: Book,
    positions: PositionChange[],
    collaterals: CollateralChange[],
    at: { positions: string; collaterals: string; holding: boolean },
  ): Book {
    const balances = new Map(book.balances);
    let value = book.value;
    positions.forEach((p, i) => {
      const inst = this.instruments.get(p.instrument_name);
      if (!inst || inst.cfg.instrument_type === 'erc20')
        throw RpcFailure.of(
          'RPC_INSTRUMENT_NOT_FOUND',
          `${at.positions}/${i}/instrument_name: no perp or option ${p.instrument_name.slice(0, 80)}`,
        );
      const amount = this.amount(p.amount, `${at.positions}/${i}/amount`);
      const mark = mid(inst);
      const entry = p.entry_price == null ? mark : this.amount(p.entry_price, `${at.positions}/${i}/entry_price`);
      balances.set(p.instrument_name, (balances.get(p.instrument_name) ?? 0n) + amount);
      // An option held is worth its mark; one bought (a change) cost its entry price too.
      const held = at.holding && inst.cfg.instrument_type === 'option';
      value += mul(amount, held ? mark : mark - entry);
    });
    collaterals.forEach((c, i) => {
      const price = this.instruments.spotPrice(c.asset_name);
      if (price === 0n)
        throw RpcFailure.of(
          'RPC_ASSET_NOT_FOUND',
          `${at.collaterals}/${i}/asset_name: no spot asset ${c.asset_name.slice(0, 40)} here`,
        );
      const amount = this.amount(c.amount, `${at.collaterals}/${i}/amount`);
      balances.set(c.asset_name, (balances.get(c.asset_name) ?? 0n) + amount);
      value += mul(amount, price);
    });
    return { balances, value };
  }

  /** The margins of a book: its value less each requirement. */
  private figures(book: Book): { initial: bigint; maintenance: bigint } {
    const need = this.margin.value({ balances: book.balances, entryOf: () => undefined });
    return { initial: book.value - need.initial, maintenance: book.value - need.maintenance };
  }

  private compare(pre: Book, post: Book): MarginFigures {
    const a = this.figures(pre);
    const b = this.figures(post);
    return {
      is_valid_trade: b.initial >= 0n,
      pre_initial_margin: fmt(a.initial),
      pre_maintenance_margin: fmt(a.maintenance),
      post_initial_margin: fmt(b.initial),
      post_maintenance_margin: fmt(b.maintenance),
    };
  }

  /** private/get_margin: a subaccount's margins before and after the changes. */
  ofSubaccount(subaccount: number, positions: PositionChange[], collaterals: CollateralChange[]): MarginFigures {
    const pre = {
      balances: new Map(this.ledger.accounts.balances.get(subaccount) ?? []),
      value: this.margin.valuation(subaccount).value,
    };
    return this.compare(pre, this.apply(pre, positions, collaterals, CHANGES));
  }

  /** public/get_margin: a described portfolio's margins, before and after the changes. */
  ofPortfolio(
    base: { positions: PositionChange[]; collaterals: CollateralChange[] },
    changes: { positions: PositionChange[]; collaterals: CollateralChange[] },
  ): MarginFigures {
    const pre = this.apply({ balances: new Map(), value: 0n }, base.positions, base.collaterals, HOLDINGS);
    return this.compare(pre, this.apply(pre, changes.positions, changes.collaterals, CHANGES));
  }
}

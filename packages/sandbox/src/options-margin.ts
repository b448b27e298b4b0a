/**
 * The `margin` option: the sandbox's margin model's parameters (market/margin-model.ts). The venue's
 * standard-margin formulas are not public; the document shows only that accounts have an initial and
 * a maintenance margin (margin.watch) and go to auction below maintenance (auctions.watch). So the
 * sandbox charges a fraction of each position's notional at the mark, per instrument kind, and this
 * option sets the fractions, the yearly interest on negative cash and how an auction runs.
 */
import { SandboxOptionsError } from './options-error';
import { isObject, kindOf, num, onlyKeys } from './options-fields';

/** Initial and maintenance margin of one instrument kind, as fractions of the notional at the mark. */
export interface KindMargin {
  initial: number;
  maintenance: number;
}

/** The margin model's parameters. */
export interface MarginOptions {
  /** Perps: of |amount| × mark. */
  perp?: Partial<KindMargin>;
  /** Options: of |amount| × mark (long or short). */
  option?: Partial<KindMargin>;
  /** Spot tokens held as collateral: the haircut taken off their value (cash is never cut). */
  erc20?: Partial<KindMargin>;
  /** Yearly interest charged on negative cash, accrued on the sandbox clock every hour (0.1 = 10 %). */
  borrowRatePerYear?: number;
  /** How long an auction runs on the sandbox clock before it ends unbid (ms). */
  auctionMs?: number;
  /** The discount a liquidator buys a subaccount's positions at, as a fraction of their mark value. */
  auctionDiscount?: number;
}

/** The model with every default filled in. */
export interface MarginModel {
  perp: KindMargin;
  option: KindMargin;
  erc20: KindMargin;
  borrowRatePerYear: number;
  auctionMs: number;
  auctionDiscount: number;
}

export const defaultMarginModel: MarginModel = {
  perp: { initial: 0.1, maintenance: 0.05 },
  option: { initial: 0.1, maintenance: 0.05 },
  erc20: { initial: 0, maintenance: 0 },
  borrowRatePerYear: 0.1,
  auctionMs: 600_000,
  auctionDiscount: 0.05,
};

function kind(key: string, raw: unknown, dflt: KindMargin): KindMargin {
  if (raw === undefined) return dflt;
  if (!isObject(raw)) throw new SandboxOptionsError(key, `must be an object (got ${kindOf(raw)})`);
  onlyKeys(key, raw, ['initial', 'maintenance']);
  const initial = raw.initial === undefined ? dflt.initial : num(`${key}.initial`, raw.initial, { min: 0, max: 1 });
  const maintenance =
    raw.maintenance === undefined ? dflt.maintenance : num(`${key}.maintenance`, raw.maintenance, { min: 0, max: 1 });
  if (maintenance > initial)
    throw new SandboxOptionsError(`${key}.maintenance`, `must not exceed initial (${maintenance} > ${initial})`);
  return { initial, maintenance };
}

/** Check the `margin` option and fill in its defaults. */
export function resolveMargin(raw: unknown): MarginModel {
  if (raw === undefined) return defaultMarginModel;
  if (!isObject(raw)) throw new SandboxOptionsError('margin', `must be an object (got ${kindOf(raw)})`);
  onlyKeys('margin', raw, ['perp', 'option', 'erc20', 'borrowRatePerYear', 'auctionMs', 'auctionDiscount']);
  const d = defaultMarginModel;
  return {
    perp: kind('margin.perp', raw.perp, d.perp),
    option: kind('margin.option', raw.option, d.option),
    erc20: kind('margin.erc20', raw.erc20, d.erc20),
    borrowRatePerYear:
      raw.borrowRatePerYear === undefined
        ? d.borrowRatePerYear
        : num('margin.borrowRatePerYear', raw.borrowRatePerYear, { min: 0, max: 10 }),
    auctionMs:
      raw.auctionMs === undefined ? d.auctionMs : num('margin.auctionMs', raw.auctionMs, { int: true, min: 1 }),
    auctionDiscount:
      raw.auctionDiscount === undefined
        ? d.auctionDiscount
        : num('margin.auctionDiscount', raw.auctionDiscount, { min: 0, max: 0.5 }),
  };
}

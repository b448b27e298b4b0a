/**
 * The best open quote for a taker's side of an RFQ (rfq_get_best_quote, `{subaccount_id}.best.quotes`):
 * the quote that costs the taker least, with the taker fee, the cost against the order book's top and
 * the initial margin before and after (the sandbox's margin rates, on the legs' derivative notional).
 * Without an RFQ (a dry run) the legs are priced at the mark.
 */
import type { BestQuoteChannelResult, RfqGetBestQuoteResponse } from '@exchange-api/types';
import { bps, fixed, fmt, mul } from '../fixed';
import { amt, mid } from './instrument';
import { bookLevels } from './feeds';
import type { Margin } from './margin';
import { INITIAL_MARGIN_BPS, TAKER_FEE_BPS } from './rates';
import { publicQuote, type QuoteEntry, type RfqBook, type RfqEntry } from './rfq-book';
import {
  legSide,
  legsNotional,
  markCost,
  markNotional,
  opposite,
  quotedCost,
  type Leg,
  type PricedLeg,
} from './rfq-legs';
import type { Direction } from './types';

/** The open quote on the RFQ that costs a taker of `direction` least, or null. */
export function bestOpenQuote(book: RfqBook, e: RfqEntry, direction: Direction): QuoteEntry | null {
  const quotes = book.openQuotesOf(e).filter((q) => q.direction === opposite(direction));
  if (quotes.length === 0) return null;
  return quotes.reduce((a, b) => (quotedCost(b.legs, direction) < quotedCost(a.legs, direction) ? b : a));
}

/** Why a quote's total cost is outside the RFQ's bounds for a taker of `direction`, or null when inside. */
export function outOfBounds(e: RfqEntry, legs: readonly PricedLeg[], direction: Direction): string | null {
  const cost = quotedCost(legs, direction);
  if (direction === 'buy' && e.maxTotalCost !== null && cost > e.maxTotalCost)
    return `the quote costs ${fmt(cost)}, above the RFQ's max_total_cost ${fmt(e.maxTotalCost)}`;
  if (direction === 'sell' && e.minTotalCost !== null && -cost < e.minTotalCost)
    return `the quote pays ${fmt(-cost)}, below the RFQ's min_total_cost ${fmt(e.minTotalCost)}`;
  return null;
}

/** What the legs cost a taker of `direction` against the top of each leg's book. */
function bookCost(legs: readonly Leg[], direction: Direction): bigint {
  return legs.reduce((s, l) => {
    const buys = legSide(l, direction) === 'buy';
    const top = bookLevels(l.inst, 1, 1);
    const price = fixed((buys ? top.asks[0]?.[0] : top.bids[0]?.[0]) ?? fmt(mid(l.inst)));
    const value = mul(price, amt(l.inst, l.lots));
    return s + (buys ? value : -value);
  }, 0n);
}

/** The estimate of rfq_get_best_quote for the subaccount's legs and side, on the RFQ's best quote when there is one. */
export function bestQuoteOf(
  deps: { book: RfqBook; margin: Margin },
  subaccount: number,
  legs: readonly Leg[],
  direction: Direction,
  e: RfqEntry | null,
): RfqGetBestQuoteResponse {
  const best = e ? bestOpenQuote(deps.book, e, direction) : null;
  const notional = best ? legsNotional(best.legs) : markNotional(legs);
  const fee = bps(notional, TAKER_FEE_BPS);
  const derivative = legs
    .filter((l) => l.inst.cfg.instrument_type !== 'erc20')
    .reduce((s, l) => s + mul(mid(l.inst), amt(l.inst, l.lots)), 0n);
  const pre = deps.margin.valuation(subaccount).initial;
  const invalid = !e
    ? null
    : e.status !== 'open'
      ? `RFQ ${e.id} is ${e.status}`
      : !best
        ? `no open ${opposite(direction)} quote on RFQ ${e.id}`
        : outOfBounds(e, best.legs, direction);
  return {
    direction,
    down_liquidation_price: null,
    estimated_fee: fmt(fee),
    estimated_realized_pnl: fmt(-fee),
    estimated_realized_pnl_excl_fees: '0',
    estimated_total_cost: fmt(best ? quotedCost(best.legs, direction) : markCost(legs, direction)),
    filled_pct: e?.status === 'filled' ? '1' : '0',
    is_valid: invalid === null,
    orderbook_total_cost: fmt(bookCost(legs, direction)),
    post_initial_margin: fmt(pre + bps(derivative, INITIAL_MARGIN_BPS), 6),
    pre_initial_margin: fmt(pre, 6),
    suggested_max_fee: fmt(fee * 2n),
    post_liquidation_price: null,
    up_liquidation_price: null,
    best_quote: best ? publicQuote(best) : null,
    invalid_reason: invalid,
  };
}

/** `{subaccount_id}.best.quotes`: the RFQ's best quote for a buying and for a selling taker. */
export function bestQuotePushes(deps: { book: RfqBook; margin: Margin }, e: RfqEntry): BestQuoteChannelResult[] {
  return (['buy', 'sell'] as const).map((d) => ({
    rfq_id: e.id,
    error: null,
    result: bestQuoteOf(deps, e.subaccount, e.legs, d, e),
  }));
}

/** Feeds: aggregated order books, the slim ticker and the spot feed. */
import { ONE, div, fmt } from '../fixed';
import { amountText, mid, priceText, px, type Instrument, type Resting } from './instrument';
import type { Instruments } from './instruments';
import { FUNDING_RATE_PER_HOUR } from './rates';

/** Aggregated levels: [price, amount] strings, best first. */
export interface BookLevels {
  bids: [string, string][];
  asks: [string, string][];
}

/**
 * Synthetic and user liquidity of one side, aggregated to multiples of `group` ticks (bids round down, asks up), best
 * first, at most `depth`.
 */
function side(
  inst: Instrument,
  syn: Map<number, number>,
  users: Resting[],
  isBid: boolean,
  group: number,
  depth: number,
): [string, string][] {
  const agg = new Map<number, number>();
  const add = (ticks: number, lots: number) => {
    const g = isBid ? Math.floor(ticks / group) * group : Math.ceil(ticks / group) * group;
    agg.set(g, (agg.get(g) ?? 0) + lots);
  };
  for (const [p, a] of syn) add(p, a);
  for (const u of users) add(u.priceTicks, u.remaining);
  const prices = [...agg.keys()].filter((p) => p > 0 && (agg.get(p) ?? 0) > 0).sort((a, b) => (isBid ? b - a : a - b));
  return prices.slice(0, depth).map((p): [string, string] => [priceText(inst, p), amountText(inst, agg.get(p)!)]);
}

/** The book of an instrument aggregated to the group, at most depth levels a side. */
export function bookLevels(inst: Instrument, group: number, depth: number): BookLevels {
  return {
    bids: side(inst, inst.synBids, inst.bids, true, group, depth),
    asks: side(inst, inst.synAsks, inst.asks, false, group, depth),
  };
}

/** The OrderbookPayload of one address. */
export function orderbookPayload(inst: Instrument, group: number, depth: number, now: number) {
  const b = bookLevels(inst, group, depth);
  return {
    instrument_name: inst.cfg.instrument_name,
    publish_id: inst.publishId,
    timestamp: now,
    bids: b.bids,
    asks: b.asks,
  };
}

/**
 * TickerSlimPayload (fields not shown in the document; this shape embeds DailyTradingStatistics as stats and
 * OptionPricing as option_pricing).
 */
export function tickerPayload(instruments: Instruments, inst: Instrument, now: number): Record<string, unknown> {
  const top = bookLevels(inst, 1, 1);
  const s = inst.stats;
  const mark = mid(inst);
  const open = px(inst, s.open);
  const index = instruments.indexPrice(inst);
  const ticker: Record<string, unknown> = {
    t: now,
    A: top.asks[0]?.[1] ?? '0',
    a: top.asks[0]?.[0] ?? '0',
    B: top.bids[0]?.[1] ?? '0',
    b: top.bids[0]?.[0] ?? '0',
    f: inst.cfg.instrument_type === 'perp' ? FUNDING_RATE_PER_HOUR : '0',
    I: fmt(index, inst.priceDp),
    M: fmt(mark),
    minp: priceText(inst, Math.floor(inst.midTicks * 0.9)),
    maxp: priceText(inst, Math.ceil(inst.midTicks * 1.1)),
    stats: {
      c: amountText(inst, s.c),
      h: priceText(inst, s.h),
      l: priceText(inst, s.l),
      n: s.n,
      oi: fmt(inst.oi),
      p: fmt(div((mark - open) * 100n, open), 6),
      pr: fmt(s.pr, 6),
      v: fmt(s.v, 6),
    },
    option_pricing:
      inst.cfg.instrument_type === 'option'
        ? {
            ai: '0.62',
            bi: '0.58',
            d: '0.52',
            df: '0.99',
            f: fmt(index, 2),
            g: '0.0004',
            i: '0.6',
            m: fmt(mark),
            r: '1.2',
            t: '-2.1',
            v: '3.4',
          }
        : null,
  };
  return { timestamp: now, instrument_ticker: ticker };
}

/** SpotFeedPayload (fields not shown; this shape maps the currency to a SpotFeedEntry). */
export function spotFeedPayload(instruments: Instruments, currency: string, now: number): Record<string, unknown> {
  const inst = instruments.spotInstrument(currency);
  const price = inst ? mid(inst) : ONE;
  const open = inst ? px(inst, inst.stats.open) : price;
  const entry = {
    price: fmt(price, 6),
    confidence: '1',
    price_prev_daily: fmt(open, 6),
    confidence_prev_daily: '1',
    timestamp_prev_daily: now - 86_400_000,
  };
  return { timestamp: now, feeds: { [currency]: entry } };
}

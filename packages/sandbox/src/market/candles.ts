/**
 * Candles: a currency's index price kept a minute at a time, and the buckets of `period` milliseconds
 * that public/get_tradingview_chart_data (trades on the public tape) and public/get_index_chart_data
 * (index samples) answer with, at most MAX_CANDLES of them, the newest. Candle timestamps are
 * milliseconds (the timestamps-ms assumption).
 */
import type { IndexCandle, TradingviewCandle } from '@exchange-api/types';
import { fixed, fmt, mul } from '../fixed';

/** The most candles one answer carries (the newest of the range). */
const MAX_CANDLES = 1000;
/** Index samples kept per currency: a week of minutes. */
const MAX_SAMPLES = 7 * 1440;
export const MINUTE_MS = 60_000;

/** One minute of a currency's index price. */
export interface Sample {
  minute: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
}

/** A trade as the candles read it. */
type TapeTrade = { timestamp: number; trade_price: string; trade_amount: string };

/** Count `price` into the minute's sample (a new minute starts a new one; the oldest beyond a week goes). */
export function keepSample(list: Sample[], minute: number, price: bigint): void {
  const last = list[list.length - 1];
  if (last && last.minute === minute) {
    last.high = price > last.high ? price : last.high;
    last.low = price < last.low ? price : last.low;
    last.close = price;
    return;
  }
  list.push({ minute, open: price, high: price, low: price, close: price });
  if (list.length > MAX_SAMPLES) list.shift();
}

/** Candles of `trades` (oldest first), `periodMs` each; a bucket without trades has no candle. */
export function tradeCandlesOf(trades: readonly TapeTrade[], periodMs: number): TradingviewCandle[] {
  const buckets = new Map<number, { o: bigint; h: bigint; l: bigint; c: bigint; amount: bigint; usd: bigint }>();
  for (const t of trades) {
    const key = Math.floor(t.timestamp / periodMs) * periodMs;
    const price = fixed(t.trade_price);
    const amount = fixed(t.trade_amount);
    const b = buckets.get(key);
    if (!b) buckets.set(key, { o: price, h: price, l: price, c: price, amount, usd: mul(price, amount) });
    else {
      b.h = price > b.h ? price : b.h;
      b.l = price < b.l ? price : b.l;
      b.c = price;
      b.amount += amount;
      b.usd += mul(price, amount);
    }
  }
  return [...buckets].slice(-MAX_CANDLES).map(([t, b]) => ({
    timestamp: t,
    timestamp_bucket: t,
    open_price: fmt(b.o),
    high_price: fmt(b.h),
    low_price: fmt(b.l),
    close_price: fmt(b.c),
    volume_contracts: fmt(b.amount),
    volume_usd: fmt(b.usd),
  }));
}

/** Index candles of `samples` within [start, end] (seconds), `periodMs` each. */
export function indexCandlesOf(
  samples: readonly Sample[],
  startSec: number,
  endSec: number,
  periodMs: number,
): IndexCandle[] {
  const buckets = new Map<number, Sample>();
  for (const s of samples) {
    const at = s.minute * MINUTE_MS;
    if (at < Math.floor((startSec * 1000) / MINUTE_MS) * MINUTE_MS || at > endSec * 1000) continue;
    const key = Math.floor(at / periodMs) * periodMs;
    const b = buckets.get(key);
    if (!b) buckets.set(key, { ...s, minute: key });
    else {
      b.high = s.high > b.high ? s.high : b.high;
      b.low = s.low < b.low ? s.low : b.low;
      b.close = s.close;
    }
  }
  return [...buckets.values()].slice(-MAX_CANDLES).map((b) => ({
    timestamp: b.minute,
    timestamp_bucket: b.minute,
    open_price: fmt(b.open),
    high_price: fmt(b.high),
    low_price: fmt(b.low),
    close_price: fmt(b.close),
    price: fmt(b.close),
  }));
}

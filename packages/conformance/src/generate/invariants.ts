/**
 * Domain invariants of what channels push, checked on every push the generated run saw: order books
 * (bids strictly descending, asks strictly ascending, best bid below best ask, sizes above zero),
 * publish ids increasing per channel, and trade prices within the range the instrument's book showed
 * (a note: the document does not state it). Recognised by shape, so they apply to any spec's payloads.
 */
import type { Status } from '../model';

/** One push as seen: its channel, data and time. */
export interface SeenPush {
  channel: string;
  data: unknown;
  t: number;
}

/** One invariant judged on one push (its rule id: `invariant-` and its name, rules.ts). */
export interface InvariantJudgement {
  invariant: 'order-book' | 'publish-id-increasing' | 'trade-price-in-book-range';
  status: Extract<Status, 'pass' | 'fail' | 'note'>;
  channel: string;
  message: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'string' || typeof v === 'number' ? Number(v) : NaN);

/** The levels of a book side as [price, size] numbers, or null when the side is not a list of pairs. */
function levels(side: unknown): [number, number][] | null {
  if (!Array.isArray(side)) return null;
  if (!side.every((l) => Array.isArray(l) && l.length >= 2)) return null;
  return side.map((l) => [num((l as unknown[])[0]), num((l as unknown[])[1])]);
}

/** Why a book breaks an invariant ('' when it keeps them all). */
export function bookProblem(data: unknown): string {
  if (!isObj(data)) return '';
  const bids = levels(data.bids);
  const asks = levels(data.asks);
  if (!bids || !asks) return '';
  for (let i = 1; i < bids.length; i++)
    if (!(bids[i]![0] < bids[i - 1]![0]))
      return `bids not strictly descending at level ${i}: ${bids[i - 1]![0]} then ${bids[i]![0]}`;
  for (let i = 1; i < asks.length; i++)
    if (!(asks[i]![0] > asks[i - 1]![0]))
      return `asks not strictly ascending at level ${i}: ${asks[i - 1]![0]} then ${asks[i]![0]}`;
  const bad = [...bids, ...asks].find(([, size]) => !(size > 0));
  if (bad) return `a level of size ${bad[1]} (sizes are above zero) at price ${bad[0]}`;
  if (bids.length && asks.length && !(bids[0]![0] < asks[0]![0]))
    return `best bid ${bids[0]![0]} is not below best ask ${asks[0]![0]}`;
  return '';
}

/** The price range each instrument's book showed (lowest bid, highest ask), from the pushes seen. */
function bookRanges(pushes: readonly SeenPush[]): Map<string, { low: number; high: number }> {
  const ranges = new Map<string, { low: number; high: number }>();
  for (const p of pushes) {
    if (!isObj(p.data) || typeof p.data.instrument_name !== 'string') continue;
    const prices = [...(levels(p.data.bids) ?? []), ...(levels(p.data.asks) ?? [])]
      .map(([price]) => price)
      .filter(Number.isFinite);
    if (!prices.length) continue;
    const r = ranges.get(p.data.instrument_name) ?? { low: Infinity, high: -Infinity };
    ranges.set(p.data.instrument_name, { low: Math.min(r.low, ...prices), high: Math.max(r.high, ...prices) });
  }
  return ranges;
}

function publishIds(pushes: readonly SeenPush[]): InvariantJudgement[] {
  const last = new Map<string, number>();
  const out: InvariantJudgement[] = [];
  for (const p of pushes) {
    if (!isObj(p.data) || typeof p.data.publish_id !== 'number') continue;
    const prev = last.get(p.channel);
    const id = p.data.publish_id;
    last.set(p.channel, id);
    if (prev === undefined) continue;
    out.push({
      invariant: 'publish-id-increasing',
      status: id > prev ? 'pass' : 'fail',
      channel: p.channel,
      message:
        id > prev
          ? `publish_id ${prev} then ${id}`
          : `publish_id ${id} after ${prev} on ${p.channel}: publish ids increase per channel`,
    });
  }
  return out;
}

function tradesInRange(pushes: readonly SeenPush[]): InvariantJudgement[] {
  const ranges = bookRanges(pushes);
  const out: InvariantJudgement[] = [];
  for (const p of pushes) {
    for (const trade of Array.isArray(p.data) ? p.data : []) {
      if (!isObj(trade) || typeof trade.instrument_name !== 'string' || trade.trade_price === undefined) continue;
      const r = ranges.get(trade.instrument_name);
      const price = num(trade.trade_price);
      if (!r || !Number.isFinite(price)) continue;
      const inside = price >= r.low && price <= r.high;
      out.push({
        invariant: 'trade-price-in-book-range',
        status: inside ? 'pass' : 'note',
        channel: p.channel,
        message: `${trade.instrument_name} traded at ${price}; its book showed ${r.low} to ${r.high}`,
      });
    }
  }
  return out;
}

/** Every invariant's verdict on every push it applies to. */
export function checkInvariants(pushes: readonly SeenPush[]): InvariantJudgement[] {
  const books: InvariantJudgement[] = [];
  for (const p of pushes) {
    if (!isObj(p.data) || !levels(p.data.bids) || !levels(p.data.asks)) continue;
    const problem = bookProblem(p.data);
    books.push({
      invariant: 'order-book',
      status: problem ? 'fail' : 'pass',
      channel: p.channel,
      message: problem || 'book in order',
    });
  }
  return [...books, ...publishIds(pushes), ...tradesInRange(pushes)];
}

/**
 * The order path's cost per request, and a fill's, on a venue loaded with other subaccounts' state
 * (50 open positions, their stop-loss trigger orders waiting and orders resting), each as a ratio
 * against the plain order path measured in the same run: an ioc limit order that crosses nothing (every
 * check, the matching, no fill), on a venue holding nothing but the taker. Two sandboxes in this process,
 * one WebSocket each, orders signed before each round (signing is the client's cost), sent one at a
 * time; rounds alternate which venue goes first. A fill's cost on the empty venue is measured too, so
 * that a loaded fill far above it shows state recomputed beyond what the fill touched.
 * EXCHANGE_API_BENCH_ORDERS sets the orders per kind and round (default 200).
 */
import { median, type BenchResult } from './report';
import { Venue, type OrderShape } from './order-venue';
import { envInt } from './ws-load';

const ROUNDS = 5;
const OTHERS = 50;
const RESTING_EACH = 10;

/** An order that leaves at once: ioc, at half the mid, so it crosses nothing. */
const PLAIN: OrderShape = { instrument: 'ETH-PERP', direction: 'buy', atMid: 0.5, time_in_force: 'ioc' };
/** A taker order that fills against the maker's quotes, buying then selling so the position stays small. */
const FILL_BUY: OrderShape = { instrument: 'ETH-PERP', direction: 'buy', atMid: 1.05, order_type: 'market' };
const FILL_SELL: OrderShape = { instrument: 'ETH-PERP', direction: 'sell', atMid: 0.95, order_type: 'market' };

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Orders of a kind, signed now: `n` plain ones, or `n` fills alternating buy and sell. */
async function signed(venue: Venue, kind: 'plain' | 'fill', n: number): Promise<object[]> {
  if (kind === 'plain') return venue.sign(PLAIN, n);
  const [buys, sells] = [await venue.sign(FILL_BUY, n / 2), await venue.sign(FILL_SELL, n / 2)];
  return buys.flatMap((b, i) => [b, sells[i]!]);
}

type Key = 'emptyPlain' | 'emptyFill' | 'loadedPlain' | 'loadedFill';

/** One round: the mean ms per request of each kind on each venue, the venues' order alternating. */
async function round(empty: Venue, loaded: Venue, n: number, r: number): Promise<Record<Key, number>> {
  const out = {} as Record<Key, number>;
  const venues =
    r % 2
      ? ([
          ['loaded', loaded],
          ['empty', empty],
        ] as const)
      : ([
          ['empty', empty],
          ['loaded', loaded],
        ] as const);
  for (const kind of ['plain', 'fill'] as const)
    for (const [name, venue] of venues) {
      const orders = await signed(venue, kind, n);
      const key = `${name}${kind === 'plain' ? 'Plain' : 'Fill'}` as Key;
      out[key] = mean(await venue.time(orders));
    }
  return out;
}

export async function runOrderPath(): Promise<BenchResult[]> {
  const n = 2 * Math.ceil(envInt('EXCHANGE_API_BENCH_ORDERS', 200, 10, 100_000) / 2);
  const venues: Venue[] = [];
  try {
    const empty = await Venue.start(0);
    venues.push(empty);
    const loaded = await Venue.start(OTHERS);
    venues.push(loaded);
    await loaded.load(OTHERS, RESTING_EACH);
    await round(empty, loaded, 50, 0); // warm both
    const rounds: Record<Key, number>[] = [];
    for (let r = 0; r < ROUNDS; r++) rounds.push(await round(empty, loaded, n, r));
    const ratio = (k: Key) => median(rounds.map((x) => x[k] / x.emptyPlain));
    const us = (k: Key) => `${Math.round(median(rounds.map((x) => x[k])) * 1000)} µs`;
    const load = `${OTHERS} other subaccounts' positions, trigger orders and ${OTHERS * RESTING_EACH} resting orders`;
    const tail = `${n} orders x ${ROUNDS} rounds`;
    return [
      {
        name: `order path, ${load} / plain order path (${us('loadedPlain')} / ${us('emptyPlain')}, ${tail})`,
        value: ratio('loadedPlain'),
        op: '<=',
        target: 1.25,
      },
      {
        name: `fill, nothing else on the venue / plain order path (${us('emptyFill')} / ${us('emptyPlain')})`,
        value: ratio('emptyFill'),
        op: '<=',
        target: 3,
      },
      {
        name: `fill, ${load} / plain order path (${us('loadedFill')} / ${us('emptyPlain')})`,
        value: ratio('loadedFill'),
        op: '<=',
        target: 3,
      },
    ];
  } finally {
    for (const v of venues) await v.close();
  }
}

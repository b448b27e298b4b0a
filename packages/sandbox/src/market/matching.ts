/** Matching: the best opposite liquidity at or better than a limit, in price-time priority. */
import type { Instrument, Resting } from './instrument';
import type { Direction, Fill } from './types';

/**
 * The fills an order would get, best price first, user orders before synthetic liquidity at one
 * price. `limitTicks` bounds market orders too: it is their worst acceptable price. `ignoring` is an
 * order that is about to be replaced, which the new one must not trade against.
 */
export function plan(
  inst: Instrument,
  direction: Direction,
  limitTicks: number,
  lots: number,
  ignoring?: Resting,
): Fill[] {
  const users = (direction === 'buy' ? inst.asks : inst.bids).filter((r) => r !== ignoring);
  const syn = direction === 'buy' ? inst.synAsks : inst.synBids;
  const synPrices = [...syn.keys()].sort((a, b) => (direction === 'buy' ? a - b : b - a));
  const better = (a: number, b: number) => (direction === 'buy' ? a <= b : a >= b);
  const fills: Fill[] = [];
  let left = lots;
  let ui = 0;
  let si = 0;
  while (left > 0) {
    const u = users[ui];
    const sp = synPrices[si];
    const takeUser = u !== undefined && (sp === undefined || better(u.priceTicks, sp));
    if (!takeUser && sp === undefined) break;
    const price = takeUser ? u!.priceTicks : sp!;
    if (!better(price, limitTicks)) break;
    const take = Math.min(left, takeUser ? u!.remaining : syn.get(sp!)!);
    fills.push({ priceTicks: price, lots: take, maker: takeUser ? u! : null });
    left -= take;
    if (takeUser) ui++;
    else si++;
  }
  return fills;
}

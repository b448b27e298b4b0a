/**
 * The simulation tick: each instrument's mid takes a random step, simulated takers fill the user
 * orders the mid ran through, the synthetic market maker requotes around the mid (never crossing a
 * user order), and now and then a simulated taker lifts or hits its best level.
 */
import type { Counterparties } from './counterparties';
import type { Instrument } from './instrument';
import type { Random } from './random';
import type { Settlement } from './settlement';
import type { Direction } from './types';

/** Levels the synthetic market maker quotes on each side. */
const LEVELS = 150;

/** Rebuild the synthetic market maker's levels around the mid, never crossing a user order. */
export function requote(inst: Instrument): void {
  const r = inst.rng;
  inst.synBids.clear();
  inst.synAsks.clear();
  const bestUserBid = inst.bids[0]?.priceTicks ?? -Infinity;
  const bestUserAsk = inst.asks[0]?.priceTicks ?? Infinity;
  let bid = inst.midTicks - inst.halfSpread;
  let ask = inst.midTicks + inst.halfSpread;
  for (let i = 0; i < LEVELS; i++) {
    const bidSize = Math.max(1, Math.round((0.2 + r() * 3) / inst.step));
    const askSize = Math.max(1, Math.round((0.2 + r() * 3) / inst.step));
    if (bid > 0 && bid < bestUserAsk) inst.synBids.set(bid, bidSize);
    if (ask > bestUserBid) inst.synAsks.set(ask, askSize);
    bid -= 1 + Math.floor(r() * inst.maxSpacing);
    ask += 1 + Math.floor(r() * inst.maxSpacing);
  }
}

/** The simulated side of the market: the instruments' walks and the takers. */
export class Simulation {
  constructor(
    private readonly counterparties: Counterparties,
    private readonly settlement: Settlement,
    /**
     * The takers' own stream (of an instrument, in a fleet): which counterparty takes is never shifted
     * by anything else drawing.
     */
    private readonly takers: (inst: Instrument) => Random,
  ) {}

  /** One step of one instrument. */
  step(inst: Instrument, now: number): void {
    const r = inst.rng;
    const move = Math.round((r() - 0.5) * 2 * Math.max(1, inst.midTicks * 0.0003));
    inst.midTicks = Math.max(inst.halfSpread + 2, inst.midTicks + move);
    this.fillCrossedUserOrders(inst, now);
    requote(inst);
    if (r() < 0.3) this.syntheticTrade(inst, now);
    inst.publishId++;
  }

  /** Put the mid at a price (the control plane's `mark`): the orders it runs through fill, the maker requotes. */
  moveTo(inst: Instrument, midTicks: number, now: number): void {
    inst.midTicks = midTicks;
    this.fillCrossedUserOrders(inst, now);
    requote(inst);
    inst.publishId++;
  }

  /** User orders the moved mid has run through are filled by the simulated takers, as on a real venue. */
  private fillCrossedUserOrders(inst: Instrument, now: number): void {
    const askEdge = inst.midTicks + inst.halfSpread;
    const bidEdge = inst.midTicks - inst.halfSpread;
    while (inst.bids[0] && inst.bids[0].priceTicks >= askEdge) this.takeUserOrder(inst, inst.bids[0], 'sell', now);
    while (inst.asks[0] && inst.asks[0].priceTicks <= bidEdge) this.takeUserOrder(inst, inst.asks[0], 'buy', now);
  }

  private takeUserOrder(inst: Instrument, maker: Instrument['bids'][number], direction: Direction, now: number): void {
    const taker = this.counterparties.side(this.counterparties.pickTaker(this.takers(inst)).cp);
    const trade = this.settlement.settle(
      inst,
      taker,
      { priceTicks: maker.priceTicks, lots: maker.remaining, maker },
      direction,
      now,
    );
    this.settlement.publishPublic(inst, [trade.shown]);
  }

  /** A simulated taker lifts or hits the synthetic market maker's best level. */
  private syntheticTrade(inst: Instrument, now: number): void {
    const r = inst.rng;
    const direction: Direction = r() < 0.5 ? 'buy' : 'sell';
    const book = direction === 'buy' ? inst.synAsks : inst.synBids;
    const best = direction === 'buy' ? Math.min(...book.keys()) : Math.max(...book.keys());
    if (!Number.isFinite(best)) return;
    const lots = Math.min(book.get(best)!, Math.max(1, Math.round((0.01 + r() * 0.5) / inst.step)));
    const taker = this.counterparties.side(this.counterparties.pickTaker(this.takers(inst)).cp);
    const trade = this.settlement.settle(inst, taker, { priceTicks: best, lots, maker: null }, direction, now);
    this.settlement.publishPublic(inst, [trade.shown]);
  }
}

/**
 * The legs of RFQs and quotes: read into exact units against the listed instruments (each leg's
 * instrument listed, its amount in whole amount steps, a quote's price in whole ticks, one leg per
 * instrument), sorted by instrument name as both clients sign them, compared, and costed.
 */
import type { ActionInstrument } from '@exchange-api/auth';
import type { LegUnpricedParams, PricedLegParamsAndResponse } from '@exchange-api/types';
import { bps } from '../fixed';
import { RpcFailure } from '../rpc';
import { amountText, notional, priceText, type Instrument } from './instrument';
import type { Instruments } from './instruments';
import { units } from './order-input';
import type { Direction } from './types';

/** The most legs one RFQ may have (a sandbox bound: the document gives none). */
export const MOST_LEGS = 8;

/** An RFQ's leg in exact units; a quote's leg adds its price in ticks. */
export interface Leg {
  inst: Instrument;
  lots: number;
  direction: Direction;
}
export interface PricedLeg extends Leg {
  priceTicks: number;
}

/** A leg as sent: unpriced (send_rfq) or priced (quotes, executions). */
type LegInput = { instrument_name: string; amount: string | number; direction: Direction; price?: string | number };

const rejected = (data: string) => RpcFailure.of('RPC_ORDER_REJECTED', data);

/** Read RFQ legs; each must name a listed instrument, once, with an amount in whole amount steps. */
export function readLegs(instruments: Instruments, legs: readonly LegInput[], field = 'legs'): Leg[] {
  if (legs.length === 0 || legs.length > MOST_LEGS)
    throw rejected(`${field}: from 1 to ${MOST_LEGS} legs (got ${legs.length})`);
  const seen = new Set<string>();
  const out = legs.map((l, i) => {
    const inst = instruments.get(l.instrument_name);
    if (!inst)
      throw rejected(
        `${field}[${i}].instrument_name: unknown instrument ${JSON.stringify(l.instrument_name).slice(0, 80)}` +
          ' (see public/get_all_live_instruments)',
      );
    if (seen.has(l.instrument_name)) throw rejected(`${field}[${i}]: ${l.instrument_name} is in two legs`);
    seen.add(l.instrument_name);
    const lots = units(`${field}[${i}].amount`, l.amount, inst.stepFx, 'amount_step', inst.cfg.amount_step);
    return { inst, lots, direction: l.direction };
  });
  return sortLegs(out);
}

/** Read priced legs: as readLegs, each with a price in whole ticks. */
export function readPricedLegs(instruments: Instruments, legs: readonly LegInput[], field = 'legs'): PricedLeg[] {
  const byName = new Map(legs.map((l, i) => [l.instrument_name, { l, i }]));
  return readLegs(instruments, legs, field).map((leg) => {
    const { l, i } = byName.get(leg.inst.cfg.instrument_name)!;
    if (l.price === undefined) throw rejected(`${field}[${i}].price: a quote's leg needs its price`);
    const ticks = units(`${field}[${i}].price`, l.price, leg.inst.tickFx, 'tick_size', leg.inst.cfg.tick_size);
    return { ...leg, priceTicks: ticks };
  });
}

/** Legs in code-unit order of instrument name, as derive-ts and the rfq module sign them. */
export function sortLegs<T extends Leg>(legs: T[]): T[] {
  const name = (l: Leg) => l.inst.cfg.instrument_name;
  return [...legs].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

/** Whether two sets of legs (both sorted) are the same instruments, amounts and sides; with prices when both have them. */
export function sameLegs(a: readonly Leg[], b: readonly Leg[]): boolean {
  return (
    a.length === b.length &&
    a.every((l, i) => {
      const m = b[i]!;
      const priced = 'priceTicks' in l && 'priceTicks' in m;
      return (
        l.inst === m.inst &&
        l.lots === m.lots &&
        l.direction === m.direction &&
        (!priced || (l as PricedLeg).priceTicks === (m as PricedLeg).priceTicks)
      );
    })
  );
}

/** The wire form of an RFQ's leg. */
export const unpricedWire = (l: Leg): LegUnpricedParams => ({
  amount: amountText(l.inst, l.lots),
  direction: l.direction,
  instrument_name: l.inst.cfg.instrument_name,
});

/** The wire form of a quote's leg. */
export const pricedWire = (l: PricedLeg): PricedLegParamsAndResponse => ({
  ...unpricedWire(l),
  price: priceText(l.inst, l.priceTicks),
});

/** The side a trader takes on a leg when it trades the package `direction` (buy: the legs as stated). */
export const legSide = (leg: Leg, direction: Direction): Direction =>
  direction === 'buy' ? leg.direction : leg.direction === 'buy' ? 'sell' : 'buy';

/** The opposite side. */
export const opposite = (d: Direction): Direction => (d === 'buy' ? 'sell' : 'buy');

/** What trading the package `direction` costs at these prices (negative: it earns): bought legs paid, sold received. */
export function packageCost(legs: readonly Leg[], direction: Direction, ticksOf: (l: Leg) => number): bigint {
  return legs.reduce((s, l) => {
    const value = notional(l.inst, ticksOf(l), l.lots);
    return s + (legSide(l, direction) === 'buy' ? value : -value);
  }, 0n);
}

/** Priced legs' cost to a trader of the package `direction`. */
export const quotedCost = (legs: readonly PricedLeg[], direction: Direction): bigint =>
  packageCost(legs, direction, (l) => (l as PricedLeg).priceTicks);

/** The legs' cost at the mark to a trader of the package `direction`. */
export const markCost = (legs: readonly Leg[], direction: Direction): bigint =>
  packageCost(legs, direction, (l) => l.inst.midTicks);

/** The sum of the legs' notionals at their prices (what fees are charged on). */
export const legsNotional = (legs: readonly PricedLeg[]): bigint =>
  legs.reduce((s, l) => s + notional(l.inst, l.priceTicks, l.lots), 0n);

/**
 * The fee of the legs at `feeBps`, rounded leg by leg as each leg's trade is charged (rfq-trades.ts): the
 * sum a signed max_fee must cover, which can pass the fee of the rounded total in its last decimal.
 */
export const legsFee = (legs: readonly PricedLeg[], feeBps: number): bigint =>
  legs.reduce((s, l) => s + bps(notional(l.inst, l.priceTicks, l.lots), feeBps), 0n);

/** The legs' notional at the mark. */
export const markNotional = (legs: readonly Leg[]): bigint =>
  legs.reduce((s, l) => s + notional(l.inst, l.inst.midTicks, l.lots), 0n);

/** The legs' assets by instrument name, as the rfq module's signature commits to them. */
export function assetsOf(legs: readonly Leg[]): Record<string, ActionInstrument> {
  return Object.fromEntries(
    legs.map((l) => [
      l.inst.cfg.instrument_name,
      { base_asset_address: l.inst.asset.address, base_asset_sub_id: l.inst.asset.subId },
    ]),
  );
}

/**
 * One instrument's state and its exact units: prices are whole ticks, amounts whole amount steps
 * ("lots"), and every notional is a fixed-point bigint (../fixed.ts), formatted without binary noise.
 */
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import type { Order } from '@exchange-api/types';
import type { InstrumentConfig } from '../options';
import { fixed, fmt, mul } from '../fixed';
import type { Random } from './random';

/** A user's order on the book; amounts in lots, money exact. */
export interface Resting {
  order: Order;
  priceTicks: number;
  remaining: number;
  filled: number;
  notional: bigint;
  fee: bigint;
  wallet: string;
}

/** One instrument: its configuration, units, random walk, synthetic and user liquidity, statistics. */
export interface Instrument {
  cfg: Required<InstrumentConfig>;
  /** The protocol asset an order's action signature commits to (base_asset_address, base_asset_sub_id). */
  asset: { address: string; subId: string };
  /** The amount step as a number, for sizing synthetic liquidity (never for money). */
  step: number;
  tickFx: bigint;
  stepFx: bigint;
  priceDp: number;
  rng: Random;
  midTicks: number;
  halfSpread: number;
  maxSpacing: number;
  publishId: number;
  /** Synthetic liquidity of the current tick: price in ticks → lots. Fills take from it until the next tick. */
  synBids: Map<number, number>;
  synAsks: Map<number, number>;
  /** User orders: bids best first (price desc, then time), asks best first (price asc, then time). */
  bids: Resting[];
  asks: Resting[];
  /**
   * Daily statistics: contracts traded (lots), high/low/open (ticks), trade count, volume and premium volume (fixed).
   */
  stats: { c: number; h: number; l: number; n: number; v: bigint; pr: bigint; open: number };
  /** Open interest: the sum of long positions (perps and options), exact. */
  oi: bigint;
}

const decimalsOf = (s: string) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);

/**
 * The instrument's asset, stable per name: a perp or spot token has an asset of its own (sub id 0);
 * the options of a currency share one asset and differ by sub id, as on the exchange.
 */
export function assetOf(cfg: Pick<InstrumentConfig, 'instrument_name' | 'instrument_type' | 'base_currency'>): {
  address: string;
  subId: string;
} {
  const option = cfg.instrument_type === 'option';
  const seed = option ? `${cfg.base_currency} options` : cfg.instrument_name;
  const address = getAddress('0x' + keccak256(toUtf8Bytes(`exchange-api sandbox asset ${seed}`)).slice(-40));
  const subId = option ? BigInt(keccak256(toUtf8Bytes(cfg.instrument_name)).slice(0, 18)).toString() : '0';
  return { address, subId };
}

/** A fresh instrument at its configured price, walking on the given stream. */
export function createInstrument(cfg: Required<InstrumentConfig>, rng: Random): Instrument {
  const midTicks = Math.max(10, Math.round(cfg.price / Number(cfg.tick_size)));
  return {
    cfg,
    asset: assetOf(cfg),
    step: Number(cfg.amount_step),
    tickFx: fixed(cfg.tick_size),
    stepFx: fixed(cfg.amount_step),
    priceDp: decimalsOf(cfg.tick_size),
    rng,
    midTicks,
    halfSpread: Math.max(1, Math.round(midTicks * 0.0002)),
    maxSpacing: Math.max(1, Math.round(midTicks * 0.00005)),
    publishId: 0,
    synBids: new Map(),
    synAsks: new Map(),
    bids: [],
    asks: [],
    stats: { c: 0, h: midTicks, l: midTicks, n: 0, v: 0n, pr: 0n, open: midTicks },
    oi: 0n,
  };
}

/** A price in ticks as a fixed value. */
export const px = (inst: Instrument, ticks: number): bigint => BigInt(ticks) * inst.tickFx;
/** An amount in lots as a fixed value. */
export const amt = (inst: Instrument, lots: number): bigint => BigInt(lots) * inst.stepFx;
/** A price in ticks as a Decimal string. */
export const priceText = (inst: Instrument, ticks: number): string => fmt(px(inst, ticks));
/** An amount in lots as a Decimal string. */
export const amountText = (inst: Instrument, lots: number): string => fmt(amt(inst, lots));
/** Price × amount, exact. */
export const notional = (inst: Instrument, ticks: number, lots: number): bigint =>
  mul(px(inst, ticks), amt(inst, lots));
/** The mid price (also the mark), as a fixed value. */
export const mid = (inst: Instrument): bigint => px(inst, inst.midTicks);
/** Where a subaccount's position in the instrument is kept: the base currency for spot, else the instrument name. */
export const positionAsset = (inst: Instrument): string =>
  inst.cfg.instrument_type === 'erc20' ? inst.cfg.base_currency : inst.cfg.instrument_name;

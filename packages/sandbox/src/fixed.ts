/**
 * Exact decimal arithmetic for money: a value is a bigint counting 10^-12 units, the finest step the
 * spec's Decimal allows (up to 12 fractional digits). Prices are whole ticks and amounts whole
 * amount steps, so notionals and fees are exact; only divisions round (half away from zero). Reading and
 * writing decimals is @exchange-api/types/decimal's, as for every package.
 */
import { DECIMAL_DIGITS, decimalToUnits, unitsToDecimal } from '@exchange-api/types/decimal';

/** Fractional digits of a fixed value. */
export const DIGITS = DECIMAL_DIGITS;
/** 1 as a fixed value. */
export const ONE = 10n ** BigInt(DIGITS);

/** A decimal string or a JSON number; null when not a plain finite decimal or nonzero beyond the 12th digit. */
export function parseFixed(v: string | number): bigint | null {
  return decimalToUnits(v, DIGITS);
}

/** Like parseFixed, for values the sandbox itself wrote (tick sizes, steps): throws when malformed. */
export function fixed(v: string | number): bigint {
  const f = parseFixed(v);
  if (f === null) throw new Error(`not a decimal with at most ${DIGITS} fractional digits: ${v}`);
  return f;
}

/** The Decimal string of a fixed value: no exponent, no trailing zeros, at most `dp` fractional digits (rounded). */
export function fmt(x: bigint, dp = DIGITS): string {
  return unitsToDecimal(dp < DIGITS ? roundTo(x, 10n ** BigInt(DIGITS - dp)) : x, DIGITS);
}

/** a ÷ b, rounded half away from zero (b ≠ 0). */
export function divRound(a: bigint, b: bigint): bigint {
  const neg = a < 0n !== b < 0n;
  const aa = a < 0n ? -a : a;
  const bb = b < 0n ? -b : b;
  const q = (aa + bb / 2n) / bb;
  return neg ? -q : q;
}

/** x rounded to a multiple of unit (half away from zero). */
export function roundTo(x: bigint, unit: bigint): bigint {
  return divRound(x, unit) * unit;
}

/** a × b of two fixed values, rounded to 12 digits. */
export function mul(a: bigint, b: bigint): bigint {
  return divRound(a * b, ONE);
}

/** a ÷ b of two fixed values, rounded to 12 digits. */
export function div(a: bigint, b: bigint): bigint {
  return divRound(a * ONE, b);
}

/** A fixed value times a rate in basis points, rounded to 12 digits. */
export function bps(x: bigint, basisPoints: number): bigint {
  return divRound(x * BigInt(basisPoints), 10_000n);
}

export const abs = (x: bigint): bigint => (x < 0n ? -x : x);
export const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
export const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

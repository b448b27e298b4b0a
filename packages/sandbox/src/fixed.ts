/**
 * Exact decimal arithmetic for money: a value is a bigint counting 10^-12 units, the finest step the
 * spec's Decimal allows (up to 12 fractional digits). Prices are whole ticks and amounts whole
 * amount steps, so notionals and fees are exact; only divisions round (half away from zero).
 */

/** Fractional digits of a fixed value. */
export const DIGITS = 12;
/** 1 as a fixed value. */
export const ONE = 10n ** BigInt(DIGITS);

/** Parse a decimal string or a JSON number; null when it is not a plain finite decimal or has nonzero digits beyond the 12th. */
export function parseFixed(v: string | number): bigint | null {
  let s: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    // Shortest round-trip spelling, expanded when JavaScript writes an exponent.
    s = String(v);
    if (/e/i.test(s)) s = v.toFixed(20);
  } else s = v.trim();
  const m = /^(-)?([0-9]+)(?:\.([0-9]+))?$/.exec(s);
  if (!m) return null;
  const frac = m[3] ?? '';
  if (frac.length > DIGITS && /[1-9]/.test(frac.slice(DIGITS))) return null;
  const value = BigInt(m[2]!) * ONE + BigInt((frac.slice(0, DIGITS) || '0').padEnd(DIGITS, '0'));
  return m[1] ? -value : value;
}

/** Like parseFixed, for values the sandbox itself wrote (tick sizes, steps): throws when malformed. */
export function fixed(v: string | number): bigint {
  const f = parseFixed(v);
  if (f === null) throw new Error(`not a decimal with at most ${DIGITS} fractional digits: ${v}`);
  return f;
}

/** The Decimal string of a fixed value: no exponent, no trailing zeros, at most `dp` fractional digits (rounded), no `-0`. */
export function fmt(x: bigint, dp = DIGITS): string {
  if (dp < DIGITS) x = roundTo(x, 10n ** BigInt(DIGITS - dp));
  const neg = x < 0n;
  const a = neg ? -x : x;
  const int = a / ONE;
  const frac = (a % ONE).toString().padStart(DIGITS, '0').replace(/0+$/, '');
  const s = frac ? `${int}.${frac}` : `${int}`;
  return neg && s !== '0' ? `-${s}` : s;
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

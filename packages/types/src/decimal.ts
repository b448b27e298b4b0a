/**
 * Exact decimals, read one way by every package: a decimal string or a JSON number as a whole count of
 * 10^-scale units, and such a count written back as a decimal string. The interface's Decimal has up to
 * 12 fractional digits (DECIMAL_DIGITS: the sandbox's money, the runner's prices); a signed action's
 * values are counted at 10^18 and a token's amount in its own decimals (the signer's action data).
 */

/** Fractional digits of the interface's Decimal. */
export const DECIMAL_DIGITS = 12;

/** A decimal's sign and digits: `frac` without its trailing zeros, so its length is the precision used. */
export interface DecimalParts {
  negative: boolean;
  int: string;
  frac: string;
}

// The Decimal of the interface, without its bound on fractional digits: no exponent, digits on each
// side of a point, a minus alone as sign.
const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

/** A JSON number's plain digits (JavaScript writes 1e-7 and 1e21 in exponent form); null when not finite. */
export function numberText(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  const text = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign = '', int = '', frac = '', exp = '0'] = m;
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The parts of a decimal string (blanks around it ignored) or a finite JSON number; null for anything else. */
export function decimalParts(value: string | number): DecimalParts | null {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const m = text === null ? null : DECIMAL.exec(text);
  if (!m) return null;
  return { negative: m[1] === '-', int: m[2]!, frac: (m[3] ?? '').replace(/0+$/, '') };
}

/** The parts as a count of 10^-scale units; null when they have more fractional digits than `scale`. */
export function partsToUnits(p: DecimalParts, scale: number): bigint | null {
  if (p.frac.length > scale) return null;
  const units = BigInt(p.int) * 10n ** BigInt(scale) + BigInt(p.frac.padEnd(scale, '0') || '0');
  return p.negative ? -units : units;
}

/** A decimal as a count of 10^-scale units; null when it is not a decimal or is finer than 10^-scale. */
export function decimalToUnits(value: string | number, scale: number): bigint | null {
  const p = decimalParts(value);
  return p && partsToUnits(p, scale);
}

/** A count of 10^-scale units as a decimal string: no exponent, no trailing zeros, never `-0`. */
export function unitsToDecimal(units: bigint, scale: number): string {
  const one = 10n ** BigInt(scale);
  const a = units < 0n ? -units : units;
  const frac = scale > 0 ? (a % one).toString().padStart(scale, '0').replace(/0+$/, '') : '';
  const text = frac ? `${a / one}.${frac}` : `${a / one}`;
  return units < 0n ? `-${text}` : text;
}

/** `units` cut toward zero to a multiple of `step` (as it is when the step is not positive). */
export function truncateTo(units: bigint, step: bigint): bigint {
  return step > 0n ? (units / step) * step : units;
}

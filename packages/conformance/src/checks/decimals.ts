/** Decimal strings as exact integers of 1e-12 units (the document's decimals carry up to 12 fractional digits). */

const SCALE = 10n ** 12n;

/** A decimal string as an integer count of 1e-12 units (null when it is not a decimal). */
export function toUnits(s: string): bigint | null {
  const m = /^(-?)([0-9]+)(?:\.([0-9]{1,12}))?$/.exec(s.trim());
  if (!m) return null;
  const v = BigInt(m[2]!) * SCALE + BigInt((m[3] ?? '').padEnd(12, '0') || '0');
  return m[1] ? -v : v;
}

/** Units back to a decimal string without trailing zeros. */
export function fromUnits(u: bigint): string {
  const neg = u < 0n;
  const a = neg ? -u : u;
  const frac = (a % SCALE).toString().padStart(12, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${a / SCALE}${frac ? `.${frac}` : ''}`;
}

/** `value` rounded down to a multiple of `step` (as is when the step is not positive). */
export function roundTo(value: bigint, step: bigint): bigint {
  return step > 0n ? (value / step) * step : value;
}

/** The one reading of decimals: every package (signer, sandbox, runner) counts a decimal's units through it. */
import { describe, expect, it } from 'vitest';
import {
  DECIMAL_DIGITS,
  decimalParts,
  decimalToUnits,
  numberText,
  partsToUnits,
  truncateTo,
  unitsToDecimal,
} from '../src/decimal';

describe('decimals as units', () => {
  it('reads strings and JSON numbers exactly at any scale, and writes them back without trailing zeros', () => {
    expect(decimalToUnits('3000.1', DECIMAL_DIGITS)).toBe(3000100000000000n);
    expect(decimalToUnits(' -12.50 ', 2)).toBe(-1250n);
    expect(decimalToUnits(1e-7, 18)).toBe(100_000_000_000n);
    expect(decimalToUnits(1e21, 0)).toBe(10n ** 21n);
    expect(unitsToDecimal(decimalToUnits('-0.000000000001', DECIMAL_DIGITS)!, DECIMAL_DIGITS)).toBe('-0.000000000001');
    expect(unitsToDecimal(decimalToUnits('-0.0', 12)!, 12)).toBe('0');
    expect(unitsToDecimal(1500n, 3)).toBe('1.5');
    expect(unitsToDecimal(7n, 0)).toBe('7');
  });

  it('refuses what is not a plain decimal, or is finer than the scale (trailing zeros are no precision)', () => {
    for (const bad of ['1.', '.5', '1e3', '+1', '1 000', '0x10', '', '-', NaN, Infinity])
      expect(decimalParts(bad), String(bad)).toBeNull();
    expect(decimalToUnits('1.0000000000001', DECIMAL_DIGITS)).toBeNull();
    expect(decimalToUnits('1.0000000000000000', DECIMAL_DIGITS)).toBe(10n ** 12n);
    expect(partsToUnits({ negative: false, int: '1', frac: '123' }, 2)).toBeNull();
  });

  it('writes a JSON number in plain digits, never an exponent', () => {
    expect(numberText(1e-7)).toBe('0.0000001');
    expect(numberText(-1.5e-10)).toBe('-0.00000000015');
    expect(numberText(1.25e21)).toBe('1250000000000000000000');
    expect(numberText(Infinity)).toBeNull();
  });

  it('truncates toward zero to a step (a step that is not positive leaves it)', () => {
    expect(truncateTo(1234n, 100n)).toBe(1200n);
    expect(truncateTo(-1234n, 100n)).toBe(-1200n);
    expect(truncateTo(1234n, 0n)).toBe(1234n);
  });
});

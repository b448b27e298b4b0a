/**
 * The generated validators follow the document's decimal convention: the login timestamp (a decimal
 * string of milliseconds) and every decimal a client sends also accept a JSON number; what the server
 * sends stays a strict string. (The rule over every params schema is audited in
 * tools/codegen/test/input-decimals.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { failuresOf, validators } from '../src/index';

const wallet = '0x8Ba1f109551bD432803012645Ac136ddd64DBA72';
const signature = `0x${'11'.repeat(65)}`;

describe('the generated params validators accept a numeric login timestamp', () => {
  it.each([
    ['public/login', { wallet, timestamp: 1700000000000, signature }],
    ['public/login', { wallet, timestamp: '1700000000000', signature }],
    ['private/get_subaccounts', { wallet, timestamp: 1700000000000, signature }],
  ] as const)('%s %j', (method, params) => {
    expect(failuresOf(validators.params[method], params)).toEqual([]);
  });

  it.each([
    [{ wallet, timestamp: -1, signature }, '/timestamp'],
    [{ wallet, timestamp: 1.5, signature }, '/timestamp'],
    [{ wallet, timestamp: 2 ** 53, signature }, '/timestamp'],
    [{ wallet, timestamp: '1.7e12', signature }, '/timestamp'],
  ])('refuses a timestamp that is not whole milliseconds: %j', (params, pointer) => {
    expect(failuresOf(validators.params['public/login'], params).map((f) => f.pointer)).toContain(pointer);
  });
});

describe('what the server sends stays a strict decimal string', () => {
  it('a Decimal as a JSON number is refused', () => {
    expect(failuresOf(validators.schemas.Decimal, '3000.5')).toEqual([]);
    expect(failuresOf(validators.schemas.Decimal, 3000.5)).not.toEqual([]);
  });
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import { errorByCode, errorByName, errorOfKind, formatRetryHint, isRateLimitCode, parseRetryHint } from '../src/index';

describe('error table lookups', () => {
  it('finds entries by kind, name and code, typed', () => {
    const rl = errorOfKind('rate-limit');
    expect([rl.code, rl.name]).toEqual([-32000, 'RATE_LIMITED']);
    expectTypeOf(rl.dataPattern).toBeString();
    expect(errorOfKind('connection-limit').textFramePrefix).toBe('connectionLimitExceeded:');
    expect(errorByName('AUTH_REQUIRED').code).toBe(14000);
    expect(errorByName('AUTH_INVALID_ACTION_SIGNATURE').code).toBe(14004);
    expect(errorByCode(-32601)?.name).toBe('RPC_METHOD_NOT_FOUND');
    expect(errorByCode(1)).toBeUndefined();
  });

  it('names what is missing', () => {
    expect(() => errorOfKind('nope' as never)).toThrow(/no entry of kind 'nope'/);
    expect(() => errorByName('NOPE' as never)).toThrow(/no entry named 'NOPE'/);
  });

  it('rate-limit codes are the reserved range', () => {
    expect([-32000, -32050, -32099].map(isRateLimitCode)).toEqual([true, true, true]);
    expect([-32100, -31999, -32600, 14000].map(isRateLimitCode)).toEqual([false, false, false, false]);
  });
});

describe('retry hint', () => {
  it.each([
    [0, 'Retry after 0 ms'],
    [250, 'Retry after 250 ms'],
    [12.1, 'Retry after 13 ms'],
    [-5, 'Retry after 0 ms'],
  ])('formats %s as %s, and reads it back', (ms, hint) => {
    expect(formatRetryHint(ms)).toBe(hint);
    expect(parseRetryHint(hint)).toBe(Math.max(0, Math.ceil(ms)));
  });

  it.each([
    null,
    undefined,
    '',
    'retry in 5ms',
    'Retry after ms',
    'Retry after 5 ms.',
    'x Retry after 5 ms',
    'Retry after -5 ms',
  ])('%j is not of the documented form', (data) => {
    expect(parseRetryHint(data)).toBeNull();
  });
});

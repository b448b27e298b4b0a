/**
 * The readers of rate-limit rules and error codes take any API's tables, not only this interface's:
 * another API's classes, budgets and codes mean what that API's tables say, and an API without them
 * has no budgets and no special codes.
 */
import { describe, expect, it } from 'vitest';
import { errorCodes, rateLimitRules } from '../src/index';

describe('rateLimitRules of another API', () => {
  const rules = rateLimitRules({
    methods: [
      { name: 'getQuote', rateLimitClass: 'metered' },
      { name: 'purge', rateLimitClass: 'own', rateLimitBudget: 'purges' },
      { name: 'ping' },
    ],
    rateLimitClasses: [
      { name: 'metered', default: true, budget: 'calls' },
      { name: 'own', budget: 'per-method' },
    ],
    limits: [
      { id: 'calls', kind: 'window', scope: 'wallet', points: 3, windowMs: 60_000 },
      { id: 'purges', kind: 'window', scope: 'wallet-method', points: 1, windowMs: 60_000 },
      { id: 'anon', kind: 'window', scope: 'ip', points: 10, windowMs: 60_000 },
    ],
  });

  it('reads its classes, budgets and default class', () => {
    expect(rules.budgetOf('getQuote', {}, true)).toEqual({ budget: 'calls', key: 'wallet' });
    expect(rules.budgetOf('ping', {}, true)).toEqual({ budget: 'calls', key: 'wallet' });
    expect(rules.budgetOf('purge', {}, true)).toEqual({ budget: 'purges', key: 'wallet-method' });
    expect(rules.budgetOf('getQuote', {}, false)).toEqual({ budget: 'anon', key: 'ip' });
    expect([rules.defaultClass, rules.publicBudget, rules.endpointBudgetOf('purge')]).toEqual([
      'metered',
      'anon',
      'purges',
    ]);
  });

  it('an API without classes or limits has no budget for anything', () => {
    const none = rateLimitRules({ methods: [{ name: 'getStation' }] });
    expect([none.budgetOf('getStation', {}, true), none.budgetOf('order', {}, false)]).toEqual([null, null]);
  });

  it('names the slip: a method of a class the tables lack, a budget that is not a window', () => {
    expect(() => rateLimitRules({ methods: [{ name: 'x', rateLimitClass: 'nope' }] })).toThrow(
      "method x has rate-limit class 'nope', which the rate-limit classes lack",
    );
    expect(() =>
      rateLimitRules({
        methods: [],
        rateLimitClasses: [{ name: 'c', budget: 'conns' }],
        limits: [{ id: 'conns', kind: 'connections' }],
      }),
    ).toThrow(
      "rate-limit class 'c' names budget 'conns', which is not a window limit of the limits (window ids: none)",
    );
  });
});

describe('errorCodes of another API', () => {
  const codes = errorCodes({
    reserved: [{ from: -40099, to: -40000 }],
    codes: [
      { code: -40001, kind: 'rate-limit', message: 'Too many calls', data: 'Wait <ms> ms' },
      { code: -40050, kind: 'request', message: 'Bad symbol' },
    ],
  });

  it('a rate-limit code is its own entry or in its reserved range, unless the code has an entry of its own', () => {
    expect([-40001, -40099, -40000].map((c) => codes.rateLimitEntry(c)?.code)).toEqual([-40001, -40001, -40001]);
    expect([-40050, -32000, -39999].map((c) => codes.rateLimitEntry(c))).toEqual([undefined, undefined, undefined]);
    expect([codes.retryAfterMs(-40042, 'Wait 90 ms'), codes.retryAfterMs(-40042, 'Retry after 90 ms')]).toEqual([
      90,
      null,
    ]);
    expect(codes.retryAfterMs(-32000, 'Wait 90 ms')).toBeNull();
  });

  it('no table: no code is special', () => {
    const none = errorCodes(undefined);
    expect([none.rateLimitEntry(-32000), none.byCode(-32000), none.connectionLimit]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

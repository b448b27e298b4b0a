import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  budgetOf,
  endpointBudgetOf,
  endpointKeyOf,
  limitOf,
  methodTable,
  publicBudget,
  type BudgetRef,
  type WindowLimitId,
} from '../src/index';

const one = { instrument_name: 'ETH-PERP' };
const wallet = (budget: WindowLimitId): BudgetRef => ({ budget, key: 'wallet' });
const perMethod = (budget: WindowLimitId): BudgetRef => ({ budget, key: 'wallet-method' });
const ip: BudgetRef = { budget: 'public', key: 'ip' };

// Written out by hand from the document's Limits section, so a table change that moves a method shows up here.
const cases: Array<[method: string, params: unknown, after: BudgetRef | null, before: BudgetRef | null]> = [
  ['subscribe', {}, wallet('non_matching'), ip],
  ['unsubscribe', {}, wallet('non_matching'), ip],
  ['public/login', {}, wallet('non_matching'), ip],
  ['public/getRateLimits', null, wallet('non_matching'), ip],
  ['private/get_subaccounts', {}, wallet('non_matching'), ip],
  ['public/get_all_live_instruments', {}, null, null],
  ['public/get_all_live_instruments', one, null, null],
  ['private/order', one, wallet('matching'), ip],
  ['private/replace', one, wallet('matching'), ip],
  ['private/cancel', one, wallet('matching'), ip],
  ['private/cancel_by_instrument', one, wallet('matching'), ip],
  ['private/cancel_by_nonce', one, wallet('matching'), ip],
  ['private/cancel_all', {}, perMethod('cancel_all'), ip],
  ['private/cancel_by_label', one, wallet('matching'), ip],
  ['private/cancel_by_label', { label: 'x' }, perMethod('cancel_by_label'), ip],
  ['private/cancel_by_label', { label: 'x', instrument_name: 7 }, perMethod('cancel_by_label'), ip],
  ['private/cancel_by_label', null, perMethod('cancel_by_label'), ip],
  // Beyond the document (x-source: clients): reads, the non-matching class.
  ...[
    'public/get_all_currencies',
    'public/get_all_instruments',
    'public/get_instrument',
    'public/get_ticker',
    'public/get_trade_history',
    'public/get_funding_rate_history',
    'public/get_time',
    'private/get_all_portfolios',
    'private/get_subaccount',
    'private/get_open_orders',
    'private/get_orders',
    'private/get_trade_history',
  ].map((m): [string, unknown, BudgetRef | null, BudgetRef | null] => [m, {}, wallet('non_matching'), ip]),
  // Not in methodTable: the default class.
  ['public/get_vault_balances', {}, wallet('non_matching'), ip],
];

describe('budgetOf: which tier-1 budget a request draws on', () => {
  it.each(cases)('%s %j: after login %j, before %j', (method, params, after, before) => {
    expect(budgetOf(method, params, true)).toEqual(after);
    expect(budgetOf(method, params, false)).toEqual(before);
  });

  it('the cases cover every method of methodTable', () => {
    const covered = new Set(cases.map((c) => c[0]));
    expect(methodTable.map((m) => m.name).filter((n) => !covered.has(n))).toEqual([]);
  });

  it('before login the per-IP budget is the public one', () => {
    expect(publicBudget).toBe('public');
  });

  it('has a precise type', () => {
    expectTypeOf(budgetOf).returns.toEqualTypeOf<BudgetRef | null>();
    expectTypeOf<BudgetRef['key']>().toEqualTypeOf<'ip' | 'wallet' | 'wallet-method'>();
    expectTypeOf<WindowLimitId>().toEqualTypeOf<
      'non_matching' | 'matching' | 'cancel_all' | 'public' | 'cancel_by_label'
    >();
  });
});

describe('endpointBudgetOf and endpointKeyOf: what remaining_per_endpoint reports, under which key', () => {
  it.each([
    ['private/cancel_all', 'cancel_all', 'cancel_all'],
    ['private/cancel_by_label', 'cancel_by_label', 'cancel_by_label'],
    ['private/order', null, 'order'],
    ['public/get_all_live_instruments', null, 'public/get_all_live_instruments'],
    ['subscribe', null, 'subscribe'],
    ['public/get_time', null, 'public/get_time'],
    ['public/not_in_the_table', null, 'public/not_in_the_table'],
  ] as const)('%s → %s, key %s', (method, want, key) => {
    expect(endpointBudgetOf(method)).toBe(want);
    // The document's key is the short name of its rate-limit tables (remaining_per_endpoint: cancel_all).
    expect(endpointKeyOf(method)).toBe(key);
  });
});

describe('limitOf: a limit by id and kind', () => {
  it('is typed by kind and names what is missing', () => {
    expect(limitOf('connections', 'connections').max).toBe(4);
    expect(limitOf('public', 'window').points).toBe(25);
    expect(() => limitOf('public', 'bucket')).toThrow(/no bucket limit 'public'/);
  });
});

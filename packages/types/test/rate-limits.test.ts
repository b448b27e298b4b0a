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
  // Every other method of derive-ts 3.0.13's EndpointMap (x-source: clients, assumption client-endpoint-map):
  // the document's rule, the non-matching class.
  ...[
    'private/burn_vault_shares',
    'private/cancel_algo_order',
    'private/cancel_all_algo_orders',
    'private/cancel_all_trigger_orders',
    'private/cancel_all_vault_requests',
    'private/cancel_batch_quotes',
    'private/cancel_batch_rfqs',
    'private/cancel_quote',
    'private/cancel_rfq',
    'private/cancel_trigger_order',
    'private/change_subaccount_label',
    'private/create_vault',
    'private/edit_session_key',
    'private/execute_quote',
    'private/force_burn',
    'private/get_account',
    'private/get_algo_orders',
    'private/get_collaterals',
    'private/get_curated_vaults',
    'private/get_deposit_history',
    'private/get_erc20_transfer_history',
    'private/get_funding_history',
    'private/get_interest_history',
    'private/get_liquidation_history',
    'private/get_liquidator_history',
    'private/get_live_burn_requests',
    'private/get_live_mint_requests',
    'private/get_live_vault_requests',
    'private/get_margin',
    'private/get_mmp_config',
    'private/get_option_settlement_history',
    'private/get_order',
    'private/get_order_history',
    'private/get_positions',
    'private/get_quotes',
    'private/get_rfqs',
    'private/get_shareholder_vaults',
    'private/get_trigger_orders',
    'private/get_vault_request_history',
    'private/get_vault_shares',
    'private/get_withdrawal_history',
    'private/liquidate',
    'private/mint_vault_shares',
    'private/order_debug',
    'private/order_quote',
    'private/poll_quotes',
    'private/poll_rfqs',
    'private/reject_deposit_request',
    'private/replace_quote',
    'private/request_vault_deposit',
    'private/request_vault_withdraw',
    'private/reset_mmp',
    'private/rfq_get_best_quote',
    'private/send_quote',
    'private/send_rfq',
    'private/session_keys',
    'private/set_cancel_on_disconnect',
    'private/set_mmp_config',
    'private/set_session_key',
    'private/transfer_positions',
    'private/transfer_spot',
    'private/transfer_spot_external',
    'private/update_vault_info',
    'private/update_whitelisted_recipients',
    'private/withdraw',
    'public/execute_quote_debug',
    'public/get_all_referral_codes',
    'public/get_assets',
    'public/get_currency',
    'public/get_index_chart_data',
    'public/get_interest_rate_history',
    'public/get_latest_signed_feeds',
    'public/get_liquidation_history',
    'public/get_margin',
    'public/get_onchain_action_history',
    'public/get_option_settlement_prices',
    'public/get_pending_deposits',
    'public/get_referral_performance',
    'public/get_risk_universes',
    'public/get_tickers',
    'public/get_tradingview_chart_data',
    'public/get_transaction',
    'public/get_vault',
    'public/get_vault_action_history',
    'public/get_vault_performance_history',
    'public/get_vaults',
    'public/get_wallets_from_session_key',
    'public/order_quote',
    'public/register_deposit_address',
    'public/send_quote_debug',
    'public/start_auction',
    'public/withdraw_debug',
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

/**
 * Spec checklist (issue 2): holds spec/asyncapi.yaml against a checklist written by hand from the
 * interface document (shared/spec-source/exchange-api-v3.md). The tables below are the document's
 * content, NOT read from the spec, so an edit of the spec that loses a record, a field, a required
 * flag, a null, a default, an enum value, a channel, a method, an error or a limit fails here and the
 * failing row names what went missing.
 *
 * The spec is read through the project's own loader and model (loadSpec + buildModel); where the
 * model does not carry something (or fills a default when a key is missing, e.g. x-access,
 * x-rate-limit-class, x-transports), the raw YAML data (loadSpec(...).data) is checked too.
 *
 * Types are written as the spec expresses them: the $ref name of a named schema (Decimal,
 * NonNegativeDecimal, Int64, Int32, UInt64, Timestamp, UUID, Address, an enumeration or a record) or a
 * plain JSON type, or `array of X` / `map of string to X`; `| null` is not part of the type column,
 * nullability has its own column. Record timestamps (document: int64, unit not shown) are `Timestamp`
 * per the spec's timestamps-ms assumption; other int64 fields are `Int64`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { buildModel, loadSpec, type ApiModel, type FieldModel, type LoadedSpec, type TypeModel } from '@exchange-api/codegen';

// SPEC_CHECKLIST_FILE points the checklist at another copy of the spec (e.g. to see that a mutated copy fails).
const SPEC_FILE = process.env.SPEC_CHECKLIST_FILE ?? fileURLToPath(new URL('../../../spec/asyncapi.yaml', import.meta.url));

// ================================================================================================
// The checklist, written from the interface document
// ================================================================================================

/** A field of a record: name, type as the spec expresses it (alternatives allowed), required, nullable, default. */
interface FieldRow {
  field: string;
  type: string | readonly string[];
  required: boolean;
  nullable: boolean;
  default?: unknown;
}
const req = (field: string, type: FieldRow['type'], nullable = false): FieldRow => ({ field, type, required: true, nullable });
const opt = (field: string, type: FieldRow['type'], nullable = false, extra: { default?: unknown } = {}): FieldRow => ({
  field, type, required: false, nullable, ...extra,
});
const NULL = true;
/** The document writes liquidity_role as `maker`/`taker`: LiquidityRole, also named LiquidityRole2. */
const ROLE = ['LiquidityRole', 'LiquidityRole2'] as const;

const RECORDS: Record<string, FieldRow[]> = {
  // ### Order
  Order: [
    req('amount', 'Decimal'),
    req('average_price', 'Decimal'),
    req('creation_timestamp', 'Timestamp'),
    req('direction', 'Direction'),
    req('extra_fee', 'Decimal'),
    req('filled_amount', 'Decimal'),
    req('instrument_name', 'string'),
    req('is_transfer', 'boolean'),
    req('last_update_timestamp', 'Timestamp'),
    req('limit_price', 'Decimal'),
    req('max_fee', 'Decimal'),
    req('mmp', 'boolean'),
    req('nonce', 'string'),
    req('order_fee', 'Decimal'),
    req('order_id', 'string'),
    req('order_status', 'OrderStatus'),
    req('order_type', 'OrderType'),
    req('quote_id', 'UUID', NULL),
    req('replaced_order_id', 'UUID', NULL),
    req('signature', 'string'),
    req('signature_expiry_sec', 'Int64'),
    req('signed_limit_price', 'Decimal', NULL),
    req('signer', 'string'),
    req('subaccount_id', 'Int64'),
    req('time_in_force', 'TimeInForce'),
    req('trigger_price', 'Decimal', NULL),
    opt('algo_duration_sec', 'Int32', NULL),
    opt('algo_num_slices', 'Int32', NULL),
    opt('algo_slices_completed', 'Int32', NULL),
    opt('algo_type', 'AlgoType', NULL),
    opt('cancel_reason', 'CancelReason', false, { default: '' }),
    opt('label', 'string', false, { default: '' }),
    opt('trigger_price_type', 'TriggerPriceType', NULL),
    opt('trigger_reject_message', 'string', NULL),
    opt('trigger_type', 'TriggerType', NULL),
  ],
  // ### PublicTrade
  PublicTrade: [
    req('direction', 'Direction'),
    req('expected_rebate', 'string'),
    req('extra_fee', 'string'),
    req('index_price', 'string'),
    req('mark_price', 'string'),
    req('realized_pnl', 'string'),
    req('realized_pnl_excl_fees', 'string'),
    req('trade_amount', 'string'),
    req('trade_fee', 'string'),
    req('trade_id', 'string'),
    req('trade_price', 'string'),
    req('instrument_name', 'string'),
    req('wallet', 'string'),
    req('liquidity_role', ROLE),
    req('subaccount_id', 'Int64'),
    req('timestamp', 'Timestamp'),
    opt('quote_id', 'string', NULL),
    opt('rfq_id', 'string', NULL),
  ],
  // ### BalanceUpdate
  BalanceUpdate: [
    req('name', 'string'),
    req('new_balance', 'Decimal'),
    req('previous_balance', 'Decimal'),
    req('update_type', 'BalanceUpdateType'),
  ],
  // ### OrderbookPayload (a level: exactly two strings, checked below)
  OrderbookPayload: [
    req('instrument_name', 'string'),
    req('publish_id', 'UInt64'),
    req('timestamp', 'Timestamp'),
    req('bids', 'array of OrderbookLevel'),
    req('asks', 'array of OrderbookLevel'),
  ],
  // ### AuctionResult, AuctionDetails
  AuctionResult: [
    req('state', 'AuctionStateType'),
    req('subaccount_id', 'Int64'),
    req('timestamp', 'Timestamp'),
    opt('details', 'AuctionDetails', NULL),
  ],
  AuctionDetails: [
    req('estimated_bid_price', 'string'),
    req('estimated_discount_pnl', 'string'),
    req('estimated_mtm', 'string'),
    req('estimated_percent_bid', 'string'),
    req('margin_type', 'string'),
    req('min_price_limit', 'string'),
    req('subaccount_balances', 'map of string to Decimal'),
    opt('currency', 'string', NULL),
  ],
  // ### MarginWatchResult (element shapes of collaterals and positions: not shown, checked below)
  MarginWatchResult: [
    req('collaterals', 'array of any'),
    req('currency', 'string'),
    req('initial_margin', 'string'),
    req('maintenance_margin', 'string'),
    req('margin_type', 'string'),
    req('positions', 'array of any'),
    req('subaccount_id', 'Int64'),
    req('subaccount_value', 'string'),
    req('valuation_timestamp', 'Timestamp'),
  ],
  // ### Quote and RFQ records
  LegUnpricedParams: [
    req('amount', 'NonNegativeDecimal'),
    req('direction', 'Direction'),
    req('instrument_name', 'string'),
  ],
  PricedLegParamsAndResponse: [
    req('amount', 'NonNegativeDecimal'),
    req('direction', 'Direction'),
    req('instrument_name', 'string'),
    req('price', 'NonNegativeDecimal'),
  ],
  PublicRfq: [
    req('cancel_reason', 'RFQCancelReason'),
    req('creation_timestamp', 'Timestamp'),
    req('fill_rate', 'Decimal', NULL),
    req('filled_pct', 'NonNegativeDecimal'),
    req('last_update_timestamp', 'Timestamp'),
    req('legs', 'array of LegUnpricedParams'),
    req('partial_fill_step', 'NonNegativeDecimal'),
    req('recent_fill_rate', 'Decimal', NULL),
    req('rfq_id', 'UUID'),
    req('status', 'RFQStatus'),
    req('subaccount_id', 'Int64'),
    req('total_cost', 'Decimal', NULL),
    req('valid_until', 'Timestamp'),
    req('wallet', 'Address'),
    opt('filled_direction', 'Direction', NULL),
  ],
  PublicQuote: [
    req('cancel_reason', 'RFQCancelReason'),
    req('creation_timestamp', 'Timestamp'),
    req('direction', 'Direction'),
    req('fill_pct', 'NonNegativeDecimal'),
    req('last_update_timestamp', 'Timestamp'),
    req('legs', 'array of PricedLegParamsAndResponse'),
    req('legs_hash', 'string'),
    req('liquidity_role', ROLE),
    req('quote_id', 'UUID'),
    req('rfq_id', 'UUID'),
    req('status', 'RFQStatus'),
    req('subaccount_id', 'Int64'),
    req('wallet', 'Address'),
  ],
  QuotePublishResult: [
    req('creation_timestamp', 'Timestamp'),
    req('direction', 'Direction'),
    req('extra_fee', 'NonNegativeDecimal'),
    req('fee', 'NonNegativeDecimal'),
    req('fill_pct', 'NonNegativeDecimal'),
    req('is_transfer', 'boolean'),
    req('label', 'string'),
    req('last_update_timestamp', 'Timestamp'),
    req('legs', 'array of PricedLegParamsAndResponse'),
    req('legs_hash', 'string'),
    req('liquidity_role', ROLE),
    req('max_fee', 'NonNegativeDecimal'),
    req('mmp', 'boolean'),
    req('nonce', 'string'),
    req('quote_id', 'UUID'),
    req('rfq_id', 'UUID'),
    req('signature', 'string'),
    req('signature_expiry_sec', 'Int64'),
    req('signer', 'string'),
    req('status', 'RFQStatus'),
    req('subaccount_id', 'Int64'),
    opt('batch_status', 'BatchStatus', NULL),
    opt('cancel_reason', 'RFQCancelReason', NULL),
    opt('tx_hash', 'string', NULL),
  ],
  BestQuoteChannelResult: [
    req('rfq_id', 'UUID'),
    opt('error', 'RPCError', NULL),
    opt('result', 'RfqGetBestQuoteResponse', NULL),
  ],
  RfqGetBestQuoteResponse: [
    req('direction', 'Direction'),
    req('down_liquidation_price', 'Decimal', NULL),
    req('estimated_fee', 'Decimal'),
    req('estimated_realized_pnl', 'Decimal'),
    req('estimated_realized_pnl_excl_fees', 'Decimal'),
    req('estimated_total_cost', 'Decimal'),
    req('filled_pct', 'NonNegativeDecimal'),
    req('is_valid', 'boolean'),
    req('orderbook_total_cost', 'Decimal', NULL),
    req('post_initial_margin', 'Decimal'),
    req('pre_initial_margin', 'Decimal'),
    req('suggested_max_fee', 'Decimal'),
    req('post_liquidation_price', 'Decimal', NULL),
    req('up_liquidation_price', 'Decimal', NULL),
    opt('best_quote', 'PublicQuote', NULL),
    opt('invalid_reason', 'string', NULL),
  ],
  // ### Ticker-related records
  DailyTradingStatistics: [
    req('c', 'Decimal'),
    req('h', 'Decimal'),
    req('l', 'Decimal'),
    req('n', 'UInt64'),
    req('oi', 'Decimal'),
    req('p', 'Decimal'),
    req('pr', 'Decimal'),
    req('v', 'Decimal'),
  ],
  OptionPricing: ['ai', 'bi', 'd', 'df', 'f', 'g', 'i', 'm', 'r', 't', 'v'].map((f) => req(f, 'string')),
  // ### RPCError
  RPCError: [
    req('code', 'Int64'),
    req('message', 'string'),
    opt('data', 'string', NULL),
  ],
  // ### public/getRateLimits
  RateLimitBudget: [
    req('remainingPoints', 'integer'),
    req('msBeforeNext', 'integer'),
    req('consumedPoints', 'integer'),
    req('isFirstInDuration', 'boolean'),
  ],
  RateLimitsResult: [
    req('remaining_matching', 'RateLimitBudget'),
    req('remaining_non_matching', 'RateLimitBudget'),
    req('remaining_per_endpoint', 'map of string to RateLimitBudget'),
    opt('remaining_connections', 'RateLimitBudget'),
  ],
};

/** ### Enumerations: exact values in the document's order. */
const ENUMS: Record<string, readonly string[]> = {
  Direction: ['buy', 'sell'],
  LiquidityRole: ['maker', 'taker'],
  LiquidityRole2: ['maker', 'taker'],
  OrderType: ['limit', 'market'],
  OrderStatus: ['open', 'filled', 'rejected', 'cancelled', 'expired', 'untriggered', 'algo_active'],
  AlgoType: ['twap'],
  AuctionStateType: ['ongoing', 'ended'],
  RFQStatus: ['open', 'filled', 'cancelled', 'expired'],
  BatchStatus: [
    'Batching', 'Executing', 'Proving', 'Settling', 'Settled',
    'BatchingError', 'ExecutingError', 'ProvingError', 'SettlingError', 'SettledError',
  ],
  BalanceUpdateType: [
    'trade', 'asset_deposit', 'asset_withdrawal', 'transfer', 'subaccount_deposit', 'subaccount_withdrawal',
    'liquidation', 'liquidator', 'onchain_drift_fix', 'perp_settlement', 'option_settlement',
    'interest_accrual', 'onchain_revert', 'double_revert',
  ],
  CancelReason: [
    '', 'user_request', 'mmp_trigger', 'insufficient_margin', 'signed_max_fee_too_low', 'cancel_on_disconnect',
    'ioc_or_market_partial_fill', 'session_key_deregistered', 'subaccount_withdrawn', 'compliance',
    'trigger_failed', 'validation_failed', 'algo_completed',
  ],
  RFQCancelReason: [
    '', 'user_request', 'insufficient_margin', 'signed_max_fee_too_low', 'mmp_trigger', 'cancel_on_disconnect',
    'session_key_deregistered', 'subaccount_withdrawn', 'rfq_no_longer_open', 'compliance', 'validation_failed',
  ],
};

/** "Other enumerations used by Order (TimeInForce, TriggerPriceType, TriggerType): values not shown." */
const OPEN_ENUMS = ['TimeInForce', 'TriggerPriceType', 'TriggerType'] as const;
/** Records whose fields are not shown. */
const OPEN_RECORDS = ['TickerSlimPayload', 'SpotFeedPayload', 'SpotFeedEntry'] as const;
/** "Element shape of collaterals and positions: not shown." */
const OPEN_ELEMENTS = [['MarginWatchResult', 'collaterals'], ['MarginWatchResult', 'positions']] as const;

/** ## Events: every channel, exactly as the document's table says. */
interface ChannelRow {
  address: string;
  access: 'public' | 'private';
  /** Parameter names in address order, with their enum (null: any value). */
  params: Array<[name: string, values: string[] | null]>;
  record: string;
  array: boolean;
}
const CHANNELS: ChannelRow[] = [
  { address: 'auctions.watch', access: 'public', params: [], record: 'AuctionResult', array: true },
  { address: 'margin.watch', access: 'public', params: [], record: 'MarginWatchResult', array: true },
  {
    address: 'orderbook.{instrument_name}.{group}.{depth}', access: 'public',
    params: [['instrument_name', null], ['group', ['1', '10', '100']], ['depth', ['1', '10', '20', '100']]],
    record: 'OrderbookPayload', array: false,
  },
  { address: 'spot_feed.{currency}', access: 'public', params: [['currency', null]], record: 'SpotFeedPayload', array: false },
  { address: '{subaccount_id}.balances', access: 'private', params: [['subaccount_id', null]], record: 'BalanceUpdate', array: true },
  { address: '{subaccount_id}.best.quotes', access: 'private', params: [['subaccount_id', null]], record: 'BestQuoteChannelResult', array: true },
  { address: '{subaccount_id}.orders', access: 'private', params: [['subaccount_id', null]], record: 'Order', array: true },
  { address: '{subaccount_id}.quotes', access: 'private', params: [['subaccount_id', null]], record: 'QuotePublishResult', array: true },
  { address: '{subaccount_id}.trades', access: 'private', params: [['subaccount_id', null]], record: 'Trade', array: true },
  {
    address: 'ticker_slim.{instrument_name}.{interval}', access: 'public',
    params: [['instrument_name', null], ['interval', ['100', '1000']]], record: 'TickerSlimPayload', array: false,
  },
  { address: 'trades.{instrument_name}', access: 'public', params: [['instrument_name', null]], record: 'PublicTrade', array: true },
  {
    address: 'trades.{instrument_type}.{currency}', access: 'public',
    params: [['instrument_type', ['erc20', 'option', 'perp']], ['currency', null]], record: 'PublicTrade', array: true,
  },
  { address: '{wallet}.rfqs', access: 'private', params: [['wallet', null]], record: 'PublicRfq', array: true },
];

/**
 * ## Endpoints and Limits: every method the document names. transports / httpPath / auth are null
 * where the document does not say (paths and payloads not shown): then only their form is checked.
 */
interface MethodRow {
  name: string;
  rateLimitClass: 'non_matching' | 'matching' | 'endpoint' | 'custom';
  transports: Array<'ws' | 'http'> | null;
  httpPath: string | null | undefined; // undefined: not shown by the document
  auth: 'none' | 'login' | null;
  /** Paths and payloads not shown: the operation must carry an x-not-shown marker. */
  notShown: boolean;
}
const METHODS: MethodRow[] = [
  { name: 'subscribe', rateLimitClass: 'non_matching', transports: ['ws'], httpPath: null, auth: null, notShown: false },
  { name: 'unsubscribe', rateLimitClass: 'non_matching', transports: ['ws'], httpPath: null, auth: null, notShown: false },
  { name: 'public/login', rateLimitClass: 'non_matching', transports: ['ws'], httpPath: null, auth: 'none', notShown: false },
  { name: 'public/getRateLimits', rateLimitClass: 'non_matching', transports: ['ws', 'http'], httpPath: '/v3/public/getRateLimits', auth: 'none', notShown: false },
  { name: 'private/get_subaccounts', rateLimitClass: 'non_matching', transports: ['http', 'ws'], httpPath: '/v3/private/get_subaccounts', auth: 'login', notShown: false }, // ws: assumption get-subaccounts-ws
  { name: 'order', rateLimitClass: 'matching', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'replace', rateLimitClass: 'matching', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'cancel', rateLimitClass: 'matching', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'cancel_by_instrument', rateLimitClass: 'matching', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'cancel_by_nonce', rateLimitClass: 'matching', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'cancel_all', rateLimitClass: 'endpoint', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'cancel_by_label', rateLimitClass: 'custom', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'public/get_all_live_instruments', rateLimitClass: 'custom', transports: null, httpPath: undefined, auth: null, notShown: true },
];

/** ### Tier 1 classes: "Method counts among the 100: non_matching 92, matching 5, endpoint 1, custom 2." */
const CLASSES = [
  { name: 'non_matching', methodCount: 92, default: true, budget: 'non_matching' },
  { name: 'matching', methodCount: 5, default: false, budget: 'matching' },
  { name: 'endpoint', methodCount: 1, default: false, budget: null },
  { name: 'custom', methodCount: 2, default: false, budget: null },
] as const;

/** ## Errors: the two codes the document gives. */
const DOC_ERRORS = [
  { code: -32000, message: 'Rate limit exceeded', data: 'Retry after <ms> ms', textFramePrefix: undefined },
  { code: -32100, message: 'Number of concurrent websocket clients limit exceeded', data: undefined, textFramePrefix: 'connectionLimitExceeded:' },
] as const;
const RESERVED = { from: -32099, to: -32000 } as const;

/** ### Reference values. Keyed by the spec's x-limits id; everything else from the document's table. */
const LIMITS = [
  { limiter: 'Non-matching budget', id: 'non_matching', kind: 'window', scope: 'wallet', tps: 5, windowMs: 5000, points: 25 },
  { limiter: 'Matching budget', id: 'matching', kind: 'window', scope: 'wallet', tps: 1, windowMs: 5000, points: 5 },
  { limiter: 'cancel_all budget', id: 'cancel_all', kind: 'window', scope: 'wallet-method', tps: 1, windowMs: 5000, points: 5 },
  { limiter: 'Public request budget', id: 'public', kind: 'window', scope: 'ip', tps: 5, windowMs: 5000, points: 25 },
  { limiter: 'Concurrent WebSocket clients', id: 'connections', kind: 'connections', scope: 'ip', max: 4 },
  { limiter: 'Instrument bucket, perps and spot', id: 'bucket_perp_spot', kind: 'bucket', scope: 'wallet-instrument', refillPerSecond: 1, capacity: 5, instrumentTypes: ['perp', 'erc20'] },
  { limiter: 'Instrument bucket, options', id: 'bucket_option', kind: 'bucket', scope: 'wallet-instrument', refillPerSecond: 1, capacity: 5, instrumentTypes: ['option'] },
] as const;

/** Servers: "lists two deployments, production and testnet, both over secure WebSocket", plus the HTTP base. */
const WS_SERVERS = [
  { id: 'production', host: '{ws_url}', variable: 'ws_url' },
  { id: 'testnet', host: '{testnet_ws_url}', variable: 'testnet_ws_url' },
] as const;

/**
 * Places the document leaves open ("not shown"): each must carry an x-not-shown marker whose JSON
 * pointer starts with one of the given prefixes, or (for the interface-wide items) whose text matches.
 */
const NOT_SHOWN: Array<{ what: string; pointers?: string[]; text?: RegExp }> = [
  { what: 'unit of record timestamps', pointers: ['/components/schemas/Timestamp/'] },
  { what: 'values of TimeInForce', pointers: ['/components/schemas/TimeInForce/'] },
  { what: 'values of TriggerPriceType', pointers: ['/components/schemas/TriggerPriceType/'] },
  { what: 'values of TriggerType', pointers: ['/components/schemas/TriggerType/'] },
  { what: 'fields of Trade', pointers: ['/components/schemas/Trade/'] },
  { what: 'fields of TickerSlimPayload', pointers: ['/components/schemas/TickerSlimPayload/'] },
  { what: 'fields of SpotFeedPayload', pointers: ['/components/schemas/SpotFeedPayload/'] },
  { what: 'fields of SpotFeedEntry', pointers: ['/components/schemas/SpotFeedEntry/'] },
  { what: 'element shape of collaterals', pointers: ['/components/schemas/MarginWatchResult/properties/collaterals/'] },
  { what: 'element shape of positions', pointers: ['/components/schemas/MarginWatchResult/properties/positions/'] },
  { what: 'response of subscribe and unsubscribe', pointers: ['/components/schemas/SubscriptionResult/'] },
  { what: 'subscribe params beyond channels', pointers: ['/components/schemas/SubscribeParams/'] },
  { what: 'unsubscribe params beyond channels', pointers: ['/components/schemas/UnsubscribeParams/'] },
  { what: 'outer frame of a pushed notification', pointers: ['/components/schemas/SubscriptionNotification/'] },
  { what: 'exact body of the private/get_subaccounts result', pointers: ['/components/schemas/GetSubaccountsResult/'] },
  { what: 'order book publish interval', pointers: ['/channels/orderbook/'] },
  { what: 'layout of the EIP-712 action signature', pointers: ['/x-action-signature/'] },
  { what: 'transitions between states', text: /transition/i },
  { what: 'session-key registration, access scopes, whitelist format', text: /session-key registration/i },
  { what: 'full catalogue of error codes', text: /catalogue of error codes/i },
  { what: 'HTTP status codes of failed requests', text: /HTTP status codes/i },
  { what: 'testnet values and code defaults of the limits', text: /testnet values/i },
  { what: 'message-size and subscription-count limits', text: /message size|subscriptions per connection/i },
  { what: 'deprecation policy', text: /deprecation/i },
  { what: 'the remaining methods of the 100', text: /remaining .*methods/i },
  { what: 'value of the dedicated cancel_by_label budget', text: /cancel_by_label/i },
  // "The exact length of the freshness window is deployment-specific ... Its value: not shown."
  { what: 'length of the login freshness window', text: /freshness/i },
];

// ================================================================================================
// Reading the spec
// ================================================================================================

let spec: LoadedSpec;
let model: ApiModel;
let ajv: Ajv;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

beforeAll(async () => {
  spec = await loadSpec(SPEC_FILE);
  model = buildModel(spec);
  ajv = new Ajv({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
  ajv.addSchema({ $id: 'spec', definitions: model.schemas }, 'spec');
});

/** The raw YAML node at a path (keys of objects, indices of arrays). */
function raw(...path: Array<string | number>): unknown {
  let node: unknown = spec.data;
  for (const key of path) node = isObj(node) ? node[String(key)] : Array.isArray(node) ? node[Number(key)] : undefined;
  return node;
}
function type(name: string): TypeModel {
  const t = model.types.find((x) => x.name === name);
  if (!t) throw new Error(`the spec has no schema named ${name}`);
  return t;
}
function field(record: string, name: string): FieldModel {
  const f = (type(record).fields ?? []).find((x) => x.name === name);
  if (!f) throw new Error(`${record} has no field ${name}`);
  return f;
}
function validator(name: string): ValidateFunction {
  const v = ajv.getSchema(`spec#/definitions/${name}`);
  if (!v) throw new Error(`no schema ${name} to validate with`);
  return v;
}
/** The field's type as the spec expresses it, without its null member. */
function baseType(f: FieldModel): string {
  return f.type.split(' | ').filter((t) => t !== 'null').join(' | ');
}
/** Whether a raw property schema admits null the way the conventions say: anyOf with {type:'null'} or a type list with 'null'. */
function rawNullable(p: unknown): boolean {
  if (!isObj(p)) return false;
  if (Array.isArray(p.type) && p.type.includes('null')) return true;
  return Array.isArray(p.anyOf) && p.anyOf.some((s) => isObj(s) && s.type === 'null');
}
function channelByAddress(address: string) {
  const c = model.channels.find((x) => x.address === address);
  if (!c) throw new Error(`the spec has no channel with address ${address}`);
  return c;
}
function methodByName(name: string) {
  const m = model.methods.find((x) => x.name === name);
  if (!m) throw new Error(`the spec has no operation with x-method ${name}`);
  return m;
}

const FIELD_ROWS = Object.entries(RECORDS).flatMap(([record, fields]) => fields.map((f) => ({ record, ...f })));
const ENUM_ROWS = Object.entries(ENUMS).map(([name, values]) => ({ name, values }));

// ================================================================================================
// Records and fields
// ================================================================================================

describe('records', () => {
  it('the checklist covers the 19 records the brief names', () => {
    expect(Object.keys(RECORDS)).toHaveLength(19);
  });

  it.each(Object.keys(RECORDS))('%s is a record in the spec', (record) => {
    const t = type(record);
    expect(t.kind).toBe('record');
    expect(raw('components', 'schemas', record, 'type')).toBe('object');
  });

  it.each(Object.keys(RECORDS))('%s: the required set equals the document\'s exactly', (record) => {
    const expected = RECORDS[record]!.filter((f) => f.required).map((f) => f.field).sort();
    const rawRequired = raw('components', 'schemas', record, 'required');
    const actual = (Array.isArray(rawRequired) ? (rawRequired as string[]) : []).slice().sort();
    expect(actual).toEqual(expected);
    expect((type(record).fields ?? []).filter((f) => f.required).map((f) => f.name).sort()).toEqual(expected);
  });

  it.each(Object.keys(RECORDS))('%s: the fields are exactly those the document lists', (record) => {
    const expected = RECORDS[record]!.map((f) => f.field).sort();
    expect((type(record).fields ?? []).map((f) => f.name).sort()).toEqual(expected);
  });

  describe.each(Object.keys(RECORDS))('%s', (record) => {
    const rows = FIELD_ROWS.filter((r) => r.record === record);
    it.each(rows)('$record › $field: $type, required $required, nullable $nullable', (row) => {
      const f = field(record, row.field);
      const allowed = typeof row.type === 'string' ? [row.type] : [...row.type];
      expect(allowed, `${record}.${row.field} is typed ${f.type}`).toContain(baseType(f));
      expect(f.required, `${record}.${row.field} required`).toBe(row.required);
      expect(f.nullable, `${record}.${row.field} nullable`).toBe(row.nullable);
      expect(rawNullable(raw('components', 'schemas', record, 'properties', row.field)), `${record}.${row.field} null written as anyOf/type list`).toBe(row.nullable);
      expect(f.default, `${record}.${row.field} default`).toEqual(row.default);
      // Every named type the field uses exists as a schema.
      for (const ref of f.refs) expect(model.types.some((t) => t.name === ref), `${record}.${row.field} refers to ${ref}`).toBe(true);
    });
  });

  it('Order.cancel_reason and Order.label default to the empty string', () => {
    expect(field('Order', 'cancel_reason').default).toBe('');
    expect(field('Order', 'label').default).toBe('');
  });

  it('a level of the order book is an array of exactly two strings (price, then amount)', () => {
    const level = validator('OrderbookLevel');
    expect(level(['3000', '12.5'])).toBe(true);
    expect(level(['3000'])).toBe(false);
    expect(level(['3000', '12.5', '1'])).toBe(false);
    expect(level([3000, '12.5'])).toBe(false);
    expect(level(['3000', 12.5])).toBe(false);
    const book = validator('OrderbookPayload');
    const ok = { instrument_name: 'ETH-PERP', publish_id: 1, timestamp: 1, bids: [['1', '2']], asks: [] };
    expect(book(ok)).toBe(true);
    expect(book({ ...ok, bids: [['1', '2', '3']] })).toBe(false);
    expect(book({ ...ok, publish_id: -1 })).toBe(false);
  });

  it('AuctionDetails.subaccount_balances maps asset name to a decimal string', () => {
    const details = validator('AuctionDetails');
    const base = { estimated_bid_price: '1', estimated_discount_pnl: '1', estimated_mtm: '1', estimated_percent_bid: '1', margin_type: 'PM', min_price_limit: '1' };
    expect(details({ ...base, subaccount_balances: { USDC: '1.5' } })).toBe(true);
    expect(details({ ...base, subaccount_balances: { USDC: 1.5 } })).toBe(false);
  });
});

// ================================================================================================
// Enumerations and open places
// ================================================================================================

describe('enumerations', () => {
  it.each(ENUM_ROWS)('$name has exactly the document\'s values, in order', ({ name, values }) => {
    const t = type(name);
    expect(t.kind).toBe('enum');
    expect(t.values).toEqual([...values]);
    expect(raw('components', 'schemas', name, 'type')).toBe('string');
  });

  it.each(['CancelReason', 'RFQCancelReason'])('%s allows the empty string', (name) => {
    expect(validator(name)('')).toBe(true);
    expect(validator(name)('not_a_reason')).toBe(false);
  });

  it.each([...OPEN_ENUMS])('%s is an open string with an x-not-shown marker', (name) => {
    const s = raw('components', 'schemas', name) as Obj;
    expect(s.enum).toBeUndefined();
    expect(s.type).toBe('string');
    expect(type(name).notShown).toBeTruthy();
    expect(validator(name)('anything')).toBe(true);
  });

  it.each([...OPEN_RECORDS])('%s is an open record with an x-not-shown marker', (name) => {
    const s = raw('components', 'schemas', name) as Obj;
    expect(s.properties).toBeUndefined();
    expect(s.required).toBeUndefined();
    expect(s.additionalProperties === undefined || s.additionalProperties === true).toBe(true);
    expect(type(name).notShown).toBeTruthy();
    expect(validator(name)({ any: 'field' })).toBe(true);
  });

  // The document shows no field of the private trade record: the fields listed are an assumption, and none is required.
  it('Trade is open, with an x-not-shown marker, requires nothing and lists only assumed fields', () => {
    const s = raw('components', 'schemas', 'Trade') as Obj;
    expect(s.required).toBeUndefined();
    expect(s.additionalProperties).toBe(true);
    expect(type('Trade').notShown).toBeTruthy();
    expect(s['x-assumption']).toBe('private-trade');
    expect(validator('Trade')({ any: 'field' })).toBe(true);
  });

  it.each(OPEN_ELEMENTS.map(([r, f]) => ({ r, f })))('$r › $f elements are open with an x-not-shown marker', ({ r, f }) => {
    const items = raw('components', 'schemas', r, 'properties', f, 'items') as Obj;
    expect(isObj(items)).toBe(true);
    expect(Object.keys(items).filter((k) => !k.startsWith('x-'))).toEqual([]);
    expect(items['x-not-shown']).toBeTruthy();
    expect(field(r, f).notShown).toBeTruthy();
  });
});

// ================================================================================================
// Shared scalars
// ================================================================================================

describe('shared scalars', () => {
  it('Decimal accepts up to 12 fractional digits and rejects 13', () => {
    const pattern = new RegExp(raw('components', 'schemas', 'Decimal', 'pattern') as string);
    const v = validator('Decimal');
    for (const ok of ['0', '3000', '-12.5', '0.000000000001', '123456789.123456789012']) {
      expect(pattern.test(ok), ok).toBe(true);
      expect(v(ok), ok).toBe(true);
    }
    for (const bad of ['0.0000000000001', '1.1234567890123', '', 'abc', '1e5', '1.']) {
      expect(v(bad), bad).toBe(false);
    }
    expect(v(1.5)).toBe(false); // records carry the string; DecimalInput also takes a number
    expect(validator('DecimalInput')(1.5)).toBe(true);
    expect(raw('components', 'schemas', 'Decimal', 'type')).toBe('string');
  });

  it('NonNegativeDecimal rejects negatives', () => {
    const v = validator('NonNegativeDecimal');
    expect(v('0')).toBe(true);
    expect(v('1.5')).toBe(true);
    expect(v('0.000000000001')).toBe(true);
    expect(v('-1')).toBe(false);
    expect(v('-0.5')).toBe(false);
    expect(v('0.0000000000001')).toBe(false);
    expect(validator('NonNegativeDecimalInput')(-1)).toBe(false);
  });

  it('Address is ^0x[0-9a-fA-F]{40}$', () => {
    expect(raw('components', 'schemas', 'Address', 'pattern')).toBe('^0x[0-9a-fA-F]{40}$');
    const v = validator('Address');
    expect(v('0x8Ba1f109551bD432803012645Ac136ddd64DBA72')).toBe(true);
    expect(v('0x8Ba1f109551bD432803012645Ac136ddd64DBA7')).toBe(false);
    expect(v('0x8Ba1f109551bD432803012645Ac136ddd64DBA722')).toBe(false);
    expect(v('8Ba1f109551bD432803012645Ac136ddd64DBA72ab')).toBe(false);
    expect(v('0xZZa1f109551bD432803012645Ac136ddd64DBA72')).toBe(false);
  });

  it('UUID is in v4 form', () => {
    const v = validator('UUID');
    expect(v('7f3c2a9e-1b4d-4c8a-9e2f-0a1b2c3d4e5f')).toBe(true);
    expect(v('7f3c2a9e-1b4d-1c8a-9e2f-0a1b2c3d4e5f')).toBe(false);
    expect(v('not-a-uuid')).toBe(false);
  });

  it.each(['Int64', 'Timestamp'])('%s is a JSON integer', (name) => {
    expect(raw('components', 'schemas', name, 'type')).toBe('integer');
    const v = validator(name);
    expect(v(1767225600000)).toBe(true);
    expect(v(-1)).toBe(true);
    expect(v(1.5)).toBe(false);
    expect(v('1')).toBe(false);
  });

  it('UInt64 (publish_id, n) is an integer with minimum 0', () => {
    expect(raw('components', 'schemas', 'UInt64', 'type')).toBe('integer');
    expect(raw('components', 'schemas', 'UInt64', 'minimum')).toBe(0);
  });

  it('JsonRpcId is string, number or null', () => {
    const t = raw('components', 'schemas', 'JsonRpcId', 'type');
    expect(Array.isArray(t) ? [...(t as string[])].sort() : t).toEqual(['null', 'number', 'string']);
    const v = validator('JsonRpcId');
    for (const ok of ['a', 1, 1.5, null]) expect(v(ok), String(ok)).toBe(true);
    for (const bad of [{}, [], true]) expect(v(bad), JSON.stringify(bad)).toBe(false);
  });
});

// ================================================================================================
// Channels
// ================================================================================================

describe('channels', () => {
  it('the spec has exactly the 13 channels of the Events table', () => {
    expect(CHANNELS).toHaveLength(13);
    expect(model.channels.map((c) => c.address).sort()).toEqual(CHANNELS.map((c) => c.address).sort());
  });

  it.each(CHANNELS)('$address: $access, payload $record (array $array)', (row) => {
    const c = channelByAddress(row.address);
    // The model defaults a missing x-access to public: read the raw value too.
    expect(raw('channels', c.id, 'x-access')).toBe(row.access);
    expect(c.access).toBe(row.access);
    expect(c.payload.record).toBe(row.record);
    expect(c.payload.array).toBe(row.array);
    expect(c.parameters.map((p) => [p.name, p.enum])).toEqual(row.params);
    // Every parameter of the template is declared in the channel.
    const declared = raw('channels', c.id, 'parameters');
    for (const [name] of row.params) expect(isObj(declared) && name in declared, `parameter ${name} declared`).toBe(true);
    // "All channels are reached at /v3/ws": the channel's servers are the WebSocket deployments.
    const servers = (raw('channels', c.id, 'servers') as Obj[] | undefined) ?? [];
    expect(servers.map((s) => s.$ref).sort()).toEqual(['#/servers/production', '#/servers/testnet']);
  });

  it('every channel has a receive operation', () => {
    const received = Object.values(raw('operations') as Obj)
      .filter((op) => isObj(op) && op.action === 'receive')
      .map((op) => String((op as { channel: Obj }).channel.$ref));
    for (const c of model.channels) expect(received, c.address).toContain(`#/channels/${c.id}`);
  });
});

// ================================================================================================
// Methods
// ================================================================================================

describe('methods', () => {
  it('the spec describes exactly the 13 methods the document names', () => {
    expect(model.methods.map((m) => m.name).sort()).toEqual(METHODS.map((m) => m.name).sort());
  });

  it.each(METHODS)('$name: class $rateLimitClass, transports $transports', (row) => {
    const m = methodByName(row.name);
    // The model fills defaults for missing keys: the raw operation must state them.
    expect(raw('operations', m.id, 'x-rate-limit-class')).toBe(row.rateLimitClass);
    expect(m.rateLimitClass).toBe(row.rateLimitClass);
    const rawTransports = raw('operations', m.id, 'x-transports');
    expect(Array.isArray(rawTransports) && rawTransports.length > 0).toBe(true);
    for (const t of m.transports) expect(['ws', 'http']).toContain(t);
    if (row.transports) expect([...m.transports].sort()).toEqual([...row.transports].sort());
    if (row.httpPath !== undefined) expect(m.httpPath).toBe(row.httpPath);
    // An HTTP path is `/v3/<public or private>/<method>`.
    expect(m.transports.includes('http')).toBe(m.httpPath !== null);
    if (m.httpPath !== null) expect(m.httpPath).toMatch(/^\/v3\/(public|private)\/[A-Za-z_]+$/);
    if (m.httpPath !== null && m.name.includes('/')) expect(m.httpPath).toBe(`/v3/${m.name}`);
    if (row.auth) expect(raw('operations', m.id, 'x-auth')).toBe(row.auth);
    if (row.notShown) expect(m.notShown, `${row.name}: paths and payloads not shown`).toBeTruthy();
  });

  it('cancel_all has its own per-(wallet, method) budget', () => {
    const m = methodByName('cancel_all');
    expect(m.rateLimitBudget).toBe('cancel_all');
    expect(model.limits.find((l) => l.id === 'cancel_all')?.scope).toBe('wallet-method');
  });

  it('cancel_by_label: matching budget for a single instrument, otherwise a dedicated per-method budget', () => {
    const rule = methodByName('cancel_by_label').rateLimitRule;
    expect(rule?.singleInstrument).toBe('matching');
    const other = model.limits.find((l) => l.id === rule?.otherwise);
    expect(other, `budget ${rule?.otherwise}`).toBeTruthy();
    expect(other?.scope).toBe('wallet-method');
    expect(other?.notShown, 'its value is not shown').toBeTruthy();
    expect(other?.assumption).toBeTruthy();
  });

  it('public/get_all_live_instruments has no per-request decrement', () => {
    expect(methodByName('public/get_all_live_instruments').rateLimitRule).toEqual({ decrement: 'none' });
  });

  it.each([...CLASSES])('class $name counts $methodCount methods of the 100', (c) => {
    const m = model.rateLimitClasses.find((x) => x.name === c.name);
    expect(m, c.name).toBeTruthy();
    expect(m?.methodCount).toBe(c.methodCount);
    expect(m?.default).toBe(c.default);
    if (c.budget) expect(m?.budget).toBe(c.budget);
  });

  it('there are exactly the four classes and their counts sum to 100', () => {
    expect(model.rateLimitClasses.map((c) => c.name).sort()).toEqual(CLASSES.map((c) => c.name).sort());
    expect(model.rateLimitClasses.reduce((n, c) => n + (c.methodCount ?? 0), 0)).toBe(100);
  });

  it.each(['matching', 'endpoint', 'custom'] as const)('every %s method the document names is in the spec with that class', (cls) => {
    const expected = CLASSES.find((c) => c.name === cls)!.methodCount;
    expect(model.methods.filter((m) => m.rateLimitClass === cls)).toHaveLength(expected);
  });

  it('subscribe takes channels (array of addresses); unsubscribe\'s channels is optional', () => {
    const sub = methodByName('subscribe');
    expect(sub.params.record).toBe('SubscribeParams');
    expect(field('SubscribeParams', 'channels')).toMatchObject({ required: true, type: 'array of string' });
    const unsub = methodByName('unsubscribe');
    expect(unsub.params.record).toBe('UnsubscribeParams');
    expect(field('UnsubscribeParams', 'channels')).toMatchObject({ required: false, type: 'array of string' });
    expect(validator('UnsubscribeParams')({})).toBe(true);
  });

  it('public/login: params wallet, timestamp (decimal string of ms), signature (65-byte hex); result an array of integer ids', () => {
    const m = methodByName('public/login');
    expect(m.params.record).toBe('PublicLoginParams');
    expect(baseType(field('PublicLoginParams', 'wallet'))).toBe('Address');
    // A decimal string of milliseconds; as an input, by the decimal convention, the same whole number as a JSON number too.
    expect(baseType(field('PublicLoginParams', 'timestamp'))).toBe('LoginTimestampInput');
    expect(baseType(field('PublicLoginParams', 'signature'))).toBe('HexSignature');
    expect(raw('components', 'schemas', 'HexSignature', 'pattern')).toBe('^0x[0-9a-fA-F]{130}$');
    const ts = validator('PublicLoginParams');
    expect(ts({ timestamp: '1767225600000' })).toBe(true);
    expect(ts({ timestamp: '17672256.5' })).toBe(false);
    expect(ts({ timestamp: 1767225600000 })).toBe(true);
    expect(ts({ timestamp: 17672256.5 })).toBe(false);
    expect(m.result).toMatchObject({ record: 'Int64', array: true });
  });

  it('public/getRateLimits: params empty or null, result RateLimitsResult', () => {
    const m = methodByName('public/getRateLimits');
    const v = validator(m.params.record ?? '');
    expect(v({})).toBe(true);
    expect(v(null)).toBe(true);
    expect(v({ anything: 1 })).toBe(false);
    expect(m.result).toMatchObject({ record: 'RateLimitsResult', array: false });
  });

  it('private/get_subaccounts: body an object with wallet (address)', () => {
    const m = methodByName('private/get_subaccounts');
    expect(m.params.record).toBe('GetSubaccountsParams');
    expect(field('GetSubaccountsParams', 'wallet')).toMatchObject({ required: true, type: 'Address' });
  });

  it('JSON-RPC requests require id, method and params; headers is optional and nullable', () => {
    const required = raw('components', 'schemas', 'JsonRpcRequest', 'required') as string[];
    expect(required).toEqual(expect.arrayContaining(['id', 'method', 'params']));
    const headers = field('JsonRpcRequest', 'headers');
    expect(headers.required).toBe(false);
    expect(headers.nullable).toBe(true);
    expect(baseType(field('JsonRpcRequest', 'id'))).toBe('JsonRpcId');
    const response = validator('JsonRpcResponse');
    expect(response({ jsonrpc: '2.0', id: 1, result: {} })).toBe(true);
    expect(response({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'Rate limit exceeded' } })).toBe(true);
    expect(response({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } })).toBe(false);
  });
});

// ================================================================================================
// Errors
// ================================================================================================

describe('errors', () => {
  it.each([...DOC_ERRORS])('$code: "$message"', (row) => {
    const matches = model.errors.codes.filter((e) => e.code === row.code);
    expect(matches).toHaveLength(1);
    const e = matches[0]!;
    expect(e.message).toBe(row.message);
    expect(e.assumption, 'a code from the document is not an assumption').toBeUndefined();
    if (row.data) expect(e.data).toBe(row.data);
    if (row.textFramePrefix) expect(e.textFramePrefix).toBe(row.textFramePrefix);
  });

  it('-32000 data hint has the form "Retry after <ms> ms"', () => {
    const e = model.errors.codes.find((x) => x.code === -32000);
    expect(e?.dataPattern).toBeTruthy();
    const pattern = new RegExp(e?.dataPattern ?? '$^');
    expect(pattern.test('Retry after 1500 ms')).toBe(true);
    expect(pattern.test('Retry after 0 ms')).toBe(true);
    expect(pattern.test('Retry later')).toBe(false);
  });

  it('-32000..-32099 is reserved for rate-limit errors', () => {
    const ranges = model.errors.reserved.map((r) => [Math.min(r.from, r.to), Math.max(r.from, r.to)]);
    expect(ranges).toContainEqual([RESERVED.from, RESERVED.to]);
  });

  it('no assumed error code falls in the reserved range', () => {
    const inRange = (c: number) => c >= RESERVED.from && c <= RESERVED.to;
    const assumed = model.errors.codes.filter((e) => e.assumption);
    expect(assumed.filter((e) => inRange(e.code)).map((e) => e.code)).toEqual([]);
    // Only -32000 (Rate limit exceeded) is in the range.
    expect(model.errors.codes.filter((e) => inRange(e.code)).map((e) => e.code)).toEqual([-32000]);
  });

  it('every error code the document does not give is marked as an assumption', () => {
    const documented = new Set<number>(DOC_ERRORS.map((e) => e.code));
    const unmarked = model.errors.codes.filter((e) => !documented.has(e.code) && !e.assumption).map((e) => e.code);
    expect(unmarked).toEqual([]);
  });

  it('error codes are unique', () => {
    const codes = model.errors.codes.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

// ================================================================================================
// Limits, login, servers, version
// ================================================================================================

describe('limits', () => {
  it.each([...LIMITS])('$limiter ($id): the reference values', (row) => {
    const l = model.limits.find((x) => x.id === row.id);
    expect(l, row.id).toBeTruthy();
    expect(l?.assumption, 'a reference value of the document is not an assumption').toBeUndefined();
    const { limiter: _limiter, instrumentTypes, ...expected } = row as typeof row & { instrumentTypes?: readonly string[] };
    expect(l).toMatchObject(expected);
    if (instrumentTypes) expect([...(l?.instrumentTypes ?? [])].sort()).toEqual([...instrumentTypes].sort());
    if (l?.kind === 'window') expect(l.points).toBe((l.tps ?? 0) * ((l.windowMs ?? 0) / 1000));
  });

  it('every limit beyond the reference table is an assumption', () => {
    const documented = new Set<string>(LIMITS.map((l) => l.id));
    expect(model.limits.filter((l) => !documented.has(l.id) && !l.assumption).map((l) => l.id)).toEqual([]);
  });
});

describe('login', () => {
  it('HTTP login headers are X-ServiceWallet, X-ServiceTimestamp, X-ServiceSignature', () => {
    expect(model.login?.headers).toEqual({
      wallet: 'X-ServiceWallet',
      timestamp: 'X-ServiceTimestamp',
      signature: 'X-ServiceSignature',
    });
  });

  it('the freshness window applies to the wallet only and its length is an assumption', () => {
    expect(model.login?.freshness?.appliesTo).toBe('wallet');
    expect(model.login?.freshness?.assumption).toBeTruthy();
  });

  it('the re-verification interval is an assumption', () => {
    expect(raw('x-login', 'reverify', 'x-assumption')).toBeTruthy();
  });
});

describe('servers and version', () => {
  it('info.version is 0.2.0 and the document is AsyncAPI 3.0.0', () => {
    expect(model.version).toBe('0.2.0');
    expect(raw('asyncapi')).toBe('3.0.0');
  });

  it.each([...WS_SERVERS])('$id: wss, pathname /v3/ws, host $host', (row) => {
    const s = model.servers.find((x) => x.id === row.id);
    expect(s, row.id).toBeTruthy();
    expect(s).toMatchObject({ host: row.host, protocol: 'wss', pathname: '/v3/ws', transport: 'ws' });
    expect(s?.variables).toEqual([row.variable]);
  });

  it('the HTTP base is {base_url}', () => {
    const http = model.servers.filter((s) => s.transport === 'http');
    expect(http).toHaveLength(1);
    expect(http[0]).toMatchObject({ host: '{base_url}' });
    expect(http[0]?.variables).toEqual(['base_url']);
  });

  it('every HTTP path and the WebSocket path start with /v3', () => {
    for (const s of model.servers.filter((x) => x.transport === 'ws')) expect(s.pathname.startsWith('/v3/'), s.id).toBe(true);
    for (const m of model.methods.filter((x) => x.httpPath)) expect(m.httpPath?.startsWith('/v3/'), m.name).toBe(true);
  });
});

// ================================================================================================
// What the document leaves open
// ================================================================================================

describe('not shown', () => {
  it.each(NOT_SHOWN)('$what carries an x-not-shown marker', (row) => {
    const hit = model.notShown.some(
      (n) =>
        (row.pointers?.some((p) => n.pointer.startsWith(`#${p}`)) ?? false) ||
        (row.text?.test(n.text) ?? false),
    );
    expect(hit, `no x-not-shown marker for: ${row.what}`).toBe(true);
  });

  it('every x-not-shown marker that the model lists is a non-empty sentence', () => {
    for (const n of model.notShown) expect(n.text.length, n.pointer).toBeGreaterThan(0);
  });
});

/**
 * Enumerations, open places, channels, methods, classes, errors, limits, servers and not-shown places of the
 * interface document, written by hand from it.
 */

export const ENUMS: Record<string, readonly string[]> = {
  Direction: ['buy', 'sell'],
  LiquidityRole: ['maker', 'taker'],
  LiquidityRole2: ['maker', 'taker'],
  OrderType: ['limit', 'market'],
  OrderStatus: ['open', 'filled', 'rejected', 'cancelled', 'expired', 'untriggered', 'algo_active'],
  AlgoType: ['twap'],
  AuctionStateType: ['ongoing', 'ended'],
  RFQStatus: ['open', 'filled', 'cancelled', 'expired'],
  BatchStatus: [
    'Batching',
    'Executing',
    'Proving',
    'Settling',
    'Settled',
    'BatchingError',
    'ExecutingError',
    'ProvingError',
    'SettlingError',
    'SettledError',
  ],
  BalanceUpdateType: [
    'trade',
    'asset_deposit',
    'asset_withdrawal',
    'transfer',
    'subaccount_deposit',
    'subaccount_withdrawal',
    'liquidation',
    'liquidator',
    'onchain_drift_fix',
    'perp_settlement',
    'option_settlement',
    'interest_accrual',
    'onchain_revert',
    'double_revert',
  ],
  CancelReason: [
    '',
    'user_request',
    'mmp_trigger',
    'insufficient_margin',
    'signed_max_fee_too_low',
    'cancel_on_disconnect',
    'ioc_or_market_partial_fill',
    'session_key_deregistered',
    'subaccount_withdrawn',
    'compliance',
    'trigger_failed',
    'validation_failed',
    'algo_completed',
  ],
  RFQCancelReason: [
    '',
    'user_request',
    'insufficient_margin',
    'signed_max_fee_too_low',
    'mmp_trigger',
    'cancel_on_disconnect',
    'session_key_deregistered',
    'subaccount_withdrawn',
    'rfq_no_longer_open',
    'compliance',
    'validation_failed',
  ],
};

/** "Other enumerations used by Order (TimeInForce, TriggerPriceType, TriggerType): values not shown." */
export const OPEN_ENUMS = ['TimeInForce', 'TriggerPriceType', 'TriggerType'] as const;
/** Records whose fields are not shown. */
export const OPEN_RECORDS = ['TickerSlimPayload', 'SpotFeedPayload', 'SpotFeedEntry'] as const;
/** "Element shape of collaterals and positions: not shown." */
export const OPEN_ELEMENTS = [
  ['MarginWatchResult', 'collaterals'],
  ['MarginWatchResult', 'positions'],
] as const;

/** ## Events: every channel, exactly as the document's table says. */
export interface ChannelRow {
  address: string;
  access: 'public' | 'private';
  /** Parameter names in address order, with their enum (null: any value). */
  params: Array<[name: string, values: string[] | null]>;
  record: string;
  array: boolean;
}
export const CHANNELS: ChannelRow[] = [
  { address: 'auctions.watch', access: 'public', params: [], record: 'AuctionResult', array: true },
  { address: 'margin.watch', access: 'public', params: [], record: 'MarginWatchResult', array: true },
  {
    address: 'orderbook.{instrument_name}.{group}.{depth}',
    access: 'public',
    params: [
      ['instrument_name', null],
      ['group', ['1', '10', '100']],
      ['depth', ['1', '10', '20', '100']],
    ],
    record: 'OrderbookPayload',
    array: false,
  },
  {
    address: 'spot_feed.{currency}',
    access: 'public',
    params: [['currency', null]],
    record: 'SpotFeedPayload',
    array: false,
  },
  {
    address: '{subaccount_id}.balances',
    access: 'private',
    params: [['subaccount_id', null]],
    record: 'BalanceUpdate',
    array: true,
  },
  {
    address: '{subaccount_id}.best.quotes',
    access: 'private',
    params: [['subaccount_id', null]],
    record: 'BestQuoteChannelResult',
    array: true,
  },
  {
    address: '{subaccount_id}.orders',
    access: 'private',
    params: [['subaccount_id', null]],
    record: 'Order',
    array: true,
  },
  {
    address: '{subaccount_id}.quotes',
    access: 'private',
    params: [['subaccount_id', null]],
    record: 'QuotePublishResult',
    array: true,
  },
  {
    address: '{subaccount_id}.trades',
    access: 'private',
    params: [['subaccount_id', null]],
    record: 'Trade',
    array: true,
  },
  {
    address: 'ticker_slim.{instrument_name}.{interval}',
    access: 'public',
    params: [
      ['instrument_name', null],
      ['interval', ['100', '1000']],
    ],
    record: 'TickerSlimPayload',
    array: false,
  },
  {
    address: 'trades.{instrument_name}',
    access: 'public',
    params: [['instrument_name', null]],
    record: 'PublicTrade',
    array: true,
  },
  {
    address: 'trades.{instrument_type}.{currency}',
    access: 'public',
    params: [
      ['instrument_type', ['erc20', 'option', 'perp']],
      ['currency', null],
    ],
    record: 'PublicTrade',
    array: true,
  },
  { address: '{wallet}.rfqs', access: 'private', params: [['wallet', null]], record: 'PublicRfq', array: true },
];

/**
 * ## Endpoints and Limits: every method the document names. transports / httpPath / auth are null
 * where the document does not say (paths and payloads not shown): then only their form is checked.
 */
export interface MethodRow {
  name: string;
  rateLimitClass: 'non_matching' | 'matching' | 'endpoint' | 'custom';
  transports: Array<'ws' | 'http'> | null;
  httpPath: string | null | undefined; // undefined: not shown by the document
  auth: 'none' | 'login' | null;
  /** Paths and payloads not shown: the operation must carry an x-not-shown marker. */
  notShown: boolean;
}
export const METHODS: MethodRow[] = [
  {
    name: 'subscribe',
    rateLimitClass: 'non_matching',
    transports: ['ws'],
    httpPath: null,
    auth: null,
    notShown: false,
  },
  {
    name: 'unsubscribe',
    rateLimitClass: 'non_matching',
    transports: ['ws'],
    httpPath: null,
    auth: null,
    notShown: false,
  },
  {
    name: 'public/login',
    rateLimitClass: 'non_matching',
    transports: ['ws'],
    httpPath: null,
    auth: 'none',
    notShown: false,
  },
  {
    name: 'public/getRateLimits',
    rateLimitClass: 'non_matching',
    transports: ['ws', 'http'],
    httpPath: '/v3/public/getRateLimits',
    auth: 'none',
    notShown: false,
  },
  {
    name: 'private/get_subaccounts',
    rateLimitClass: 'non_matching',
    transports: ['http', 'ws'],
    httpPath: '/v3/private/get_subaccounts',
    auth: 'login',
    notShown: false,
  }, // ws: assumption get-subaccounts-ws
  { name: 'order', rateLimitClass: 'matching', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'replace', rateLimitClass: 'matching', transports: null, httpPath: undefined, auth: null, notShown: true },
  { name: 'cancel', rateLimitClass: 'matching', transports: null, httpPath: undefined, auth: null, notShown: true },
  {
    name: 'cancel_by_instrument',
    rateLimitClass: 'matching',
    transports: null,
    httpPath: undefined,
    auth: null,
    notShown: true,
  },
  {
    name: 'cancel_by_nonce',
    rateLimitClass: 'matching',
    transports: null,
    httpPath: undefined,
    auth: null,
    notShown: true,
  },
  { name: 'cancel_all', rateLimitClass: 'endpoint', transports: null, httpPath: undefined, auth: null, notShown: true },
  {
    name: 'cancel_by_label',
    rateLimitClass: 'custom',
    transports: null,
    httpPath: undefined,
    auth: null,
    notShown: true,
  },
  {
    name: 'public/get_all_live_instruments',
    rateLimitClass: 'custom',
    transports: null,
    httpPath: undefined,
    auth: null,
    notShown: true,
  },
];

/** ### Tier 1 classes: "Method counts among the 100: non_matching 92, matching 5, endpoint 1, custom 2." */
export const CLASSES = [
  { name: 'non_matching', methodCount: 92, default: true, budget: 'non_matching' },
  { name: 'matching', methodCount: 5, default: false, budget: 'matching' },
  { name: 'endpoint', methodCount: 1, default: false, budget: null },
  { name: 'custom', methodCount: 2, default: false, budget: null },
] as const;

/** ## Errors: the two codes the document gives. */
export const DOC_ERRORS = [
  { code: -32000, message: 'Rate limit exceeded', data: 'Retry after <ms> ms', textFramePrefix: undefined },
  {
    code: -32100,
    message: 'Number of concurrent websocket clients limit exceeded',
    data: undefined,
    textFramePrefix: 'connectionLimitExceeded:',
  },
] as const;
export const RESERVED = { from: -32099, to: -32000 } as const;

/** ### Reference values. Keyed by the spec's x-limits id; everything else from the document's table. */
export const LIMITS = [
  {
    limiter: 'Non-matching budget',
    id: 'non_matching',
    kind: 'window',
    scope: 'wallet',
    tps: 5,
    windowMs: 5000,
    points: 25,
  },
  { limiter: 'Matching budget', id: 'matching', kind: 'window', scope: 'wallet', tps: 1, windowMs: 5000, points: 5 },
  {
    limiter: 'cancel_all budget',
    id: 'cancel_all',
    kind: 'window',
    scope: 'wallet-method',
    tps: 1,
    windowMs: 5000,
    points: 5,
  },
  { limiter: 'Public request budget', id: 'public', kind: 'window', scope: 'ip', tps: 5, windowMs: 5000, points: 25 },
  { limiter: 'Concurrent WebSocket clients', id: 'connections', kind: 'connections', scope: 'ip', max: 4 },
  {
    limiter: 'Instrument bucket, perps and spot',
    id: 'bucket_perp_spot',
    kind: 'bucket',
    scope: 'wallet-instrument',
    refillPerSecond: 1,
    capacity: 5,
    instrumentTypes: ['perp', 'erc20'],
  },
  {
    limiter: 'Instrument bucket, options',
    id: 'bucket_option',
    kind: 'bucket',
    scope: 'wallet-instrument',
    refillPerSecond: 1,
    capacity: 5,
    instrumentTypes: ['option'],
  },
] as const;

/** Servers: "lists two deployments, production and testnet, both over secure WebSocket", plus the HTTP base. */
export const WS_SERVERS = [
  { id: 'production', host: '{ws_url}', variable: 'ws_url' },
  { id: 'testnet', host: '{testnet_ws_url}', variable: 'testnet_ws_url' },
] as const;

/**
 * Places the document leaves open ("not shown"): each must carry an x-not-shown marker whose JSON
 * pointer starts with one of the given prefixes, or (for the interface-wide items) whose text matches.
 */
export const NOT_SHOWN: Array<{ what: string; pointers?: string[]; text?: RegExp }> = [
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

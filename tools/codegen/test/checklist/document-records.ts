/** The records of the interface document, field by field, written by hand from it (not read from the spec). */


/** A field of a record: name, type as the spec expresses it (alternatives allowed), required, nullable, default. */
export interface FieldRow {
  field: string;
  type: string | readonly string[];
  required: boolean;
  nullable: boolean;
  default?: unknown;
}
export const req = (field: string, type: FieldRow['type'], nullable = false): FieldRow => ({ field, type, required: true, nullable });
export const opt = (field: string, type: FieldRow['type'], nullable = false, extra: { default?: unknown } = {}): FieldRow => ({
  field, type, required: false, nullable, ...extra,
});
export const NULL = true;
/** The document writes liquidity_role as `maker`/`taker`: LiquidityRole, also named LiquidityRole2. */
export const ROLE = ['LiquidityRole', 'LiquidityRole2'] as const;

export const RECORDS: Record<string, FieldRow[]> = {
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

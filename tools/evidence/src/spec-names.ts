/**
 * derive-ts's record names → the spec's schema names, where the spec already has the record (a fact
 * established by comparing their fields; the evidence test holds them together).
 */
export const SAME_RECORD: Record<string, string> = {
  OrderWireResponse: 'Order',
  TradeWireResponse: 'Trade',
  TradePublicResponseDoc: 'PublicTrade',
  TradeSettledPublicResponse: 'SettledPublicTrade',
  InstrumentPublicResponse: 'Instrument',
  CurrencyResponse: 'Currency',
  OptionPublicDetails: 'OptionDetails',
  PerpPublicDetails: 'PerpDetails',
  Erc20Details: 'AssetErc20Details',
  CollateralResponse: 'Collateral',
  PositionResponse: 'Position',
  PrivateGetSubaccountRPCResponseFor_OrderWireResponseAnd_VaultDepositHoldResponse: 'Portfolio',
  BalanceUpdate: 'BalanceUpdate',
  AuctionResult: 'AuctionResult',
  AuctionDetails: 'AuctionDetails',
  MarginWatchResult: 'MarginWatchResult',
  LegUnpricedParams: 'LegUnpricedParams',
  PricedLegParamsAndResponse: 'PricedLegParamsAndResponse',
  RFQResultPublic: 'PublicRfq',
  QuoteResultPublic: 'PublicQuote',
  QuotePublishResult: 'QuotePublishResult',
  BestQuoteChannelResult: 'BestQuoteChannelResult',
  RfqGetBestQuoteWireResponse: 'RfqGetBestQuoteResponse',
  DailyTradingStatistics: 'DailyTradingStatistics',
  OptionPricing: 'OptionPricing',
  TickerSlimPayload: 'TickerSlimPayload',
  SpotFeedPayload: 'SpotFeedPayload',
  SpotFeedEntry: 'SpotFeedEntry',
  RPCError: 'RPCError',
  PaginationInfo: 'Pagination',
  OrderbookSnapshot: 'OrderbookPayload',
  SubscribeParams: 'SubscribeParams',
  UnsubscribeParams: 'UnsubscribeParams',
  FundingRateHistoryResult: 'FundingRateHistoryResult',
  FundingRateCandle: 'FundingRateEntry',
  TickerSlimSnapshot: 'Ticker',
  RateLimitResult: 'RateLimitsResult',
  RateLimitInfo: 'RateLimitBudget',
  GetAllInstrumentsResponse: 'GetAllInstrumentsResult',
  PublicTradesResult: 'PublicTradeHistoryResult',
  PaginatedTradesResult: 'PrivateTradeHistoryResult',
  AggregatedOrdersResult: 'OpenOrdersResult',
  PaginatedOrdersResult: 'OrdersResult',
  OrderCreatedWireResponse: 'AssumedOrderResult',
  ReplaceOrderWireResponse: 'AssumedReplaceResult',
  PrivateGetSubaccountsRPCResponse: 'GetSubaccountsResult',
};

/** The spec's name of a derive-ts record that the spec does not have yet: the transport suffixes dropped. */
export function newRecordName(derive: string): string {
  const special: Record<string, string> = {
    SignedActionDebugEdgeRpcResponseFor_OrderActionDataEdgeRpcResponse: 'OrderDebugResult',
    ActionInputDataEdgeRpcResponseFor_OrderActionDataEdgeRpcResponse: 'OrderDebugActionInput',
    PaginationInfo2: 'VaultPagination',
  };
  if (special[derive]) return special[derive];
  return derive
    .replace(/EdgeRpcParams$/, 'Params')
    .replace(/EdgeRpcResponse$/, 'Result')
    .replace(/EdgeRPCResponse$/, 'Result')
    .replace(/RPCResponse$/, 'Result')
    .replace(/EdgeResponse$/, '')
    .replace(/WireResponse$/, '')
    .replace(/^(Private|Public)(?=[A-Z])/, '');
}

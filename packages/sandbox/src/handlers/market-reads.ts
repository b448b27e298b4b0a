/**
 * The public market-data reads (issue 31, item 6) over market-data.ts, and the referral reads: the
 * sandbox runs no referral programme, so it lists no codes and every referral's performance is zero.
 */
import type { HandlerParts } from '../handler-parts';
import type { Handler } from '../pipeline';

type Window = { start_timestamp: number; end_timestamp: number; period: number };
type RatesQuery = {
  currency: string;
  risk_universe_id?: number | null;
  start_timestamp?: number | null;
  end_timestamp?: number | null;
  period?: number | null;
};
type ReferralQuery = { start_ms: number; end_ms: number; referral_code?: string | null; wallet?: string | null };

/** The market-data and referral reads, keyed by method name. */
export function marketDataHandlers({ market, clock }: HandlerParts): Record<string, Handler> {
  const data = market.marketData;
  return {
    'public/get_tickers': (
      _ctx,
      p: { instrument_type: string; currency?: string | null; expiry_date?: number | null },
    ) => ({
      tickers: data.tickers(p.instrument_type, p.currency, p.expiry_date),
    }),
    'public/get_currency': (_ctx, p: { currency: string }) => data.currency(p.currency),
    'public/get_assets': (_ctx, p: { asset_type: string; currency: string; expired: boolean }) =>
      data.assets(p.asset_type, p.currency, p.expired),
    'public/get_risk_universes': () => data.riskUniverses(),
    'public/get_option_settlement_prices': (_ctx, p: { currency: string }) => ({
      expiries: data.settlementPrices(p.currency),
    }),
    'public/get_tradingview_chart_data': (_ctx, p: Window & { instrument_name: string }) =>
      data.tradeCandles(p.instrument_name, p.start_timestamp, p.end_timestamp, p.period),
    'public/get_index_chart_data': (_ctx, p: Window & { currency: string }) =>
      data.indexCandles(p.currency, p.start_timestamp, p.end_timestamp, p.period),
    'public/get_interest_rate_history': (_ctx, p: RatesQuery) => ({
      interest_rate_history: data.interestRates(p.currency, p.risk_universe_id, {
        start: p.start_timestamp,
        end: p.end_timestamp,
        period: p.period,
      }),
    }),
    'public/get_latest_signed_feeds': (_ctx, p: { currency?: string | null; expiry?: number | null } | null) =>
      market.signedFeeds.latest(clock.now(), p?.currency),
    'public/get_all_referral_codes': () => [],
    'public/get_referral_performance': (_ctx, p: ReferralQuery) => ({
      referral_code: p.referral_code ?? '',
      fee_share_percentage: '0',
      stdrv_balance: '0',
      total_builder_fee_collected: '0',
      total_fee_rewards: '0',
      total_notional_volume: '0',
      total_referred_fees: '0',
      rewards: {},
    }),
  };
}

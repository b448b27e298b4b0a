/**
 * The reads the public clients call beyond the document (x-source: clients; the client-markets,
 * client-ticker, client-history and client-account assumptions), from the market's instruments, books,
 * fills, ledger, rates and the movable clock. A private read answers for the caller's own subaccounts
 * and wallet only.
 */
import { normalizeAddress } from '@exchange-api/auth';
import type { Session } from './accounts';
import type { HandlerParts } from './handler-parts';
import { pageOf } from './market/history';
import type { CallContext, Handler } from './pipeline';
import { RpcFailure } from './rpc';

/** A page holds this many records unless page_size asks for another number, and never more than the most. */
const DEFAULT_PAGE = 100;
const MOST_PER_PAGE = 1000;

/** The caller's subaccount, or 14003 naming it and the caller's. */
export function ownSubaccount(ctx: CallContext, id: number): number {
  const subs = ctx.session!.subaccounts;
  if (!subs.includes(id))
    throw RpcFailure.of('AUTH_ACCESS_DENIED', `subaccount ${id} is not one of the caller's (${subs.join(', ')})`);
  return id;
}

/** The caller's session when `wallet` is its wallet, or 14003. */
export function ownWallet(ctx: CallContext, wallet: string): Session {
  const s = ctx.session!;
  if (normalizeAddress(wallet) !== s.wallet)
    throw RpcFailure.of('AUTH_ACCESS_DENIED', `wallet ${wallet} is not the logged-in wallet ${s.wallet}`);
  return s;
}

const sizeOf = (pageSize: number | null | undefined, all = DEFAULT_PAGE) => Math.min(pageSize ?? all, MOST_PER_PAGE);

/** Within [from, to] (milliseconds, either end optional). */
const within = (t: number, from?: number | null, to?: number | null) =>
  (from == null || t >= from) && (to == null || t <= to);

type Paging = { page?: number | null; page_size?: number | null };
type Window = { from_timestamp?: number | null; to_timestamp?: number | null };
type InstrumentsQuery = Paging & { instrument_type: string; currency?: string | null; expired?: boolean | null };
type PublicTradesQuery = Paging &
  Window & { instrument_name?: string | null; instrument_type?: string | null; currency?: string | null };
type OwnTradesQuery = Paging &
  Window & { subaccount_id?: number | null; instrument_name?: string | null; order_id?: string | null };
type OrdersQuery = Paging & {
  subaccount_id: number;
  instrument_name?: string | null;
  status?: string | null;
  label?: string | null;
};
type FundingQuery = {
  instrument_name: string;
  start_timestamp?: number | null;
  end_timestamp?: number | null;
  to_timestamp?: number | null;
};

/** The market and account reads, keyed by method name. */
export function readHandlers(parts: HandlerParts): Record<string, Handler> {
  return { ...marketReads(parts), ...accountReads(parts) };
}

/** The public reads: listings, ticker, funding, the public tape, the clock. */
function marketReads({ market, clock }: HandlerParts): Record<string, Handler> {
  const { catalog, history } = market;
  return {
    'public/get_time': () => clock.now(),
    'public/get_all_currencies': () => market.marketData.currencies(),
    'public/get_instrument': (_ctx, p: { instrument_name: string }) => catalog.instrument(p.instrument_name),
    'public/get_ticker': (_ctx, p: { instrument_name: string }) => catalog.ticker(p.instrument_name),
    // Every instrument of the type on page 1 unless a page size is asked for: ccxt reads page 1 only.
    'public/get_all_instruments': (_ctx, p: InstrumentsQuery) => {
      const list = catalog.list(p.instrument_type, p.currency, p.expired);
      const { items, pagination } = pageOf(list, p.page, sizeOf(p.page_size, Math.max(1, list.length)));
      return { instruments: items, pagination };
    },
    'public/get_funding_rate_history': (_ctx, p: FundingQuery) => ({
      funding_rate_history: catalog.funding(p.instrument_name, p.start_timestamp, p.end_timestamp ?? p.to_timestamp),
    }),
    'public/get_trade_history': (_ctx, p: PublicTradesQuery) => {
      const all = history
        .publicTrades()
        .filter(
          (t) =>
            (p.instrument_name == null || t.instrument_name === p.instrument_name) &&
            (p.currency == null || market.instruments.get(t.instrument_name)?.cfg.base_currency === p.currency) &&
            (p.instrument_type == null || market.typeOf(t.instrument_name) === p.instrument_type) &&
            within(t.timestamp, p.from_timestamp, p.to_timestamp),
        );
      const { items, pagination } = pageOf(all, p.page, sizeOf(p.page_size));
      return { trades: items, pagination };
    },
  };
}

/** The private reads, for the caller's own wallet and subaccounts: portfolios, orders, own fills. */
function accountReads({ market }: HandlerParts): Record<string, Handler> {
  const { portfolios, history } = market;
  return {
    'private/get_all_portfolios': (ctx, p: { wallet: string }) =>
      ownWallet(ctx, p.wallet).subaccounts.map((s) => portfolios.of(s)),
    'private/get_subaccount': (ctx, p: { subaccount_id: number }) => portfolios.of(ownSubaccount(ctx, p.subaccount_id)),
    'private/get_open_orders': (ctx, p: { subaccount_id: number }) => ({
      subaccount_id: p.subaccount_id,
      orders: portfolios.openOrders(ownSubaccount(ctx, p.subaccount_id)),
    }),
    'private/get_orders': (ctx, p: OrdersQuery) => {
      const all = history
        .ordersOf(ownSubaccount(ctx, p.subaccount_id))
        .filter(
          (o) =>
            (p.instrument_name == null || o.instrument_name === p.instrument_name) &&
            (p.status == null || o.order_status === p.status) &&
            (p.label == null || (o.label ?? '') === p.label),
        );
      const { items, pagination } = pageOf(all, p.page, sizeOf(p.page_size));
      return { subaccount_id: p.subaccount_id, orders: items, pagination };
    },
    'private/get_trade_history': (ctx, p: OwnTradesQuery) => {
      const subs = p.subaccount_id == null ? ctx.session!.subaccounts : [ownSubaccount(ctx, p.subaccount_id)];
      const all = history
        .tradesOf(subs)
        .filter(
          (t) =>
            (p.instrument_name == null || t.instrument_name === p.instrument_name) &&
            (p.order_id == null || t.order_id === p.order_id) &&
            within(t.timestamp, p.from_timestamp, p.to_timestamp),
        );
      const { items, pagination } = pageOf(all, p.page, sizeOf(p.page_size));
      return { subaccount_id: p.subaccount_id ?? null, trades: items, pagination };
    },
  };
}

/**
 * The position and money reads (issue 31, item 1): positions and collaterals from the same portfolio
 * as get_subaccount, one order by id, the order history, and the money histories (funding, interest,
 * deposits, withdrawals, option settlements) from what the market booked. A read without a subaccount
 * answers for the wallet's subaccounts (the caller's own only); with neither, the caller's.
 */
import type { Order } from '@exchange-api/types';
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount, ownWallet } from '../handlers-reads';
import { pageOf } from '../market/history';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure } from '../rpc';

const DEFAULT_PAGE = 100;
const MOST_PER_PAGE = 1000;

type Scope = { subaccount_id?: number | null; wallet?: string | null };
type Span = Scope & { start_timestamp?: number | null; end_timestamp?: number | null };
type OrderHistoryQuery = Scope & {
  from_timestamp?: number | null;
  to_timestamp?: number | null;
  page?: number | null;
  page_size?: number | null;
};
type FundingQuery = Span & { instrument_name?: string | null; page?: number | null; page_size?: number | null };

/** The subaccounts a scoped read covers: the one named, else the wallet's, else the caller's; all the caller's own. */
export function scopeOf(ctx: CallContext, p: Scope): number[] {
  if (p.subaccount_id != null) return [ownSubaccount(ctx, p.subaccount_id)];
  if (p.wallet != null) return [...ownWallet(ctx, p.wallet).subaccounts];
  return [...ctx.session!.subaccounts];
}

const sizeOf = (n: number | null | undefined) => Math.min(n ?? DEFAULT_PAGE, MOST_PER_PAGE);

/** The position, order and money reads, keyed by method name. */
export function positionHandlers({ market }: HandlerParts): Record<string, Handler> {
  const { portfolios, history, money } = market;
  return {
    'private/get_positions': (ctx, p: { subaccount_id: number }) => ({
      subaccount_id: p.subaccount_id,
      positions: portfolios.of(ownSubaccount(ctx, p.subaccount_id)).positions,
    }),
    'private/get_collaterals': (ctx, p: { subaccount_id: number }) => ({
      subaccount_id: p.subaccount_id,
      collaterals: portfolios.of(ownSubaccount(ctx, p.subaccount_id)).collaterals,
    }),
    'private/get_order': (ctx, p: { subaccount_id: number; order_id: string }): Order => {
      const found = history.ordersOf(ownSubaccount(ctx, p.subaccount_id)).find((o) => o.order_id === p.order_id);
      if (!found) throw RpcFailure.of('RPC_ORDER_NOT_FOUND', `no order ${p.order_id} of subaccount ${p.subaccount_id}`);
      return found;
    },
    // The schema gives one subaccount_id: a wallet-wide answer names the first of the wallet's.
    'private/get_order_history': (ctx, p: OrderHistoryQuery) => {
      const subs = scopeOf(ctx, p);
      const all = subs
        .flatMap((s) => history.ordersOf(s))
        .filter(
          (o) =>
            (p.from_timestamp == null || o.last_update_timestamp >= p.from_timestamp) &&
            (p.to_timestamp == null || o.last_update_timestamp <= p.to_timestamp),
        )
        .sort((a, b) => b.last_update_timestamp - a.last_update_timestamp);
      const { items, pagination } = pageOf(all, p.page, sizeOf(p.page_size));
      return { subaccount_id: subs[0] ?? 0, orders: items, pagination };
    },
    'private/get_funding_history': (ctx, p: FundingQuery) => {
      const all = money
        .of('funding', scopeOf(ctx, p), (e) => e.timestamp, p.start_timestamp, p.end_timestamp)
        .filter((e) => p.instrument_name == null || e.instrument_name === p.instrument_name);
      const { items, pagination } = pageOf(all, p.page, sizeOf(p.page_size));
      return { events: items, pagination };
    },
    'private/get_interest_history': (ctx, p: Span) => ({
      events: money.of('interest', scopeOf(ctx, p), (e) => e.timestamp, p.start_timestamp, p.end_timestamp),
    }),
    'private/get_option_settlement_history': (ctx, p: Scope) => ({
      settlements: money.of('optionSettlements', scopeOf(ctx, p), (e) => e.expiry),
    }),
  };
}

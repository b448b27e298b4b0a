/**
 * Margin and liquidation (issue 31, item 2): get_margin (a subaccount's margins, and the public
 * simulation of a described portfolio; market/margin-simulation.ts), public/start_auction and
 * private/liquidate on the auctions of market/liquidation.ts, and the liquidation history read.
 *
 * private/liquidate is signed by a module whose data no client shows (spec: privateLiquidate), so its
 * signature cannot be recovered here. What can be checked is: its signer may act for the subaccount
 * (the wallet, or a session key of it with the trade scope), the signature has not expired, and its
 * nonce was not used; the login authorises the bid. docs/sandbox.md says so.
 */
import { canonicalNonce, normalizeAddress } from '@exchange-api/auth';
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount } from '../handlers-reads';
import type { CollateralChange, PositionChange } from '../market/margin-simulation';
import type { Auction } from '../market/liquidation';
import { pageOf } from '../market/history';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure } from '../rpc';
import { scopeOf } from './positions';

type LiquidateParams = {
  subaccount_id: number;
  liquidated_account_id: number;
  percent_of_acc: string | number;
  price_limit: string | number;
  cash_transfer: string | number;
  merge_account: boolean;
  last_seen_trade_id: number;
  nonce: number;
  signer: string;
  signature: string;
  signature_expiry_sec: number;
};

type Changes = {
  simulated_position_changes?: PositionChange[] | null;
  simulated_collateral_changes?: CollateralChange[] | null;
};

type PublicMarginParams = Changes & {
  margin_type: string;
  market?: string | null;
  simulated_positions: PositionChange[];
  simulated_collaterals: CollateralChange[];
};

type Window = {
  start_timestamp?: number | null;
  end_timestamp?: number | null;
  page?: number | null;
  page_size?: number | null;
};
const within = (t: number, w: Window) =>
  (w.start_timestamp == null || t >= w.start_timestamp) && (w.end_timestamp == null || t <= w.end_timestamp);

/** A page's size: 100 unless asked, from 1 to 1000 (a page of none would count no pages). */
const pageSize = (w: Window) => Math.max(1, Math.min(w.page_size ?? 100, 1000));

/** An auction as the history reads show it: its bids without the sandbox's note of their bidder. */
const shown = (a: Auction) => ({ ...a, bids: a.bids.map(({ liquidator_subaccount_id: _l, ...bid }) => bid) });

const rejected = (data: string) => RpcFailure.of('RPC_ORDER_REJECTED', data);
const noManager = (data: string) => RpcFailure.of('RPC_MANAGER_NOT_FOUND', data);

/** The checks a liquidation bid's signature can have (see the file's comment); spends its nonce. */
async function checkBidSigner(parts: HandlerParts, ctx: CallContext, p: LiquidateParams): Promise<void> {
  const denied = (data: string) => RpcFailure.of('AUTH_INVALID_ACTION_SIGNATURE', data);
  const session = ctx.session!;
  ownSubaccount(ctx, p.subaccount_id);
  // The bid's signature cannot be checked (above): the login must be one that may trade.
  if (!parts.accounts.allows(session, 'trade'))
    throw RpcFailure.of('AUTH_ACCESS_DENIED', `session key ${session.signer} lacks the trade scope`);
  const now = parts.clock.now();
  if (p.signature_expiry_sec * 1000 <= now)
    throw denied(`signature_expiry_sec ${p.signature_expiry_sec} has passed (server time ${Math.floor(now / 1000)} s)`);
  const signer = normalizeAddress(p.signer);
  if (!signer) throw RpcFailure.of('INVALID_ADDRESS', `/signer: not an address (got ${String(p.signer).slice(0, 60)})`);
  const refusal = parts.accounts.signerDenial(session.wallet, signer, { subaccount: p.subaccount_id, ip: ctx.ip });
  if (refusal) throw denied(refusal);
  const nonce = canonicalNonce(p.nonce);
  if (!(await parts.actions.nonces.claim(signer, nonce, p.signature_expiry_sec * 1000)))
    throw denied(`nonce ${nonce} was already used by ${signer}`);
}

/** The margin and liquidation methods, keyed by method name. */
export function marginHandlers(parts: HandlerParts): Record<string, Handler> {
  return { ...marginReads(parts), ...liquidationHandlers(parts) };
}

/** get_margin, private and public. */
function marginReads(parts: HandlerParts): Record<string, Handler> {
  const { market } = parts;
  return {
    'private/get_margin': (ctx, p: Changes & { subaccount_id: number }) => ({
      subaccount_id: p.subaccount_id,
      ...market.risk.marginSimulation.ofSubaccount(
        ownSubaccount(ctx, p.subaccount_id),
        p.simulated_position_changes ?? [],
        p.simulated_collateral_changes ?? [],
      ),
    }),
    'public/get_margin': (_ctx, p: PublicMarginParams) => {
      if (p.margin_type !== 'SM')
        throw noManager(
          `/margin_type: the sandbox has no portfolio-margin manager, standard margin (SM) only (got ${p.margin_type})`,
        );
      if (p.market != null) throw noManager('/market: names a portfolio-margin market; the sandbox has none');
      return market.risk.marginSimulation.ofPortfolio(
        { positions: p.simulated_positions, collaterals: p.simulated_collaterals },
        { positions: p.simulated_position_changes ?? [], collaterals: p.simulated_collateral_changes ?? [] },
      );
    },
  };
}

/** The auction methods and the liquidation histories. */
function liquidationHandlers(parts: HandlerParts): Record<string, Handler> {
  const { market } = parts;
  return {
    'public/start_auction': (_ctx, p: { subaccount_id: number }) =>
      market.risk.liquidation.startAuction(p.subaccount_id),
    'private/liquidate': async (ctx, p: LiquidateParams) => {
      if (!p.merge_account)
        throw rejected(
          '/merge_account: false asks for a new subaccount to take the share, which the sandbox does not ' +
            'model; send true to take it into subaccount_id',
        );
      if (Number(p.cash_transfer) !== 0)
        throw rejected(
          `/cash_transfer: moves cash into the new subaccount of merge_account false; with true it must be 0 ` +
            `(got ${p.cash_transfer})`,
        );
      await checkBidSigner(parts, ctx, p);
      return market.risk.bid(p);
    },
    'private/get_liquidator_history': (ctx, p: Window & { subaccount_id: number }) => {
      const bids = market.risk.liquidation
        .bidsBy([ownSubaccount(ctx, p.subaccount_id)])
        .filter((b) => within(b.timestamp, p))
        .map(({ liquidator_subaccount_id: _l, ...bid }) => bid);
      const { items, pagination } = pageOf(bids, p.page, pageSize(p));
      return { bids: items, pagination };
    },
    'public/get_liquidation_history': (_ctx, p: Window & { subaccount_id?: number | null }) => {
      const auctions = market.risk.liquidation
        .historyOf(p.subaccount_id == null ? null : [p.subaccount_id], p.start_timestamp, p.end_timestamp)
        .map(shown);
      const { items, pagination } = pageOf(auctions, p.page, pageSize(p));
      return { auctions: items, pagination };
    },
    'private/get_liquidation_history': (
      ctx,
      p: {
        subaccount_id?: number | null;
        wallet?: string | null;
        start_timestamp?: number | null;
        end_timestamp?: number | null;
      },
    ) =>
      market.risk.liquidation.historyOf(scopeOf(ctx, p), p.start_timestamp, p.end_timestamp).map((a) => ({
        ...a,
        bids: a.bids.map(({ liquidator_subaccount_id: _l, ...bid }) => bid),
      })),
  };
}

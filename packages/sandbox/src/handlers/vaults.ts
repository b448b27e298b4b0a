/**
 * The vault methods (issue 31, item 6) over market/vaults.ts: the public reads, a wallet's shares,
 * vaults and requests (its own wallet only), and the shareholder's signed requests, whose vault-module
 * action signature is verified here (the pipeline verifies only the order flow's) and whose nonce is
 * spent; and the curator's: a vault created from the signer's subaccount, its metadata, and minting or
 * burning one live request at a price within the vault's slippage (the seeded vaults' curators are
 * simulated and settle on their own), rejecting a live deposit, and force-burning a holder's shares.
 */
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount, ownWallet } from '../handlers-reads';
import { pageOf } from '../market/history';
import type { CallContext, Handler } from '../pipeline';
import type { VaultRequestId } from '@exchange-api/types';
import type { CreateParams, SettleParams, UpdateParams } from '../market/vaults';

type Paging = { page?: number | null; page_size?: number | null };
type Signed = {
  subaccount_id: number;
  vault_subaccount_id: number;
  nonce: number;
  signer: string;
  signature: string;
  signature_expiry_sec: number;
};
type Performance = {
  subaccount_id: number;
  resolution: string;
  from?: number | null;
  to?: number | null;
  limit?: number | null;
};

const sizeOf = (n: number | null | undefined, all: number) => Math.min(n ?? Math.max(1, all), 1000);

/** Verifies a signed vault action (the pipeline verifies only the order flow's); the signing wallet. */
const signerOf =
  ({ actions }: HandlerParts) =>
  async (ctx: CallContext, method: string, p: Omit<Signed, 'vault_subaccount_id'>) => {
    await actions.verify(ctx.session!, method, p, ctx.ip);
    return ctx.session!.wallet;
  };

/** The public reads: vaults, a vault, its action and performance histories. */
function publicVaultReads({ market }: HandlerParts): Record<string, Handler> {
  const { vaults } = market;
  return {
    'public/get_vaults': (_ctx, p: Paging | null) => {
      const all = vaults.list();
      const { items, pagination } = pageOf(all, p?.page, sizeOf(p?.page_size, all.length));
      return { vaults: items, pagination };
    },
    'public/get_vault': (_ctx, p: { subaccount_id: number }) => vaults.one(p.subaccount_id),
    'public/get_vault_action_history': (_ctx, p: Paging & { subaccount_id: number; event_type?: string | null }) => {
      const all = vaults.events(p.subaccount_id, p.event_type);
      const { items, pagination } = pageOf(all, p.page, sizeOf(p.page_size, 100));
      return { subaccount_id: p.subaccount_id, events: items, pagination };
    },
    'public/get_vault_performance_history': (_ctx, p: Performance) => ({
      subaccount_id: p.subaccount_id,
      resolution: p.resolution,
      points: vaults.performance(p.subaccount_id, p.from, p.to, p.limit),
    }),
  };
}

/** A wallet's own reads: its shares, curated vaults, live requests and request history. */
function walletVaultReads({ market }: HandlerParts): Record<string, Handler> {
  const { vaults } = market;
  return {
    'private/get_vault_shares': (ctx, p: { wallet: string }) => ({
      vaults: vaults.sharesOf(ownWallet(ctx, p.wallet).wallet),
    }),
    'private/get_shareholder_vaults': (ctx, p: { wallet: string }) => ({
      subaccount_ids: vaults.sharesOf(ownWallet(ctx, p.wallet).wallet).map((e) => e.vault.protocol.subaccount_id),
    }),
    'private/get_curated_vaults': (ctx, p: { wallet: string }) => ({
      subaccount_ids: vaults.curatedBy(ownWallet(ctx, p.wallet).wallet),
    }),
    'private/get_live_vault_requests': (ctx, p: { wallet: string }) =>
      vaults.liveOf({ wallet: ownWallet(ctx, p.wallet).wallet }),
    // A vault's curator reads every live request on it; anyone else, its own.
    'private/get_live_mint_requests': (ctx, p: { subaccount_id: number; limit: number }) =>
      vaults.liveOf(
        { vault: p.subaccount_id, kind: 'deposit', wallet: ctx.session!.wallet, reader: ctx.session!.wallet },
        p.limit,
      ),
    'private/get_live_burn_requests': (ctx, p: { subaccount_id: number; limit: number }) =>
      vaults.liveOf(
        { vault: p.subaccount_id, kind: 'withdraw', wallet: ctx.session!.wallet, reader: ctx.session!.wallet },
        p.limit,
      ),
    'private/get_vault_request_history': (ctx, p: Paging & { wallet: string }) => {
      const wallet = ownWallet(ctx, p.wallet).wallet;
      const { items, pagination } = pageOf(vaults.historyOf(wallet), p.page, sizeOf(p.page_size, 100));
      return { wallet, actions: items, pagination };
    },
  };
}

/** The shareholder's signed requests: deposit, withdraw, cancel all. */
function shareholderRequests(parts: HandlerParts): Record<string, Handler> {
  const { vaults } = parts.market;
  const signed = signerOf(parts);
  return {
    'private/request_vault_deposit': async (ctx, p: Signed & { amount: string; deposit_spot_asset: string }) =>
      vaults.request(
        'private/request_vault_deposit',
        'deposit',
        await signed(ctx, 'private/request_vault_deposit', p),
        p,
      ),
    'private/request_vault_withdraw': async (ctx, p: Signed & { shares_to_burn: string }) =>
      vaults.request(
        'private/request_vault_withdraw',
        'withdraw',
        await signed(ctx, 'private/request_vault_withdraw', p),
        p,
      ),
    'private/cancel_all_vault_requests': async (ctx, p: Signed) =>
      vaults.cancelAll(
        await signed(ctx, 'private/cancel_all_vault_requests', {
          ...p,
          subaccount_id: ownSubaccount(ctx, p.subaccount_id),
        }),
        p.subaccount_id,
        p.vault_subaccount_id,
      ),
  };
}

/** The curator's: create a vault, edit it, mint or burn a request, reject a deposit, force-burn shares. */
function curatorActions(parts: HandlerParts): Record<string, Handler> {
  const { market } = parts;
  const { vaults } = market;
  const signed = signerOf(parts);
  const managers = () => market.marketData.riskUniverses().flatMap((u) => u.managers.map((m) => m.manager_id));
  return {
    'private/create_vault': async (ctx, p: Signed & CreateParams) => {
      const { vault, ...op } = vaults.create(await signed(ctx, 'private/create_vault', p), p, managers());
      // The new vault is the curator's subaccount from now on, in this login too.
      if (!ctx.session!.subaccounts.includes(vault)) ctx.session!.subaccounts.push(vault);
      return op;
    },
    'private/update_vault_info': (ctx, p: UpdateParams) => vaults.update(ctx.session!.wallet, p),
    'private/mint_vault_shares': async (ctx, p: Signed & SettleParams) =>
      vaults.settleBy(await signed(ctx, 'private/mint_vault_shares', p), 'deposit', p),
    'private/reject_deposit_request': (ctx, p: { request_id: VaultRequestId; reason?: string | null }) =>
      vaults.rejectDeposit(ctx.session!.wallet, p),
    'private/force_burn': (ctx, p: { subaccount_id: number; holder: string }) =>
      vaults.forceBurn(ctx.session!.wallet, p),
    'private/burn_vault_shares': async (ctx, p: Signed & SettleParams) =>
      vaults.settleBy(await signed(ctx, 'private/burn_vault_shares', p), 'withdraw', p),
  };
}

/** The vault methods, keyed by method name. */
export function vaultHandlers(parts: HandlerParts): Record<string, Handler> {
  return {
    ...publicVaultReads(parts),
    ...walletVaultReads(parts),
    ...shareholderRequests(parts),
    ...curatorActions(parts),
  };
}

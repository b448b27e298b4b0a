/**
 * The account record and the chain-facing reads (issue 31, item 3): private/get_account from the
 * configuration and the account's state; deposit addresses and the deposits waiting for confirmation
 * (market/deposit-desk.ts); one operation by its uuid and a wallet's on-chain actions, from the
 * deposits, withdrawals and transfers the sandbox booked (market/funds.ts). Every booked operation is
 * settled at once, so its status is `Settled` and its on-chain action `settled`. The action types are
 * the sandbox's numbering (0 deposit, 1 withdrawal, 2 transfer): the venue's are not shown.
 */
import { normalizeAddress } from '@exchange-api/auth';
import type { GetTransactionResult, OnchainActionHistoryEntry } from '@exchange-api/types';
import type { HandlerParts } from '../handler-parts';
import type { Funds } from '../market/funds';
import { ownWallet } from '../handlers-reads';
import { pageOf } from '../market/history';
import { MAKER_FEE_BPS, TAKER_FEE_BPS } from '../market/rates';
import type { Handler } from '../pipeline';
import { RpcFailure } from '../rpc';

const ACTION_TYPES = { deposit: 0, withdrawal: 1, transfer: 2 } as const;
const feeText = (bps: number) => String(bps / 10_000);

/** A wallet param as its checksummed address, or -32602 naming it. */
function walletParam(wallet: string): string {
  const w = normalizeAddress(wallet);
  if (!w) throw RpcFailure.of('INVALID_ADDRESS', `/wallet: not an address (got ${wallet.slice(0, 60)})`);
  return w;
}

type OnchainQuery = {
  wallet?: string | null;
  action_type?: number | null;
  start_timestamp?: number | null;
  end_timestamp?: number | null;
  page?: number | null;
  page_size?: number | null;
};

/** The deposits, withdrawals and transfers booked (of a wallet), newest first, as on-chain actions. */
function onchainActions(funds: Funds, wallet: string | null): OnchainActionHistoryEntry[] {
  // Numbered over everything booked, so an action keeps its id whoever asks.
  const all = funds.booked().map(({ kind, entry }, i) => ({
    wallets: entry.wallets,
    action: {
      acc: entry.wallets[0]!,
      action_id: i + 1,
      action_type: ACTION_TYPES[kind],
      action_type_label: kind,
      block_number: Math.floor(entry.timestamp / 2000),
      data: JSON.stringify({ ...entry, wallets: undefined }),
      l1_sender: entry.wallets[0]!,
      op_uuid: entry.batch_uuid,
      queue: 'sandbox',
      status: 'settled',
      tx_hash: entry.tx_hash ?? null,
      updated_at: entry.timestamp,
    },
  }));
  return all
    .filter((a) => wallet === null || a.wallets.includes(wallet))
    .map((a) => a.action)
    .reverse();
}

/** private/get_account: the wallet's subaccounts, fees, configured rates and settings. */
function accountRecord({ accounts, limits, market }: HandlerParts, wallet: string) {
  return {
    cancel_on_disconnect: accounts.cancelsOnDisconnect(wallet),
    creation_timestamp_sec: null,
    fallback_subaccount_id: accounts.subaccountsOf(wallet)[0] ?? 0,
    fee_info: {
      base_fee_discount: '0',
      rfq_maker_discount: '0',
      rfq_taker_discount: '0',
      ...Object.fromEntries(
        ['option', 'perp', 'spot'].flatMap((k) => [
          [`${k}_maker_fee`, feeText(MAKER_FEE_BPS)],
          [`${k}_taker_fee`, feeText(TAKER_FEE_BPS)],
        ]),
      ),
    },
    is_rfq_maker: false,
    per_endpoint_tps: {},
    referral_code: null,
    subaccount_ids: accounts.subaccountsOf(wallet),
    wallet,
    websocket_matching_tps: limits.tps('matching'),
    websocket_non_matching_tps: limits.tps('non_matching'),
    websocket_option_tps: limits.refill('option'),
    websocket_perp_tps: limits.refill('perp'),
    whitelisted_recipients: market.funds.whitelistOf(wallet),
  };
}

/** private/get_account, the deposit desk and the on-chain reads. */
export function accountChainHandlers(parts: HandlerParts): Record<string, Handler> {
  const { funds } = parts.market;
  const { deposits } = parts.market.risk;
  return {
    'private/get_account': (ctx, p: { wallet: string }) => accountRecord(parts, ownWallet(ctx, p.wallet).wallet),
    'public/register_deposit_address': (
      _ctx,
      p: {
        wallet: string;
        deposit_type: 'standard' | 'instant' | 'direct';
        subaccount_id?: number;
        manager_id?: number;
      },
    ) => {
      if (p.manager_id != null && p.manager_id !== 1)
        throw RpcFailure.of(
          'RPC_MANAGER_NOT_FOUND',
          `/manager_id: the sandbox has one manager, 1 (got ${p.manager_id})`,
        );
      return deposits.register(walletParam(p.wallet), p.deposit_type, p.subaccount_id);
    },
    'public/get_pending_deposits': (_ctx, p: { wallet: string }) => {
      const wallet = walletParam(p.wallet);
      return { wallet, pending_deposits: deposits.pendingOf(wallet) };
    },
    'public/get_transaction': (_ctx, p: { op_uuid: string }): GetTransactionResult => {
      const found = funds.booked().find(({ entry }) => entry.batch_uuid === p.op_uuid);
      // Unknown here: no status and no hash, and the log says so (the result's own field for what went wrong).
      if (!found)
        return { data: '', error_log: `no operation ${p.op_uuid.slice(0, 80)} was booked here`, status: null };
      const { wallets: _w, ...data } = found.entry;
      return {
        data: JSON.stringify(data),
        error_log: null,
        status: 'Settled',
        transaction_hash: found.entry.tx_hash ?? null,
      };
    },
    'public/get_onchain_action_history': (_ctx, p: OnchainQuery) => {
      const all = onchainActions(funds, p.wallet == null ? null : walletParam(p.wallet)).filter(
        (a) =>
          (p.action_type == null || a.action_type === p.action_type) &&
          (p.start_timestamp == null || a.updated_at >= p.start_timestamp) &&
          (p.end_timestamp == null || a.updated_at <= p.end_timestamp),
      );
      const { items, pagination } = pageOf(all, p.page, Math.min(p.page_size ?? 100, 1000));
      return { actions: items, pagination };
    },
  };
}

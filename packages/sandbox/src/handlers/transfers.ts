/**
 * Money through the API (market/funds.ts does the moving): spot transfers between own subaccounts
 * (to subaccount 0: a new one), signed withdrawals, subaccount labels, and the deposit, withdrawal and
 * transfer histories. A transfer needs the transfer scope of the key that signs it, a withdrawal the
 * withdraw scope (accounts.ts); the signatures are the transfer and withdrawal modules' (auth).
 */
import { normalizeAddress } from '@exchange-api/auth';
import { parseFixed } from '../fixed';
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount, ownWallet } from '../handlers-reads';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure } from '../rpc';

type Signed = { subaccount_id: number; nonce: number; signer: string; signature: string; signature_expiry_sec: number };
type TransferParams = Signed & {
  to_subaccount_id: number;
  asset_name: string;
  amount: string | number;
  sub_id: number;
  new_subaccount_manager: number;
  max_fee_usd: string | number;
};
type WithdrawParams = Signed & {
  asset_name: string;
  amount_in_underlying: string | number;
  max_fee_usd: string | number;
  force_batch: boolean;
  recipient?: string | null;
};
type HistoryQuery = {
  subaccount_id?: number | null;
  wallet?: string | null;
  start_timestamp?: number | null;
  end_timestamp?: number | null;
};

const rejected = (data: string) => RpcFailure.of('RPC_TRANSFER_REJECT', data);

/** A positive decimal amount, or -32602 naming the field. */
function amountOf(field: string, v: string | number): bigint {
  const x = parseFixed(v);
  if (x === null || x <= 0n) throw rejected(`/${field}: must be a decimal above zero (got ${String(v).slice(0, 40)})`);
  return x;
}

/** max_fee_usd: any decimal from zero up is met, as the sandbox charges no fee for moving money. */
function feeCap(v: string | number): void {
  const x = parseFixed(v);
  if (x === null || x < 0n) throw rejected(`/max_fee_usd: must be a decimal from 0 up (got ${String(v).slice(0, 40)})`);
}

/** Spot transfers signed with the transfer scope: between own subaccounts, or to another wallet's. */
function transfers({ market, actions }: HandlerParts): Record<string, Handler> {
  const { funds } = market;
  return {
    'private/transfer_spot': async (ctx, p: TransferParams) => {
      const session = ctx.session!;
      ownSubaccount(ctx, p.subaccount_id);
      const asset = funds.assetOrRefuse(p.asset_name);
      if (p.sub_id !== 0)
        throw RpcFailure.of('RPC_ASSET_NOT_FOUND', `/sub_id: a spot asset has sub id 0 (got ${p.sub_id})`);
      const amount = amountOf('amount', p.amount);
      feeCap(p.max_fee_usd);
      if (p.to_subaccount_id === 0 && p.new_subaccount_manager === 0)
        throw rejected('/new_subaccount_manager: a transfer to subaccount 0 opens one, and needs its manager');
      await actions.verify(session, 'private/transfer_spot', p as never, ctx.ip, { scope: 'transfer', asset });
      const done = funds.transfer(session.wallet, p.subaccount_id, p.to_subaccount_id, p.asset_name, amount);
      // This login may act for the subaccount it opened (another login sees it on its next login).
      if (p.to_subaccount_id === 0 && (session.sessionKey?.subaccounts ?? []).length === 0)
        session.subaccounts.push(done.credited);
      return { op_uuid: done.op_uuid, operation_id: done.operation_id };
    },
    'private/transfer_spot_external': async (ctx, p: TransferParams & { recipient_address: string }) => {
      const session = ctx.session!;
      ownSubaccount(ctx, p.subaccount_id);
      const asset = funds.assetOrRefuse(p.asset_name);
      const amount = amountOf('amount', p.amount);
      feeCap(p.max_fee_usd);
      const recipient = normalizeAddress(p.recipient_address);
      if (!recipient)
        throw RpcFailure.of(
          'INVALID_ADDRESS',
          `/recipient_address: not an address (got ${String(p.recipient_address).slice(0, 60)})`,
        );
      if (p.to_subaccount_id === 0 && p.new_subaccount_manager === 0)
        throw rejected('/new_subaccount_manager: a transfer to subaccount 0 opens one, and needs its manager');
      await actions.verify(session, 'private/transfer_spot_external', p as never, ctx.ip, { scope: 'transfer', asset });
      return funds.transferExternal(
        session.wallet,
        p.subaccount_id,
        recipient,
        p.to_subaccount_id,
        p.asset_name,
        amount,
      );
    },
  };
}

/** Withdrawals signed with the withdraw scope, and the wallet's list of who else a session key may pay. */
function withdrawals({ market, actions }: HandlerParts): Record<string, Handler> {
  const { funds } = market;
  return {
    'private/withdraw': async (ctx, p: WithdrawParams) => {
      const session = ctx.session!;
      ownSubaccount(ctx, p.subaccount_id);
      const asset = funds.assetOrRefuse(p.asset_name);
      const amount = amountOf('amount_in_underlying', p.amount_in_underlying);
      feeCap(p.max_fee_usd);
      const recipient = p.recipient == null ? session.wallet : normalizeAddress(p.recipient);
      if (!recipient)
        throw RpcFailure.of('INVALID_ADDRESS', `/recipient: not an address (got ${String(p.recipient).slice(0, 60)})`);
      await actions.verify(session, 'private/withdraw', p as never, ctx.ip, { scope: 'withdraw', asset });
      // A session key pays the wallet itself, or a wallet the wallet whitelisted.
      const signer = normalizeAddress(p.signer);
      if (signer !== session.wallet && recipient !== session.wallet && !funds.whitelisted(session.wallet, recipient))
        throw rejected(
          `recipient ${recipient} is neither the wallet nor on its whitelisted recipients (a session key signed)`,
        );
      return funds.withdraw(session.wallet, p.subaccount_id, p.asset_name, amount, recipient);
    },
    'private/update_whitelisted_recipients': async (
      ctx,
      p: { wallet: string; add: string[]; remove: string[]; nonce: number; signer: string; signature: string },
    ) => {
      const session = ownWallet(ctx, p.wallet);
      const addresses = (field: 'add' | 'remove') =>
        p[field].map((a, i) => {
          const x = normalizeAddress(a);
          if (!x)
            throw RpcFailure.of('INVALID_ADDRESS', `/${field}/${i}: not an address (got ${String(a).slice(0, 60)})`);
          return x;
        });
      const [add, remove] = [addresses('add'), addresses('remove')];
      // Who may be paid is the wallet's own call: the wallet, or an admin key.
      await actions.verify(session, 'private/update_whitelisted_recipients', p as never, ctx.ip, {
        scope: 'admin',
        walletLevel: true,
      });
      return funds.updateWhitelist(session.wallet, add, remove);
    },
  };
}

/** Subaccount labels and the deposit, withdrawal and transfer histories (unsigned). */
function labelsAndHistories({ market, accounts }: HandlerParts): Record<string, Handler> {
  const { funds } = market;
  /** Whose history: the named subaccount (the caller's), else the wallet's (the caller's). */
  const scopeOf = (ctx: CallContext, p: HistoryQuery) => {
    if (p.wallet != null) ownWallet(ctx, p.wallet);
    return {
      wallet: ctx.session!.wallet,
      sub: p.subaccount_id == null ? null : ownSubaccount(ctx, p.subaccount_id),
    };
  };
  return {
    'private/change_subaccount_label': (ctx, p: { subaccount_id: number; label: string }) => {
      accounts.setLabel(ownSubaccount(ctx, p.subaccount_id), p.label);
      return { subaccount_id: p.subaccount_id, label: p.label };
    },
    'private/get_erc20_transfer_history': (ctx, p: HistoryQuery) => {
      const { wallet, sub } = scopeOf(ctx, p);
      return { transfers: funds.transfersOf(wallet, sub, p.start_timestamp, p.end_timestamp) };
    },
    'private/get_withdrawal_history': (ctx, p: HistoryQuery) => {
      const { wallet, sub } = scopeOf(ctx, p);
      return { withdrawals: funds.withdrawalsOf(wallet, sub, p.start_timestamp, p.end_timestamp) };
    },
    'private/get_deposit_history': (ctx, p: HistoryQuery) => {
      const { wallet, sub } = scopeOf(ctx, p);
      return { deposits: funds.depositsOf(wallet, sub, p.start_timestamp, p.end_timestamp) };
    },
  };
}

/** The transfer and withdrawal handlers, keyed by method name. */
export function transferHandlers(parts: HandlerParts): Record<string, Handler> {
  return { ...transfers(parts), ...withdrawals(parts), ...labelsAndHistories(parts) };
}

/**
 * The signing debug methods (issue 31, item 3): what the server computes from a signed request, to
 * compare with what a client signed. private/order_debug (the trade module, for the logged-in wallet)
 * and the public public/withdraw_debug, public/send_quote_debug and public/execute_quote_debug, which
 * assume no login: the Action's owner is the wallet of the subaccount named (a subaccount the sandbox
 * does not know is refused by name). Each answers the module's encoded data, its hash, the Action's hash
 * and the digest signed, under the first accepted deployment the signature recovers under (else the
 * first with the module); order_debug also the signer recovered. Nothing is placed or spent.
 */
import {
  actionDigest,
  actionHash,
  actionOf,
  ActionDataError,
  defaultActionLayout,
  moduleOfMethod,
  normalizeAddress,
  recoverActionSigner,
  rfqExecuteLegsOf,
  type Action,
  type ActionContext,
  type VerifyingDeployment,
} from '@exchange-api/auth';
import { keccak256, toUtf8Bytes, TypedDataEncoder, AbiCoder } from 'ethers';
import type { HandlerParts } from '../handler-parts';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure } from '../rpc';

type Signed = Record<string, unknown> & {
  subaccount_id: number;
  nonce: string | number;
  signer: string;
  signature?: string;
  signature_expiry_sec: number;
};

const unsignable = (data: string) => RpcFailure.of('AUTH_INVALID_ACTION_SIGNATURE', data);
const noInstrument = (data: string) => RpcFailure.of('RPC_INSTRUMENT_NOT_FOUND', data);
const TYPEHASH = keccak256(
  toUtf8Bytes(TypedDataEncoder.from(defaultActionLayout.types).encodeType(defaultActionLayout.primaryType)),
);

/** The signer a signature recovers to under a deployment, or null when it is malformed. */
function recovered(action: Action, signature: string | undefined, separator: string): string | null {
  if (signature === undefined) return null;
  try {
    return recoverActionSigner(action, signature, separator);
  } catch {
    return null;
  }
}

/** The Action under each accepted deployment with the module; the one the signature recovers under first. */
function debugAction(
  method: string,
  p: Signed,
  ctx: ActionContext & { owner: string },
  all: readonly VerifyingDeployment[],
) {
  const module = moduleOfMethod(method)!;
  const usable = all.filter((d) => d.modules[module]);
  if (usable.length === 0) throw unsignable(`no accepted deployment has a ${module} module`);
  const signer = normalizeAddress(p.signer);
  if (!signer) throw RpcFailure.of('INVALID_ADDRESS', `/signer: not an address (got ${String(p.signer).slice(0, 60)})`);
  let chosen: { d: VerifyingDeployment; action: Action; by: string | null } | null = null;
  for (const d of usable) {
    let action: Action;
    try {
      action = actionOf(method, p, { ...ctx, signer, deployment: d });
    } catch (err) {
      if (err instanceof ActionDataError)
        throw unsignable(`the action data cannot be made: ${err.message.slice(0, 200)}`);
      throw err;
    }
    const by = recovered(action, p.signature, d.separator);
    if (!chosen || (by === signer && chosen.by !== signer)) chosen = { d, action, by };
  }
  const { d, action, by } = chosen!;
  const hash = actionHash(action);
  return {
    action,
    recovered: by,
    common: {
      action_hash: hash,
      encoded_data: action.data,
      encoded_data_hashed: keccak256(action.data),
      typed_data_hash: actionDigest(d.separator, hash),
    },
    domain: d.separator,
  };
}

/**
 * A public debug method's Action owner: the wallet of the subaccount named, else the signer itself (the
 * owner the clients sign for when no wallet is given: a subaccount the sandbox does not know yet).
 */
function ownerOf(parts: HandlerParts, p: Signed): string {
  return parts.accounts.walletOf(p.subaccount_id) ?? normalizeAddress(p.signer) ?? String(p.signer);
}

/** The instruments of a quote's legs, for the rfq module's data. */
function legAssets(parts: HandlerParts, p: Signed) {
  const out: Record<string, { base_asset_address: string; base_asset_sub_id: string }> = {};
  for (const leg of (p.legs as { instrument_name: string }[] | undefined) ?? []) {
    const asset = parts.market.assetOf(leg.instrument_name);
    if (!asset) throw noInstrument(`/legs: unknown instrument ${leg.instrument_name.slice(0, 80)}`);
    out[leg.instrument_name] = asset;
  }
  return out;
}

/** private/order_debug: the trade module's Action for the logged-in wallet, its hashes and the signer recovered. */
function orderDebug(parts: HandlerParts, owner: string, p: Signed) {
  const name = String(p.instrument_name);
  const asset = parts.market.assetOf(name);
  if (!asset) throw noInstrument(`/instrument_name: unknown instrument ${name.slice(0, 80)}`);
  const ctx = { owner, instrument: asset };
  const {
    action,
    recovered: by,
    common,
    domain,
  } = debugAction('private/order_debug', p, ctx, parts.actions.deployments);
  const [, , limit, amount, fee, recipient, isBid] = AbiCoder.defaultAbiCoder().decode(
    ['address', 'uint256', 'int256', 'int256', 'uint256', 'uint256', 'bool'],
    action.data,
  );
  return {
    ...common,
    action_typehash: TYPEHASH,
    domain_separator: domain,
    expected_signer: action.signer,
    input_data: {
      data: {
        asset_address: asset.base_asset_address,
        asset_sub_id: asset.base_asset_sub_id,
        desired_amount: String(amount),
        is_bid: Boolean(isBid),
        limit_price: String(limit),
        recipient_id: Number(recipient),
        worst_fee: String(fee),
      },
      expiry: Number(action.expiry),
      module: action.module,
      nonce: Number(action.nonce),
      owner,
      signer: action.signer,
      subaccount_id: p.subaccount_id,
    },
    module: action.module,
    owner,
    recovered_signer: by,
  };
}

/** The debug methods, keyed by method name. */
export function debugHandlers(parts: HandlerParts): Record<string, Handler> {
  const deployments = () => parts.actions.deployments;
  return {
    'private/order_debug': (ctx: CallContext, p: Signed) => orderDebug(parts, ctx.session!.wallet, p),
    'public/withdraw_debug': (_ctx, p: Signed & { asset_name: string }) => {
      const spot = parts.market.funds.assetOrRefuse(p.asset_name);
      const owner = ownerOf(parts, p);
      const { common, domain, action } = debugAction('public/withdraw_debug', p, { owner, asset: spot }, deployments());
      return { ...common, domain_separator: domain, module: action.module, owner };
    },
    'public/send_quote_debug': (_ctx, p: Signed) => {
      const ctx = { owner: ownerOf(parts, p), instruments: legAssets(parts, p) };
      return debugAction('public/send_quote_debug', p, ctx, deployments()).common;
    },
    'public/execute_quote_debug': (_ctx, p: Signed) => {
      const ctx = { owner: ownerOf(parts, p), instruments: legAssets(parts, p) };
      const { common } = debugAction('public/execute_quote_debug', p, ctx, deployments());
      const legs = rfqExecuteLegsOf(p, ctx);
      return { ...common, encoded_legs: legs, legs_hash: keccak256(legs) };
    },
  };
}

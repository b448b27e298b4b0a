/**
 * Order-flow requests as the public clients send them: private/order and private/replace signed with the
 * EIP-712 Action over the trade module's data (the asset of the instrument as the server reports it, a
 * fresh nonce, an expiry); the cancels as they are, authorised by the login.
 */
import type { BaseWallet } from 'ethers';
import { moduleOfMethod, newNonce, signAction, type ActionInstrument } from '@exchange-api/auth';
import type { CallOptions, Ctx } from '../context';
import type { RpcResponse, WsConn } from '../connection';
import { method } from './util';

/** How long an action signature stays valid. */
const EXPIRY_S = 600;
/** The asset signed for when the server reports none: the server will refuse the signature, and say so. */
const NO_ASSET: ActionInstrument = { base_asset_address: `0x${'0'.repeat(40)}`, base_asset_sub_id: '0' };

/** The params of one order-flow request: signed when the method carries an action signature. */
export async function signedParams(
  signer: BaseWallet,
  name: string,
  subaccount: number,
  fields: Record<string, unknown>,
  instrument?: ActionInstrument,
  owner: string = signer.address,
): Promise<Record<string, unknown>> {
  const base = { ...fields, subaccount_id: subaccount };
  if (moduleOfMethod(name) === null) return base;
  const expiry = Math.floor(Date.now() / 1000) + EXPIRY_S;
  return signAction(
    signer,
    name,
    { ...base, nonce: newNonce(), signature_expiry_sec: expiry },
    { instrument: instrument ?? NO_ASSET, owner },
  );
}

/** The asset an order on `instrument` signs for, as the server reports it (public/get_instrument), or a placeholder. */
export async function assetOf(p: Ctx, conn: WsConn, instrument: unknown): Promise<ActionInstrument> {
  const r = await p.call(conn, method('publicGetInstrument'), { instrument_name: instrument });
  const got = r.result as Partial<ActionInstrument> | undefined;
  if (typeof got?.base_asset_address !== 'string' || got.base_asset_sub_id === undefined) return NO_ASSET;
  return { base_asset_address: got.base_asset_address, base_asset_sub_id: got.base_asset_sub_id };
}

/**
 * Sign (when signed) and send one order-flow request on a logged-in connection (ends the check as failed when no answer
 * comes).
 */
export async function action(
  p: Ctx,
  conn: WsConn,
  signer: BaseWallet,
  name: string,
  subaccount: number,
  fields: Record<string, unknown>,
  opts: CallOptions = {},
): Promise<RpcResponse> {
  const instrument = moduleOfMethod(name) === 'trade' ? await assetOf(p, conn, fields.instrument_name) : undefined;
  const sign = () => signedParams(signer, name, subaccount, fields, instrument);
  return p.call(conn, name, await sign(), { again: sign, ...opts });
}

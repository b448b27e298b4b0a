/** Signed order-flow requests: each carries its own EIP-712 action signature, a fresh nonce and an expiry. */
import type { Wallet } from 'ethers';
import { newNonce, signAction } from '@exchange-api/auth';
import type { CallOptions, Ctx } from '../context';
import type { RpcResponse, WsConn } from '../connection';

/** How long an action signature stays valid. */
const EXPIRY_S = 600;

/** The params of one order-flow request, signed. */
export function signedParams(
  signer: Wallet,
  name: string,
  subaccount: number,
  fields: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return signAction(signer, name, {
    ...fields,
    subaccount_id: subaccount,
    nonce: newNonce(),
    signature_expiry_sec: Math.floor(Date.now() / 1000) + EXPIRY_S,
  });
}

/** Sign and send one order-flow request on a logged-in connection (ends the check as failed when no answer comes). */
export async function action(
  p: Ctx,
  conn: WsConn,
  signer: Wallet,
  name: string,
  subaccount: number,
  fields: Record<string, unknown>,
  opts: CallOptions = {},
): Promise<RpcResponse> {
  return p.call(conn, name, await signedParams(signer, name, subaccount, fields), opts);
}

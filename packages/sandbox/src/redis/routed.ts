/**
 * A call routed to this member is verified again here before it is served: Redis is a trust boundary,
 * and anything that can PUBLISH on it could otherwise place an order for another wallet with any
 * signature. The member that received the request has already checked it all; this one checks again
 * what a forged message could lie about: the method, the login (its proof, recovered again, not the
 * session the message claims), the login's scope, the params, and a signed method's action signature,
 * whose nonce must already be claimed in the fleet (by the member that received it; it is not claimed
 * twice). Rate limits are not charged again.
 */
import { methodTable, type MethodEntry } from '@exchange-api/types';
import { failuresOf, validators, type ValidateFunction } from '@exchange-api/validators';
import type { Accounts, Session } from '../accounts';
import type { ActionFields, ActionVerifier, Nonces } from '../actions';
import { RpcFailure } from '../rpc';
import { tradeSigned } from '../pipeline';
import type { LoginProof } from '@exchange-api/auth';

const methods = new Map<string, MethodEntry>(methodTable.map((m) => [m.name, m]));
const paramsValidators = {
  ...(validators.params as Record<string, ValidateFunction>),
  ...(validators.assumedParams as Record<string, ValidateFunction>),
};

/** A routed call as it came over Redis: nothing in it is trusted. */
export interface RoutedCall {
  method: unknown;
  params: unknown;
  session: unknown;
  ip: unknown;
}

/** The nonces of a routed call: never seen as used before, and claimed only if a member already did. */
export function routedNonces(fleet: Nonces): Nonces {
  return {
    has: () => false,
    claim: async (signer, nonce) => {
      if (await fleet.has(signer, nonce)) return true;
      throw RpcFailure.of(
        'AUTH_INVALID_ACTION_SIGNATURE',
        `a routed call whose nonce ${nonce} of ${signer} no member of the fleet claimed: refused`,
      );
    },
  };
}

/** Verify a routed call again; the session it is served under (null for a public method). */
export async function verifyRouted(
  call: RoutedCall,
  accounts: Accounts,
  actions: ActionVerifier,
): Promise<{ method: string; session: Session | null; ip: string }> {
  const name = typeof call.method === 'string' ? call.method : '';
  const method = methods.get(name);
  if (!method) throw RpcFailure.of('RPC_METHOD_NOT_FOUND', `a routed call of ${JSON.stringify(name).slice(0, 60)}`);
  const ip = typeof call.ip === 'string' ? call.ip : 'unknown';
  let session: Session | null = null;
  if (method.auth === 'login') {
    const proof = (call.session as { proof?: unknown } | null)?.proof;
    if (typeof proof !== 'object' || proof === null)
      throw RpcFailure.of('AUTH_REQUIRED', `a routed call of ${name} carries no login proof`);
    const claimed = (call.session as { wallet?: unknown }).wallet;
    session = accounts.verify(proof as Partial<LoginProof>, ip, false);
    if (typeof claimed === 'string' && claimed.toLowerCase() !== session.wallet.toLowerCase())
      throw RpcFailure.of(
        'AUTH_ACCESS_DENIED',
        `a routed call's session names ${claimed}, its proof ${session.wallet}`,
      );
    const scope = method.orderFlow ? 'trade' : 'read';
    if (!accounts.allows(session, scope))
      throw RpcFailure.of('AUTH_ACCESS_DENIED', `session key ${session.signer} lacks the ${scope} scope`);
  }
  const validate = paramsValidators[name];
  const failure = validate ? failuresOf(validate, call.params)[0] : undefined;
  if (failure)
    throw RpcFailure.of('RPC_INVALID_PARAMS', `a routed call of ${name}: ${failure.pointer}: ${failure.rule}`);
  if (tradeSigned(method, session))
    await actions.verify(session, name, call.params as ActionFields & Record<string, unknown>, ip);
  return { method: name, session, ip };
}

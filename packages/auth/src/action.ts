/**
 * The EIP-712 action signature of state-changing requests, as the public clients of the interface make
 * it (the action-signature assumption): Action(subaccountId, nonce, module, data, expiry, owner,
 * signer), where data is the module's ABI-encoded payload and owner the wallet acted for; the digest is
 * keccak256(0x1901 ‖ domain separator ‖ hashStruct(Action)). Only methods with an action module sign;
 * each module's data is made by its encoder under modules/, chosen by the method (modules/index.ts).
 */
import { concat, getAddress, keccak256, recoverAddress, TypedDataEncoder, type Signer } from 'ethers';
import { ActionDataError, whole, type DataContext } from './action-data';
import { defaultActionLayout, moduleOfMethod, type ActionDeployment, type ActionLayout } from './action-layout';
import { actionKindOf } from './modules/index';
import { assertEcrecoverV } from './signature-v';

/** The signed struct. */
export interface Action {
  subaccountId: bigint | number | string;
  nonce: bigint | number | string;
  /** The module's address in the deployment signed for. */
  module: string;
  /** The module's ABI-encoded payload. */
  data: string;
  expiry: bigint | number;
  owner: string;
  signer: string;
}

/** The fields a signed request carries besides its method's own. */
export interface ActionFields {
  /** Absent in the wallet-level actions (set_session_key, update_whitelisted_recipients): signed for subaccount 0. */
  subaccount_id?: number | string;
  /** A uint256: a decimal string (nanoseconds, as derive-ts sends it) or a JSON number (ccxt: milliseconds). */
  nonce: string | number;
  signature_expiry_sec: number;
}

/**
 * What signing and verifying need beyond the params: the wallet acted for, and what the module's data
 * needs that the request only names (an order's instrument, a quote's instruments, a transfer's asset).
 */
export interface ActionContext extends DataContext {
  /**
   * The wallet the action is for (the logged-in wallet). Default when signing: the params' `wallet` when
   * they carry one (set_session_key, update_whitelisted_recipients), else the signer's own address.
   */
  owner?: string;
}

/** What verifying needs of a deployment: its separator and module addresses (not its domain). */
export type VerifyingDeployment = Pick<ActionDeployment, 'name' | 'separator' | 'modules'>;

/** hashStruct(Action): what the clients call the action hash. */
export function actionHash(action: Action, layout: ActionLayout = defaultActionLayout): string {
  return TypedDataEncoder.hashStruct(layout.primaryType, layout.types, action);
}

/** keccak256(0x1901 ‖ separator ‖ action hash): the digest that is signed. */
export function actionDigest(separator: string, hash: string): string {
  return keccak256(concat(['0x1901', separator, hash]));
}

/**
 * The one spelling of a nonce that a store of used nonces may key on: the number the signature holds.
 * The signed Action holds a uint256, so "7", "07" and 7 sign the same nonce; a store keyed on the
 * spelling as sent would take each for a fresh one and accept one signature several times.
 */
export function canonicalNonce(nonce: unknown): string {
  return nonceOf(nonce).toString();
}

/** A nonce as a uint256: digits, or a whole JSON number. */
function nonceOf(nonce: unknown): bigint {
  if (typeof nonce === 'string' && /^[0-9]{1,78}$/.test(nonce)) return BigInt(nonce);
  if (typeof nonce === 'number' && Number.isSafeInteger(nonce) && nonce >= 0) return BigInt(nonce);
  throw new ActionDataError('nonce', `must be a uint256, digits or a whole number (got ${String(nonce).slice(0, 40)})`);
}

/** The Action a request of `method` signs under `deployment`, for `owner` by `signer`. */
export function actionOf(
  method: string,
  params: Record<string, unknown> & ActionFields,
  ctx: ActionContext & { owner: string; signer: string; deployment: Pick<ActionDeployment, 'name' | 'modules'> },
): Action {
  const module = moduleOfMethod(method);
  if (module === null) throw new ActionDataError('method', `${method} carries no action signature`);
  const address = ctx.deployment.modules[module];
  if (!address) throw new ActionDataError('module', `deployment ${ctx.deployment.name} has no ${module} module`);
  const kind = actionKindOf(method, module);
  return {
    subaccountId: kind.subaccount === 'zero' ? 0n : whole(params.subaccount_id, 'subaccount_id'),
    nonce: nonceOf(params.nonce),
    module: address,
    data: kind.data(params, ctx),
    expiry: whole(params.signature_expiry_sec, 'signature_expiry_sec'),
    owner: ctx.owner,
    signer: ctx.signer,
  };
}

/** Sign an Action with EIP-712 under the layout's deployment (an ethers Signer's signTypedData). */
export function signActionStruct(
  signer: Pick<Signer, 'signTypedData'>,
  action: Action,
  layout: ActionLayout = defaultActionLayout,
): Promise<string> {
  return signer.signTypedData(layout.deployment.domain, layout.types, action);
}

/** Sign a request of `method`: returns the params with `signer` and `signature` added. */
export async function signAction<P extends Record<string, unknown> & ActionFields>(
  signer: Pick<Signer, 'getAddress' | 'signTypedData'>,
  method: string,
  params: P,
  ctx: ActionContext & { layout?: ActionLayout } = {},
): Promise<P & { signer: string; signature: string }> {
  const layout = ctx.layout ?? defaultActionLayout;
  const address = await signer.getAddress();
  const owner = ctx.owner ?? (typeof params.wallet === 'string' ? params.wallet : address);
  const action = actionOf(method, params, { ...ctx, owner, signer: address, deployment: layout.deployment });
  return { ...params, signer: address, signature: await signActionStruct(signer, action, layout) };
}

/** The address that signed an Action under a separator (throws when the signature is malformed). */
export function recoverActionSigner(
  action: Action,
  signature: string,
  separator: string,
  layout: ActionLayout = defaultActionLayout,
): string {
  assertEcrecoverV(signature);
  return recoverAddress(actionDigest(separator, actionHash(action, layout)), signature);
}

/**
 * The deployment under which a signed request's signature recovers to its `signer`, or null when none
 * does. Each deployment has its own separator and module address, so each is tried in turn.
 */
export function verifyAction(
  method: string,
  params: Record<string, unknown> & ActionFields & { signer: string; signature: string },
  ctx: ActionContext & { owner: string; deployments: readonly VerifyingDeployment[]; layout?: ActionLayout },
): VerifyingDeployment | null {
  const claimed = getAddress(params.signer.toLowerCase());
  for (const deployment of ctx.deployments) {
    if (!deployment.modules[moduleOfMethod(method) ?? '']) continue;
    const action = actionOf(method, params, { ...ctx, signer: claimed, deployment });
    if (recoverActionSigner(action, params.signature, deployment.separator, ctx.layout) === claimed) return deployment;
  }
  return null;
}

let lastNonce = 0n;
/**
 * A fresh nonce: nanoseconds since the epoch (as derive-ts and derive-py send it), strictly increasing in this process.
 */
export function newNonce(nowMs = Date.now()): string {
  let n = BigInt(Math.floor(nowMs)) * 1_000_000n;
  if (n <= lastNonce) n = lastNonce + 1n;
  lastNonce = n;
  return n.toString();
}

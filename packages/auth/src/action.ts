/**
 * The EIP-712 action signature every state-changing request carries. Its layout is not shown in the
 * document; the default is the one the spec states as an assumption (x-action-signature), and callers
 * can pass their deployment's layout instead.
 */
import { keccak256, toUtf8Bytes, verifyTypedData, type Signer, type TypedDataField } from 'ethers';
import { actionSignatureTable } from '@exchange-api/types';

/** An EIP-712 layout: domain, types and the primary type. */
export interface ActionLayout {
  domain: Record<string, unknown>;
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  /** Params left out of the hash: the signature fields themselves. */
  signatureFields: readonly string[];
}

/** The layout the spec assumes (and the sandbox verifies). */
export const defaultActionLayout: ActionLayout = {
  domain: { ...actionSignatureTable!.domain },
  types: Object.fromEntries(Object.entries(actionSignatureTable!.types).map(([k, v]) => [k, v.map((f) => ({ ...f }))])),
  primaryType: actionSignatureTable!.primaryType,
  signatureFields: [...actionSignatureTable!.signatureFields],
};

/** The fields an action needs besides its method-specific params. */
export interface ActionFields {
  subaccount_id: number;
  nonce: string;
  signature_expiry_sec: number;
}

/** JSON with keys sorted at every depth and no white space: one text per value, so one hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** keccak256 of the canonical JSON of the params without the signature fields. */
export function actionParamsHash(params: Record<string, unknown>, layout: ActionLayout = defaultActionLayout): string {
  const rest = Object.fromEntries(Object.entries(params).filter(([k]) => !layout.signatureFields.includes(k)));
  return keccak256(toUtf8Bytes(canonicalJson(rest)));
}

/** The typed-data value signed for one request. */
export function actionMessage(
  method: string,
  params: Record<string, unknown> & ActionFields,
  layout: ActionLayout = defaultActionLayout,
) {
  return {
    method,
    subaccount_id: params.subaccount_id,
    nonce: params.nonce,
    signature_expiry_sec: params.signature_expiry_sec,
    params_hash: actionParamsHash(params, layout),
  };
}

/** Sign a state-changing request: returns the params with `signer` and `signature` added. */
export async function signAction<P extends Record<string, unknown> & ActionFields>(
  signer: Signer,
  method: string,
  params: P,
  layout: ActionLayout = defaultActionLayout,
): Promise<P & { signer: string; signature: string }> {
  const address = await signer.getAddress();
  const unsigned = { ...params, signer: address } as P & { signer: string };
  const signature = await signer.signTypedData(layout.domain, layout.types, actionMessage(method, unsigned, layout));
  return { ...unsigned, signature };
}

/** The address that signed a request's action signature (throws when the signature is malformed). */
export function recoverActionSigner(
  method: string,
  params: Record<string, unknown> & ActionFields & { signature: string },
  layout: ActionLayout = defaultActionLayout,
): string {
  return verifyTypedData(layout.domain, layout.types, actionMessage(method, params, layout), params.signature);
}

let lastNonce = 0n;
/** A fresh nonce: microseconds since the epoch, strictly increasing within this process. */
export function newNonce(nowMs = Date.now()): string {
  let n = BigInt(Math.floor(nowMs)) * 1000n;
  if (n <= lastNonce) n = lastNonce + 1n;
  lastNonce = n;
  return n.toString();
}

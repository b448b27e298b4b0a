/**
 * The setSessionKey module's data (private/set_session_key, a wallet registering one of its session keys;
 * derive-ts codecs/sessionKey.ts, auth/scopes.ts): abi.encode(address sessionKey, uint256 expirySec,
 * uint256[] scopes, uint256[] subaccountIds). The request names the protocol scopes by their wire strings;
 * the data holds their codes. No subaccount ids means every subaccount. The Action's subaccountId is 0.
 */
import { AbiCoder } from 'ethers';
import { ActionDataError, address, list, whole, type Params } from '../action-data';

/** Each protocol scope's wire string and the code signed for it (derive-ts 3.0.13 auth/scopes.ts). */
export const PROTOCOL_SCOPE_CODES: Readonly<Record<string, number>> = {
  admin: 0,
  withdraw: 1,
  'trade:all': 2,
  'trade:orderbook:all': 3,
  'trade:orderbook:spot': 4,
  'trade:orderbook:perp': 5,
  'trade:orderbook:option': 6,
  'trade:rfq:all': 7,
  'trade:rfq:spot': 8,
  'trade:rfq:perp': 9,
  'trade:rfq:option': 10,
  'transfer:all': 11,
  'transfer:existing_subaccount': 12,
  'transfer:new_subaccount': 13,
  'transfer:different_owner_subaccount': 14,
  set_session_key: 15,
  liquidate: 16,
  'vault:all': 17,
  'vault:curator_create': 18,
  'vault:curator_mint_and_burn': 19,
  'vault:user_deposit': 20,
  'vault:user_withdraw': 21,
  'vault:user_cancel': 22,
};

/** A scope's code: a wire string of the table, or a code as a whole number (the server judges which exist). */
function scopeCode(scope: unknown, field: string): bigint {
  if (typeof scope === 'string') {
    const code = PROTOCOL_SCOPE_CODES[scope];
    if (code === undefined) throw new ActionDataError(field, `is not a protocol scope (got ${scope.slice(0, 40)})`);
    return BigInt(code);
  }
  return whole(scope, field);
}

/** The session-key registration's data of a private/set_session_key request. */
export function sessionKeyData(params: Params): string {
  const expiry = params.expiry_sec;
  if (typeof expiry !== 'number' || !Number.isSafeInteger(expiry) || expiry < 0)
    throw new ActionDataError('expiry_sec', 'must be unix seconds, a whole number');
  return AbiCoder.defaultAbiCoder().encode(
    ['address', 'uint256', 'uint256[]', 'uint256[]'],
    [
      address(params.public_session_key, 'public_session_key'),
      BigInt(expiry),
      list(params.protocol_scopes, 'protocol_scopes', true).map((s, i) => scopeCode(s, `protocol_scopes[${i}]`)),
      list(params.subaccount_ids, 'subaccount_ids', true).map((id, i) => whole(id, `subaccount_ids[${i}]`)),
    ],
  );
}

/**
 * The whitelistedRecipient module's data (private/update_whitelisted_recipients, the wallets a
 * withdraw-scoped session key may pay; derive-ts codecs/whitelistedRecipients.ts): abi.encode(address[]
 * add, address[] remove); the list becomes (current ∪ add) \ remove. The Action's subaccountId is 0.
 */
import { AbiCoder } from 'ethers';
import { address, list, type Params } from '../action-data';

/** The whitelisted-recipient update's data of a private/update_whitelisted_recipients request. */
export function whitelistedRecipientsData(params: Params): string {
  const addresses = (field: 'add' | 'remove') =>
    list(params[field], field, true).map((a, i) => address(a, `${field}[${i}]`));
  return AbiCoder.defaultAbiCoder().encode(['address[]', 'address[]'], [addresses('add'), addresses('remove')]);
}

/**
 * The withdrawal module's data (private/withdraw, to a wallet on the settlement chain; derive-ts
 * codecs/withdrawal.ts): five static words, asset (the protocol spot asset, named on the wire by
 * asset_name), maxFee at 10^18, recipient (the owner when not given), amount in the ERC-20's own decimals
 * (the one amount not at 10^18: it is what is paid out), forceBatch.
 */
import { AbiCoder } from 'ethers';
import { ActionDataError, address, flag, toUnits, unsignedE18, type DataContext, type Params } from '../action-data';

/** The spot asset a withdrawal pays out: its protocol address and its ERC-20's decimals. */
export interface WithdrawalAsset {
  address: string;
  decimals: number;
}

/** The withdrawal's data; the recipient defaults to `owner` (the wallet acted for), as the venue pays it. */
export function withdrawalData(params: Params, asset: WithdrawalAsset, owner?: string): string {
  const recipient = params.recipient ?? owner;
  if (recipient === undefined) throw new ActionDataError('recipient', 'is needed (or the owner it defaults to)');
  const amount = toUnits(params.amount_in_underlying, asset.decimals, 'amount_in_underlying');
  if (amount === 0n) throw new ActionDataError('amount_in_underlying', 'must be above zero');
  return AbiCoder.defaultAbiCoder().encode(
    ['address', 'uint256', 'address', 'uint256', 'bool'],
    [
      address(asset.address, 'asset'),
      unsignedE18(params.max_fee_usd, 'max_fee_usd'),
      address(recipient, 'recipient'),
      amount,
      flag(params.force_batch ?? false, 'force_batch'),
    ],
  );
}

/** The withdrawal data of a private/withdraw request: the asset's address and decimals from the context. */
export function withdrawalDataOf(params: Params, ctx: DataContext): string {
  const decimals = ctx.asset?.decimals;
  if (!ctx.asset || decimals === undefined)
    throw new ActionDataError('asset_name', "the spot asset's protocol address and ERC-20 decimals are needed (asset)");
  return withdrawalData(params, { address: ctx.asset.address, decimals }, ctx.owner);
}

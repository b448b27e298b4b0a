/**
 * The transfer module's data (private/transfer_spot, a spot asset between subaccounts of one wallet;
 * derive-ts codecs/transfer.ts): six static words, toSubaccountId, newSubaccountManager (0, or the
 * manager of a subaccount to create), asset (the protocol spot asset, named on the wire by asset_name),
 * subId, amount and maxFee at 10^18.
 */
import { AbiCoder } from 'ethers';
import {
  ActionDataError,
  address,
  positiveE18,
  unsignedE18,
  whole,
  type DataContext,
  type Params,
} from '../action-data';

/** The transfer's words from a request's params and the asset it names (its protocol address). */
export function transferWords(params: Params, asset: string): unknown[] {
  return [
    whole(params.to_subaccount_id ?? 0, 'to_subaccount_id'),
    whole(params.new_subaccount_manager ?? 0, 'new_subaccount_manager'),
    address(asset, 'asset'),
    whole(params.sub_id ?? 0, 'sub_id'),
    positiveE18(params.amount, 'amount'),
    unsignedE18(params.max_fee_usd, 'max_fee_usd'),
  ];
}

/** The ABI types of the transfer's six words. */
export const TRANSFER_TYPES = ['uint256', 'uint256', 'address', 'uint256', 'uint256', 'uint256'];

/** The transfer module's data of a private/transfer_spot request; `asset` is the spot asset's protocol address. */
export function transferData(params: Params, asset: string): string {
  return AbiCoder.defaultAbiCoder().encode(TRANSFER_TYPES, transferWords(params, asset));
}

/** The spot asset's address a transfer or withdrawal names by asset_name, from the context. */
export function assetAddressOf(ctx: DataContext): string {
  if (!ctx.asset) throw new ActionDataError('asset_name', "the spot asset's protocol address is needed (asset)");
  return ctx.asset.address;
}

/** The transfer data of a private/transfer_spot request. */
export function transferDataOf(params: Params, ctx: DataContext): string {
  return transferData(params, assetAddressOf(ctx));
}

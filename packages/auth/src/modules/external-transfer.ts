/**
 * The externalTransfer module's data (private/transfer_spot_external, a spot asset to another wallet's
 * subaccount; derive-ts codecs/externalTransfer.ts): the transfer module's six words and a seventh, the
 * recipient wallet (recipient_address).
 */
import { AbiCoder } from 'ethers';
import { address, type DataContext, type Params } from '../action-data';
import { assetAddressOf, TRANSFER_TYPES, transferWords } from './transfer';

/** The external transfer's data; `asset` is the spot asset's protocol address. */
export function externalTransferData(params: Params, asset: string): string {
  return AbiCoder.defaultAbiCoder().encode(
    [...TRANSFER_TYPES, 'address'],
    [...transferWords(params, asset), address(params.recipient_address, 'recipient_address')],
  );
}

/** The external transfer data of a private/transfer_spot_external request. */
export function externalTransferDataOf(params: Params, ctx: DataContext): string {
  return externalTransferData(params, assetAddressOf(ctx));
}

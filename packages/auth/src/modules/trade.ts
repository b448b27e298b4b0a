/**
 * The trade module's data (orders: private/order, private/replace and their quotes and debug twins): seven
 * static words, asset, subId, limitPrice, amount, maxFee, recipientId, isBid (derive-ts codecs/trade.ts,
 * ccxt derive.js createOrder).
 */
import { AbiCoder } from 'ethers';
import {
  ActionDataError,
  address,
  toE18,
  unsignedE18,
  whole,
  type ActionInstrument,
  type DataContext,
  type DecimalInput,
  type Params,
} from '../action-data';

/** The order fields the trade module's data is made of, as a request carries them. */
export interface TradeParams {
  subaccount_id: number | string;
  direction: string;
  limit_price: DecimalInput;
  amount: DecimalInput;
  max_fee: DecimalInput;
}

/** The trade module's data: asset, subId, limitPrice, amount, maxFee, recipientId (the subaccount), isBid. */
export function tradeData(params: TradeParams, instrument: ActionInstrument): string {
  return AbiCoder.defaultAbiCoder().encode(
    ['address', 'uint256', 'int256', 'int256', 'uint256', 'uint256', 'bool'],
    [
      address(instrument.base_asset_address, 'base_asset_address'),
      whole(instrument.base_asset_sub_id, 'base_asset_sub_id'),
      toE18(params.limit_price, 'limit_price'),
      toE18(params.amount, 'amount'),
      unsignedE18(params.max_fee, 'max_fee'),
      whole(params.subaccount_id, 'subaccount_id'),
      params.direction === 'buy',
    ],
  );
}

/** The trade data of an order request; its instrument's asset comes from the context. */
export function tradeDataOf(params: Params, ctx: DataContext): string {
  if (!ctx.instrument) throw new ActionDataError('instrument_name', 'the instrument (its asset and sub id) is needed');
  return tradeData(params as unknown as TradeParams, ctx.instrument);
}

/**
 * The rfq module's data (derive-ts codecs/rfq.ts). A maker's quote (private/send_quote, replace_quote)
 * signs abi.encode((uint256 maxFee, (address asset, uint256 subId, uint256 price, int256 amount)[] legs));
 * a taker's execution (private/execute_quote) signs abi.encode(bytes32 orderHash, uint256 maxFee), where
 * orderHash is keccak256(abi.encode(legs)) of the maker's legs and maxFee the taker's own. Legs are
 * sorted by instrument name; each amount is signed: amount × the leg's side × the quote's side, and for
 * the taker, whose direction is the opposite of the quote's, × −1 again, so both hash the same legs.
 * A position transfer (private/transfer_positions) is a quote (maker_params) and its execution (taker_params).
 */
import { AbiCoder, keccak256 } from 'ethers';
import {
  ActionDataError,
  address,
  list,
  positiveE18,
  side,
  unsignedE18,
  whole,
  type ActionInstrument,
  type DataContext,
  type DecimalInput,
  type Params,
} from '../action-data';

/** One leg of a quote, with its instrument's asset and sub id. */
export interface QuoteLeg extends ActionInstrument {
  instrument_name: string;
  direction: string;
  price: DecimalInput;
  amount: DecimalInput;
}

/** A quote or an execution as the rfq module's data reads it: its side, max fee and legs. */
export interface RfqParams {
  direction: string;
  max_fee: DecimalInput;
  legs: readonly QuoteLeg[];
}

const LEGS = '(address,uint256,uint256,int256)[]';

/** The legs as signed: sorted by instrument name, amounts signed by the leg's side, the quote's and `perspective`. */
function legWords(quote: RfqParams, perspective: 1n | -1n): Array<[string, bigint, bigint, bigint]> {
  const quoteSide = side(quote.direction, 'direction');
  return [...list(quote.legs, 'legs')]
    .map((raw, i) => ({ leg: raw as QuoteLeg, at: `legs[${i}]` }))
    .sort((a, b) => compare(a.leg.instrument_name, b.leg.instrument_name))
    .map(({ leg, at }) => [
      address(leg.base_asset_address, `${at}.base_asset_address`),
      whole(leg.base_asset_sub_id, `${at}.base_asset_sub_id`),
      unsignedE18(leg.price, `${at}.price`),
      positiveE18(leg.amount, `${at}.amount`) * side(leg.direction, `${at}.direction`) * quoteSide * perspective,
    ]);
}

/** Code-unit order of instrument names, as both clients sort (not locale order). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A maker's quote: max fee and the legs, sorted by instrument, amounts signed by direction. */
export function rfqQuoteData(quote: RfqParams): string {
  return AbiCoder.defaultAbiCoder().encode(
    [`(uint256,${LEGS})`],
    [[unsignedE18(quote.max_fee, 'max_fee'), legWords(quote, 1n)]],
  );
}

/** A taker's execution of a quote: the hash of the maker's legs and the taker's max fee; `direction` is the taker's. */
export function rfqExecuteData(execution: RfqParams): string {
  const coder = AbiCoder.defaultAbiCoder();
  const orderHash = keccak256(coder.encode([LEGS], [legWords(execution, -1n)]));
  return coder.encode(['bytes32', 'uint256'], [orderHash, unsignedE18(execution.max_fee, 'max_fee')]);
}

/**
 * The request's legs with their instruments' assets: the context's by instrument name (a verifier's own
 * instruments win over what a request says), else the leg's own base_asset_address and base_asset_sub_id.
 */
function withAssets(params: Params, ctx: DataContext): RfqParams {
  const legs = list(params.legs, 'legs').map((raw, i) => {
    const leg = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<QuoteLeg>;
    const name = leg.instrument_name;
    const instrument = typeof name === 'string' ? ctx.instruments?.[name] : undefined;
    if (!instrument && leg.base_asset_address !== undefined) return leg as QuoteLeg;
    if (!instrument)
      throw new ActionDataError(`legs[${i}].instrument_name`, `the asset of ${String(name)} is needed (instruments)`);
    return {
      ...leg,
      base_asset_address: instrument.base_asset_address,
      base_asset_sub_id: instrument.base_asset_sub_id,
    };
  });
  return { direction: params.direction as string, max_fee: params.max_fee as DecimalInput, legs: legs as QuoteLeg[] };
}

/** The quote data of a private/send_quote (or replace_quote) request. */
export function rfqQuoteDataOf(params: Params, ctx: DataContext): string {
  return rfqQuoteData(withAssets(params, ctx));
}

/** The maker's legs as an execution hashes them (abi.encode(legs); its keccak256 is the orderHash signed). */
export function rfqExecuteLegsOf(params: Params, ctx: DataContext): string {
  return AbiCoder.defaultAbiCoder().encode([LEGS], [legWords(withAssets(params, ctx), -1n)]);
}

/** The execution data of a private/execute_quote request. */
export function rfqExecuteDataOf(params: Params, ctx: DataContext): string {
  return rfqExecuteData(withAssets(params, ctx));
}

/**
 * The `data` of an action: each module's ABI-encoded payload (x-action-signature.modules). Prices,
 * amounts and fees are 10^18 fixed point; the exchange keeps 12 fractional digits, so finer values
 * can never make a valid signature and are refused here, naming the field.
 */
import { AbiCoder, getAddress } from 'ethers';

/** What `data` of the trade module needs from the instrument: its asset and sub id (public/get_instrument). */
export interface ActionInstrument {
  base_asset_address: string;
  base_asset_sub_id: string | number | bigint;
}

/** A decimal the exchange accepts: a decimal string or a JSON number. */
export type DecimalInput = string | number;

/** An action's data could not be made: names the field and what is wrong with it. */
export class ActionDataError extends Error {
  readonly code = 'ACTION_DATA_INVALID';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'ActionDataError';
  }
}

const E18 = 10n ** 18n;
const SUB_E12 = 10n ** 6n;

/** A number as plain decimal digits (JavaScript writes 1e-7 and 1e21 in exponent form). */
function plainDigits(n: number, field: string): string {
  if (!Number.isFinite(n)) throw new ActionDataError(field, `must be a finite number (got ${n})`);
  const text = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign = '', int = '', frac = '', exp = '0'] = m;
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A decimal as a 10^18 fixed-point integer, exact; refuses what is not a decimal or is finer than 10^-12. */
export function toE18(value: DecimalInput, field: string): bigint {
  const text = typeof value === 'number' ? plainDigits(value, field) : String(value).trim();
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) throw new ActionDataError(field, `must be a decimal (got ${JSON.stringify(value).slice(0, 40)})`);
  const [, sign = '', int = '0', frac = ''] = m;
  if (frac.replace(/0+$/, '').length > 18) throw new ActionDataError(field, `has more than 18 fractional digits`);
  const scaled = BigInt(int) * E18 + BigInt((frac + '0'.repeat(18)).slice(0, 18));
  if (scaled % SUB_E12 !== 0n) throw new ActionDataError(field, 'has more than 12 fractional digits');
  return sign === '-' ? -scaled : scaled;
}

/** A whole number (an id, a sub id) as a bigint, or an ActionDataError naming the field. */
function whole(value: unknown, field: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) return BigInt(value);
  throw new ActionDataError(
    field,
    `must be a non-negative integer (got ${JSON.stringify(String(value)).slice(0, 40)})`,
  );
}

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
  let asset: string;
  try {
    asset = getAddress(String(instrument.base_asset_address).toLowerCase());
  } catch {
    throw new ActionDataError('base_asset_address', 'is not an address');
  }
  return AbiCoder.defaultAbiCoder().encode(
    ['address', 'uint256', 'int256', 'int256', 'uint256', 'uint256', 'bool'],
    [
      asset,
      whole(instrument.base_asset_sub_id, 'base_asset_sub_id'),
      toE18(params.limit_price, 'limit_price'),
      toE18(params.amount, 'amount'),
      toE18(params.max_fee, 'max_fee'),
      whole(params.subaccount_id, 'subaccount_id'),
      params.direction === 'buy',
    ],
  );
}

/** One leg of a quote, with its instrument's asset and sub id. */
export interface QuoteLeg extends ActionInstrument {
  instrument_name: string;
  direction: string;
  price: DecimalInput;
  amount: DecimalInput;
}

/** The rfq module's data of a quote: max fee and the legs, sorted by instrument, amounts signed by direction. */
export function rfqQuoteData(quote: { direction: string; max_fee: DecimalInput; legs: readonly QuoteLeg[] }): string {
  const sideOf = (d: string) => (d === 'buy' ? 1n : -1n);
  const legs = [...quote.legs]
    .sort((a, b) => (a.instrument_name < b.instrument_name ? -1 : a.instrument_name > b.instrument_name ? 1 : 0))
    .map((leg) => [
      getAddress(String(leg.base_asset_address).toLowerCase()),
      whole(leg.base_asset_sub_id, 'base_asset_sub_id'),
      toE18(leg.price, 'price'),
      toE18(leg.amount, 'amount') * sideOf(leg.direction) * sideOf(quote.direction),
    ]);
  return AbiCoder.defaultAbiCoder().encode(
    ['(uint256,(address,uint256,uint256,int256)[])'],
    [[toE18(quote.max_fee, 'max_fee'), legs]],
  );
}

/**
 * The values an action's `data` is made of, read from a request's params: every module's encoder
 * (modules/*.ts) takes its words through these. Prices, amounts and fees are 10^18 fixed point; the
 * exchange keeps 12 fractional digits, so finer values can never make a valid signature and are
 * refused here, naming the field.
 */
import { getAddress } from 'ethers';
import { DECIMAL_DIGITS, decimalParts, partsToUnits, type DecimalParts } from '@exchange-api/types/decimal';

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

/** A value as the error message shows it: JSON, cut short. */
function shown(value: unknown): string {
  return String(JSON.stringify(value) ?? String(value)).slice(0, 40);
}

/** The parts of a decimal sent as a string or a JSON number, or an ActionDataError naming the field. */
function partsOf(value: unknown, field: string, what = 'a decimal'): DecimalParts {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new ActionDataError(field, `must be a finite number (got ${value})`);
  const p = typeof value === 'number' || typeof value === 'string' ? decimalParts(value) : null;
  if (!p) throw new ActionDataError(field, `must be ${what} (got ${shown(value)})`);
  return p;
}

/** A decimal as a 10^18 fixed-point integer, exact; refuses what is not a decimal or is finer than 10^-12. */
export function toE18(value: unknown, field: string): bigint {
  const p = partsOf(value, field);
  if (p.frac.length > 18) throw new ActionDataError(field, `has more than 18 fractional digits`);
  if (p.frac.length > DECIMAL_DIGITS) throw new ActionDataError(field, 'has more than 12 fractional digits');
  return partsToUnits(p, 18)!;
}

/** A whole number (an id, a sub id, a count) as a bigint, or an ActionDataError naming the field. */
export function whole(value: unknown, field: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^[0-9]{1,78}$/.test(value)) return BigInt(value);
  throw new ActionDataError(
    field,
    `must be a non-negative integer (got ${JSON.stringify(String(value)).slice(0, 40)})`,
  );
}

/** An address in checksummed form, any case accepted, or an ActionDataError naming the field. */
export function address(value: unknown, field: string): string {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return getAddress(value.toLowerCase());
  throw new ActionDataError(field, `is not an address (got ${shown(value)})`);
}

/** A decimal at 10^18 that may not be negative (fees, prices, transferred amounts). */
export function unsignedE18(value: unknown, field: string): bigint {
  const scaled = toE18(value, field);
  if (scaled < 0n) throw new ActionDataError(field, 'must not be negative');
  return scaled;
}

/** A decimal at 10^18 that must be above zero (a transfer's or a vault action's amount). */
export function positiveE18(value: unknown, field: string): bigint {
  const scaled = toE18(value, field);
  if (scaled <= 0n) throw new ActionDataError(field, 'must be above zero');
  return scaled;
}

/** A decimal in a token's own units (10^decimals), exact: a withdrawal's amount is signed so, not at 10^18. */
export function toUnits(value: unknown, decimals: number, field: string): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77)
    throw new ActionDataError('decimals', `must be a whole number of digits (got ${String(decimals)})`);
  const p = partsOf(value, field, 'a non-negative decimal');
  if (p.negative) throw new ActionDataError(field, `must be a non-negative decimal (got ${shown(value)})`);
  const units = partsToUnits(p, decimals);
  if (units === null) throw new ActionDataError(field, `has more fractional digits than the asset's ${decimals}`);
  return units;
}

/** A boolean sent as JSON true or false. */
export function flag(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new ActionDataError(field, `must be true or false (got ${shown(value)})`);
}

/** A 32-byte hash as 0x and 64 hex digits. */
export function bytes32(value: unknown, field: string): string {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)) return value.toLowerCase();
  throw new ActionDataError(field, 'must be a 32-byte hash, 0x and 64 hex digits');
}

/** A list sent as a JSON array (null or absent where the venue allows it is the empty list). */
export function list(value: unknown, field: string, orEmpty = false): unknown[] {
  if (Array.isArray(value)) return value;
  if (orEmpty && (value === undefined || value === null)) return [];
  throw new ActionDataError(field, 'must be a list');
}

/** `buy` or `sell`, the side of an order, a quote or a leg. */
export function side(value: unknown, field: string): 1n | -1n {
  if (value === 'buy') return 1n;
  if (value === 'sell') return -1n;
  throw new ActionDataError(field, `must be buy or sell (got ${shown(value)})`);
}

/**
 * What a module's data needs beyond the request's params: values the request names but does not carry
 * (an instrument's asset, a spot asset's address and decimals), and the wallet acted for.
 */
export interface DataContext {
  /** The wallet acted for (the Action's owner): a withdrawal without `recipient` pays it. */
  owner?: string;
  /** An order's instrument (the trade module's asset and sub id, from public/get_instrument). */
  instrument?: ActionInstrument;
  /** The instruments of a quote's legs, by instrument_name (rfq module), when the legs do not carry them. */
  instruments?: Readonly<Record<string, ActionInstrument>>;
  /**
   * The spot asset a transfer or withdrawal names by `asset_name`: its protocol asset address and its
   * ERC-20 decimals (public/get_all_currencies: a currency's `spot` entry, `address` and `erc20.decimals`).
   */
  asset?: { address: string; decimals?: number };
}

/** A request's params as a module's encoder reads them. */
export type Params = Readonly<Record<string, unknown>>;

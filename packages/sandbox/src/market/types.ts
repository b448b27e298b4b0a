/** The shapes the market's parts share, and the surface the server sees. */
import type { Order, SettledPublicTrade, Trade } from '@exchange-api/types';
import type { Resting } from './instrument';

/** Where the market sends what it produces: the server's subscription index. */
export interface Publisher {
  /** Subscribed addresses of one channel id with their parameters. */
  addresses(channelId: string): ReadonlyMap<string, Record<string, string>>;
  /** Push data to every subscriber of the address. */
  publish(address: string, data: unknown): void;
  /**
   * Push data to every subscribed address of a channel whose parameter `to.param` is one of `to.values`
   * (compared without regard to case, as wallet addresses are), or to every one when `values` is absent.
   * Decided where each subscriber is held: in a fleet, a subscription made through another member a
   * moment before is not missed, as it could be by `addresses`, which knows the others' only once told.
   */
  publishTo(channelId: string, data: unknown, to: AddressFilter): void;
}

/** Which addresses of a channel a push goes to (Publisher.publishTo). */
export interface AddressFilter {
  param: string;
  values?: readonly string[];
}

/** Whether an address's parameters pass a filter. */
export function passes(params: Record<string, string>, to: AddressFilter): boolean {
  if (to.values === undefined) return true;
  const value = params[to.param]?.toLowerCase();
  return value !== undefined && to.values.some((v) => v.toLowerCase() === value);
}

/**
 * When a channel's payloads are pushed: every market tick, every 10 ticks (`slow`), at the cadence
 * its `interval` parameter names, or as events happen (trades, order updates, balances).
 */
export type Cadence = 'tick' | 'slow' | 'interval' | 'event';

/** How one channel's payloads come about: the cadence, and a schema-valid payload for an address's parameters. */
export interface Producer {
  cadence: Cadence;
  make(params: Record<string, string>, now: number): unknown;
}

/** The address of nobody, for records whose wallet the sandbox does not know. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Buy or sell. */
export type Direction = 'buy' | 'sell';

/** A fill of one taker against one maker (a user's resting order, or synthetic liquidity when null). */
export interface Fill {
  priceTicks: number;
  lots: number;
  maker: Resting | null;
}

/** One side of a fill: a user's order or a simulated counterparty. */
export interface Side {
  subaccount: number;
  wallet: string;
  resting: Resting | null;
}

/**
 * The private trade record the sandbox sends (on `{subaccount_id}.trades` and in the order-flow
 * results): every field the generated Trade lists, all present (the private-trade assumption).
 */
export type PrivateTrade = { [K in keyof Trade as string extends K ? never : K]-?: Trade[K] };

/** A public trade with its batch state and transaction (public/get_trade_history, the batch-status channel). */
export type SettledTrade = SettledPublicTrade;

/** Results of `order` (the AssumedOrderResult shape). */
export interface OrderOutcome {
  order: Order;
  trades: PrivateTrade[];
}

/** The order fields of order and replace (AssumedOrderFields). */
export interface OrderFields {
  instrument_name: string;
  direction: Direction;
  /** Default limit. */
  order_type?: 'limit' | 'market';
  amount: string | number;
  limit_price: string | number;
  max_fee: string | number;
  /** Null as absent: derive-ts sends explicit nulls. */
  time_in_force?: string | null;
  mmp?: boolean | null;
  label?: string | null;
  /** Honoured: see order-rules.ts. */
  reduce_only?: boolean | null;
  reject_timestamp?: number | null;
  /** Refused when set (order-rules.ts): the sandbox has no trigger, algo or atomic-signing model. */
  trigger_type?: string | null;
  trigger_price?: string | number | null;
  trigger_price_type?: string | null;
  algo_type?: string | null;
  algo_duration_sec?: number | null;
  algo_num_slices?: number | null;
  is_atomic_signing?: boolean | null;
  extra_fee?: string | number | null;
}

/** The action fields every order-flow request carries (AssumedActionFields). */
export interface ActionFieldsLike {
  subaccount_id: number;
  /** A decimal string (derive-ts, derive-py) or a JSON number (ccxt). */
  nonce: string | number;
  signer: string;
  signature: string;
  signature_expiry_sec: number;
}

/**
 * The venue's order rules beyond an order's shape, each refused with the venue's code and message (the
 * codes of ccxt's derive exception table, in the spec's error table): fields the sandbox does not
 * model, trigger fields where they cannot be honoured, reject_timestamp, reduce_only, the signed
 * max_fee, and self-crossing. Every order field is
 * honoured or refused by name, never accepted and ignored: a stop order filled at once, or a
 * reduce_only order that opens a position, would teach a bot what the venue never does.
 */
import { errorByName } from '@exchange-api/types';
import { RpcFailure } from '../rpc';
import { bps, fmt, max } from '../fixed';
import { amt, mid, px, type Instrument } from './instrument';
import { TAKER_FEE_BPS } from './rates';
import type { Direction, Fill, OrderFields } from './types';

const code = (name: Parameters<typeof errorByName>[0]) => errorByName(name).code;

/** Order fields the sandbox has no model for: set to anything but null (or false), the order is refused. */
const UNMODELLED: readonly (keyof OrderFields)[] = ['is_atomic_signing'];

/** The fields that make an order a trigger order (triggers.ts rests it off the book until its price). */
export const TRIGGER_FIELDS: readonly (keyof OrderFields)[] = ['trigger_type', 'trigger_price', 'trigger_price_type'];

const isSet = (v: unknown) => v !== undefined && v !== null && v !== false;

/** The fields that make an order an algo order (algos.ts works it in slices). */
export const ALGO_FIELDS: readonly (keyof OrderFields)[] = ['algo_type', 'algo_duration_sec', 'algo_num_slices'];

/** Whether an order sets any trigger field. */
export const hasTrigger = (p: OrderFields): boolean => TRIGGER_FIELDS.some((f) => isSet(p[f]));

/** Refuse an order that sets a field the sandbox does not model, naming every such field. */
export function refuseUnmodelled(p: OrderFields): void {
  const set = UNMODELLED.filter((f) => isSet(p[f]));
  const extraFee = p.extra_fee;
  if (extraFee !== undefined && extraFee !== null && Number(extraFee) !== 0) set.push('extra_fee');
  if (set.length === 0) return;
  throw new RpcFailure(
    code('RPC_ORDER_REJECTED'),
    `${set.join(', ')}: not modelled by the sandbox (atomic signing and extra fees ` +
      `are refused rather than placed as plain orders)`,
  );
}

/**
 * Refuse trigger and algo fields where they cannot be honoured: private/replace places a plain order
 * at once, so a trigger or a slicing there would be ignored (both are placed with private/order).
 */
export function refuseTriggerFields(p: OrderFields, where: string): void {
  const set = [...TRIGGER_FIELDS, ...ALGO_FIELDS].filter((f) => isSet(p[f]));
  if (set.length > 0)
    throw new RpcFailure(
      code('RPC_TRIGGER_REPLACE'),
      `${set.join(', ')}: ${where} does not take a trigger or algo order (place it with private/order)`,
    );
}

/** Refuse an order that is both a trigger and an algo order: the sandbox works one or the other. */
export function refuseTriggeredAlgo(p: OrderFields): void {
  const trigger = TRIGGER_FIELDS.filter((f) => isSet(p[f]));
  const algo = ALGO_FIELDS.filter((f) => isSet(p[f]));
  if (trigger.length > 0 && algo.length > 0)
    throw new RpcFailure(
      code('RPC_ORDER_REJECTED'),
      `${[...trigger, ...algo].join(', ')}: a trigger order that works as an algo is not modelled by the sandbox`,
    );
}

/** reduce_only's time-in-force rule alone (11024): a trigger order is held to it when placed. */
export function checkReduceOnlyTimeInForce(p: OrderFields, tif: string): void {
  if (p.reduce_only === true && (p.order_type ?? 'limit') !== 'market' && tif !== 'ioc' && tif !== 'fok')
    throw new RpcFailure(
      code('RPC_REDUCE_ONLY_TIME_IN_FORCE'),
      `reduce_only needs time_in_force ioc or fok, or a market order (got ${tif})`,
    );
}

/** reject_timestamp (ms): an order that arrives after it is refused (11022). */
export function checkRejectTimestamp(p: OrderFields, now: number): void {
  if (p.reject_timestamp === undefined || p.reject_timestamp === null) return;
  if (now > p.reject_timestamp)
    throw new RpcFailure(
      code('RPC_REJECT_TIMESTAMP_EXCEEDED'),
      `reject_timestamp ${p.reject_timestamp} has passed (server time ${now})`,
    );
}

/**
 * reduce_only: only an order that cannot rest (ioc, fok or market; 11024 otherwise), and only for at
 * most the amount that closes the position in that direction (11025). It fills at once or not at all,
 * so the position it is checked against is the one it trades against.
 */
export function checkReduceOnly(p: OrderFields, tif: string, inst: Instrument, lots: number, position: bigint): void {
  if (p.reduce_only !== true) return;
  checkReduceOnlyTimeInForce(p, tif);
  const closing = p.direction === 'buy' ? -position : position;
  const wanted = amt(inst, lots);
  if (closing < wanted)
    throw new RpcFailure(
      code('RPC_REDUCE_ONLY_REJECT'),
      `reduce_only ${p.direction} of ${fmt(wanted)} would open or increase a position: ` +
        `the position in ${inst.cfg.instrument_name} is ${fmt(position)}`,
    );
}

/**
 * max_fee is per unit of amount (derive-ts: "highest fee per unit the signature allows"). The least
 * accepted is the taker fee per unit at the highest price the order can trade at (its fills, its limit,
 * the mark), so no fill can charge more than was signed (11023, data as the venue words it).
 */
export function checkMaxFee(inst: Instrument, maxFee: bigint, limitTicks: number, fills: readonly Fill[]): void {
  let basis = max(mid(inst), px(inst, limitTicks));
  for (const f of fills) basis = max(basis, px(inst, f.priceTicks));
  const least = bps(basis, TAKER_FEE_BPS);
  if (maxFee < least) throw new RpcFailure(code('RPC_MAX_FEE_TOO_LOW'), `signed max_fee must be >= ${fmt(least)}`);
}

/**
 * Self-trade prevention: an order that would fill against a resting order of its own subaccount is
 * refused whole (11007), nothing filled, the resting order left as it was. Subaccounts of one wallet
 * may trade with each other, as separate accounts do.
 */
export function refuseSelfCrossing(subaccount: number, direction: Direction, fills: readonly Fill[]): void {
  const own = fills.find((f) => f.maker?.order.subaccount_id === subaccount);
  if (own)
    throw new RpcFailure(
      code('RPC_SELF_CROSSING'),
      `the ${direction} would fill against open order ${own.maker!.order.order_id}` +
        ` of the same subaccount ${subaccount}`,
    );
}

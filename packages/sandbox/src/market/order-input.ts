/** The order fields of `order` and `replace` read into exact units, or a rejection naming the field. */
import { errorByName } from '@exchange-api/types';
import { RpcFailure } from '../rpc';
import { parseFixed } from '../fixed';
import type { Instrument } from './instrument';
import type { Instruments } from './instruments';
import type { OrderFields } from './types';

const ORDER_REJECTED = errorByName('RPC_ORDER_REJECTED').code;
const TIME_IN_FORCE = ['gtc', 'ioc', 'fok', 'post_only'] as const;

/** An order's fields in exact units. */
export interface CheckedOrder {
  inst: Instrument;
  priceTicks: number;
  lots: number;
  maxFee: bigint;
  tif: (typeof TIME_IN_FORCE)[number];
}

/** A decimal input as whole units of `unit` (ticks or steps), or a rejection naming the field (RFQ legs too). */
export function units(
  field: string,
  value: string | number,
  unit: bigint,
  unitName: string,
  unitValue: string,
): number {
  const x = parseFixed(value);
  if (x === null)
    throw new RpcFailure(
      ORDER_REJECTED,
      `${field} ${String(value).slice(0, 40)} is not a decimal with at most 12 fractional digits`,
    );
  if (x <= 0n) throw new RpcFailure(ORDER_REJECTED, `${field} must be above zero (got ${value})`);
  if (x % unit !== 0n)
    throw new RpcFailure(ORDER_REJECTED, `${field} ${value} is not a multiple of ${unitName} ${unitValue}`);
  const n = x / unit;
  if (n > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RpcFailure(ORDER_REJECTED, `${field} ${String(value).slice(0, 40)} is too large`);
  return Number(n);
}

/** Check an order's instrument, amount, price, max_fee and time_in_force. */
export function checkOrder(instruments: Instruments, p: OrderFields): CheckedOrder {
  const inst = instruments.orReject(p.instrument_name);
  const lots = units('amount', p.amount, inst.stepFx, 'amount_step', inst.cfg.amount_step);
  const priceTicks = units('limit_price', p.limit_price, inst.tickFx, 'tick_size', inst.cfg.tick_size);
  const maxFee = parseFixed(p.max_fee);
  if (maxFee === null || maxFee < 0n)
    throw new RpcFailure(
      ORDER_REJECTED,
      `max_fee must be a non-negative decimal (got ${String(p.max_fee).slice(0, 40)})`,
    );
  const tif = p.time_in_force ?? 'gtc';
  if (!(TIME_IN_FORCE as readonly string[]).includes(tif))
    throw new RpcFailure(
      ORDER_REJECTED,
      `time_in_force ${JSON.stringify(tif).slice(0, 40)} is not one of ${TIME_IN_FORCE.join(', ')}`,
    );
  return { inst, priceTicks, lots, maxFee, tif: tif as CheckedOrder['tif'] };
}

/**
 * An order priced without placing it (private/order_quote, public/order_quote): the fills it would get
 * from the book as it stands (matching.ts), their average price, the taker fee, the PnL they would
 * realize against the subaccount's position, the status it would end in, and the initial margin before
 * and after. A field the order path refuses is refused the same way here; a rule the order would break
 * (max_fee, reduce_only, post_only, fok, self-crossing, margin) makes the estimate `is_valid: false`
 * with the reason, as the venue reports it.
 */
import type { OrderQuoteResult } from '@exchange-api/types';
import { abs, bps, div, fmt, min, mul } from '../fixed';
import { RpcFailure } from '../rpc';
import { amountText, amt, mid, notional, px } from './instrument';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { Margin } from './margin';
import { plan } from './matching';
import { checkOrder } from './order-input';
import {
  checkMaxFee,
  checkReduceOnly,
  checkRejectTimestamp,
  refuseSelfCrossing,
  refuseTriggerFields,
  refuseUnmodelled,
} from './order-rules';
import type { OrderParams } from './orders';
import { INITIAL_MARGIN_BPS, TAKER_FEE_BPS } from './rates';
import type { Fill } from './types';

/** What an estimate reads. */
export interface EstimateParts {
  instruments: Instruments;
  margin: Margin;
  ledger: Ledger;
}

/** The reason a rule refuses the order, or null when it would be accepted. */
function refusal(check: () => void): string | null {
  try {
    check();
    return null;
  } catch (err) {
    if (err instanceof RpcFailure) return err.data ?? err.message;
    throw err;
  }
}

/** Price an order as private/order would take it now. */
export function estimateOrder(
  parts: EstimateParts,
  p: OrderParams & { referral_code?: string | null },
  now: number,
): OrderQuoteResult {
  refuseUnmodelled(p);
  refuseTriggerFields(p, 'order_quote');
  if (p.referral_code != null && p.referral_code !== '')
    throw RpcFailure.of('RPC_ORDER_REJECTED', 'referral_code: the sandbox does not model referrals; leave it out');
  checkRejectTimestamp(p, now);
  const { inst, priceTicks, lots, maxFee, tif } = checkOrder(parts.instruments, p);
  const fills = plan(inst, p.direction, priceTicks, lots);
  const filled = fills.reduce((s, f) => s + f.lots, 0);
  const value = fills.reduce((s, f) => s + notional(inst, f.priceTicks, f.lots), 0n);
  const fee = bps(value, TAKER_FEE_BPS);
  const position = parts.margin.positionOf(p.subaccount_id, inst);
  const realized = realizedBy(parts, p, fills, position);
  const market = (p.order_type ?? 'limit') === 'market' || tif === 'ioc' || tif === 'fok';
  const reason =
    refusal(() => checkMaxFee(inst, maxFee, priceTicks, fills)) ??
    refusal(() => checkReduceOnly(p, tif, inst, lots, position)) ??
    refusal(() => refuseSelfCrossing(p.subaccount_id, p.direction, fills)) ??
    (tif === 'post_only' && fills.length > 0 ? 'post_only order would cross the book' : null) ??
    (tif === 'fok' && filled < lots ? 'fok order cannot be filled in full' : null) ??
    refusal(() =>
      parts.margin.assertCanCarry({ inst, subaccount: p.subaccount_id, direction: p.direction, priceTicks, lots }),
    );
  const pre = parts.margin.valuation(p.subaccount_id).initial;
  const after = position + (p.direction === 'buy' ? 1n : -1n) * amt(inst, filled);
  const exposure = (x: bigint) => (inst.cfg.instrument_type === 'erc20' ? 0n : mul(abs(x), mid(inst)));
  const post = pre + bps(exposure(after) - exposure(position), INITIAL_MARGIN_BPS);
  return {
    estimated_fee: fmt(fee),
    estimated_fill_amount: amountText(inst, filled),
    estimated_fill_price: filled === 0 ? '0' : fmt(div(value, amt(inst, filled)), inst.priceDp + 4),
    estimated_order_status: filled === lots ? 'filled' : market ? 'cancelled' : 'open',
    estimated_realized_pnl: fmt(realized - fee),
    estimated_realized_pnl_excl_fees: fmt(realized),
    invalid_reason: reason,
    is_valid: reason === null,
    max_amount: null,
    post_initial_margin: fmt(post < 0n ? 0n : post, 6),
    post_liquidation_price: null,
    pre_initial_margin: fmt(pre, 6),
    suggested_max_fee: fmt(bps(px(inst, Math.max(priceTicks, inst.midTicks)), TAKER_FEE_BPS) * 2n),
  };
}

/** The PnL the fills would realize on the part of a perp or option position they close. */
function realizedBy(parts: EstimateParts, p: OrderParams, fills: readonly Fill[], position: bigint): bigint {
  const inst = parts.instruments.get(p.instrument_name)!;
  const entry = parts.ledger.entryOf(p.subaccount_id, inst.cfg.instrument_name);
  if (inst.cfg.instrument_type === 'erc20' || entry === undefined) return 0n;
  const long = position > 0n;
  if (position === 0n || long === (p.direction === 'buy')) return 0n;
  let left = abs(position);
  let pnl = 0n;
  for (const f of fills) {
    const closed = min(left, amt(inst, f.lots));
    pnl += mul(closed, px(inst, f.priceTicks) - entry) * (long ? 1n : -1n);
    left -= closed;
  }
  return pnl;
}

/** The users' side of an instrument's book: resting orders in price-time priority, and the open orders by id. */
import type { Instrument, Resting } from './instrument';

/**
 * Put an order on its side of the book, behind orders at the same price; the synthetic maker stops crossing it until
 * the next refresh.
 */
export function insertResting(inst: Instrument, r: Resting): void {
  const buy = r.order.direction === 'buy';
  const side = buy ? inst.bids : inst.asks;
  const i = side.findIndex((a) => (buy ? r.priceTicks > a.priceTicks : r.priceTicks < a.priceTicks));
  if (i < 0) side.push(r);
  else side.splice(i, 0, r);
  const syn = buy ? inst.synAsks : inst.synBids;
  for (const p of [...syn.keys()]) if (buy ? p <= r.priceTicks : p >= r.priceTicks) syn.delete(p);
}

/** Take an order off its side of the book. */
export function removeResting(inst: Instrument, r: Resting): void {
  const side = r.order.direction === 'buy' ? inst.bids : inst.asks;
  const i = side.indexOf(r);
  if (i >= 0) side.splice(i, 1);
}

/**
 * Open orders only: filled and cancelled ones are forgotten, so memory follows the book, not history.
 * Kept by subaccount too, so that an order's checks read its own subaccount's orders, not the venue's.
 */
export class OpenOrders {
  private readonly byId = new Map<string, Resting>();
  private readonly bySubaccount = new Map<number, Map<string, Resting>>();

  get(orderId: string): Resting | undefined {
    return this.byId.get(orderId);
  }

  add(r: Resting): void {
    const { order_id, subaccount_id } = r.order;
    this.byId.set(order_id, r);
    let own = this.bySubaccount.get(subaccount_id);
    if (!own) this.bySubaccount.set(subaccount_id, (own = new Map()));
    own.set(order_id, r);
  }

  delete(orderId: string): void {
    const r = this.byId.get(orderId);
    if (!r) return;
    this.byId.delete(orderId);
    const own = this.bySubaccount.get(r.order.subaccount_id);
    own?.delete(orderId);
    if (own?.size === 0) this.bySubaccount.delete(r.order.subaccount_id);
  }

  /** The open orders of a subaccount, oldest first. */
  ofSubaccount(subaccount: number): Resting[] {
    return [...(this.bySubaccount.get(subaccount)?.values() ?? [])];
  }
}

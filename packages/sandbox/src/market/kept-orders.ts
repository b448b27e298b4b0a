/**
 * Orders that wait off the book (trigger orders, TWAP orders) as a fleet keeps them for the next owner
 * of their instrument's book: one JSON text each (its instrument by name, its exact amounts as decimal
 * text), written as they change and taken back when the book moves (redis/leases.ts), as resting orders are.
 */
import type { Order } from '@exchange-api/types';
import type { Session } from '../accounts';
import type { Instrument } from './instrument';
import type { Instruments } from './instruments';

/** The off-book orders of one kind, by order id, as their book holds them. */
export class KeptOrders<W extends { order: Order; inst: Instrument; session: Session }> {
  constructor(
    private readonly held: Map<string, W>,
    private readonly instruments: Instruments,
    /** The fields that are bigints. */
    private readonly exact: readonly (keyof W & string)[],
  ) {}

  /** An order as kept, or undefined once it no longer waits. */
  text(orderId: string): string | undefined {
    const w = this.held.get(orderId);
    if (!w) return undefined;
    const exact = Object.fromEntries(this.exact.map((k) => [k, String(w[k])]));
    // The order acts for its wallet only: its login proof stays in this process, out of Redis.
    const session = { ...w.session, proof: null, sessionKey: null };
    return JSON.stringify({ ...w, ...exact, session, inst: w.inst.cfg.instrument_name });
  }

  /** The orders waiting on an instrument, as kept (order id, text). */
  in(name: string): Array<[string, string]> {
    return [...this.held.values()]
      .filter((w) => w.inst.cfg.instrument_name === name)
      .map((w) => [w.order.order_id, this.text(w.order.order_id)!]);
  }

  /** Take a kept order back (its book moved here); false when it is not of a listed instrument. */
  restore(kept: Record<string, unknown> & { order: Order; inst: string }): boolean {
    const inst = this.instruments.get(kept.inst);
    if (!inst) return false;
    if (this.held.has(kept.order.order_id)) return true;
    const exact = Object.fromEntries(this.exact.map((k) => [k, BigInt(String(kept[k]))]));
    this.held.set(kept.order.order_id, { ...kept, ...exact, inst } as unknown as W);
    return true;
  }

  /** Forget an instrument's waiting orders (its book moved away: the next owner takes them back). */
  drop(name: string): void {
    for (const [id, w] of this.held) if (w.inst.cfg.instrument_name === name) this.held.delete(id);
  }
}

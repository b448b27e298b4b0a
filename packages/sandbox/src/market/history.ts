/**
 * What happened, for the history methods the public clients call (public/get_trade_history,
 * private/get_trade_history, private/get_orders): every order's latest record, every subaccount's own
 * fills and the public tape, each kept to a bound so that memory stays flat on a long run.
 */
import type { Order } from '@exchange-api/types';
import type { PrivateTrade, SettledTrade } from './types';

/** Orders and own trades kept per subaccount, and public trades kept in all. */
export const HISTORY_PER_SUBACCOUNT = 1000;
export const PUBLIC_TAPE = 5000;

/** The market's memory of orders and trades, newest last. */
export class History {
  private readonly orders = new Map<number, Map<string, Order>>();
  private readonly trades = new Map<number, PrivateTrade[]>();
  private readonly tape: SettledTrade[] = [];

  /** An order's latest record (it moves to the newest place). */
  order(o: Order): void {
    let book = this.orders.get(o.subaccount_id);
    if (!book) this.orders.set(o.subaccount_id, (book = new Map()));
    book.delete(o.order_id);
    book.set(o.order_id, { ...o });
    if (book.size > HISTORY_PER_SUBACCOUNT) book.delete(book.keys().next().value as string);
  }

  /** One side's own record of a fill. */
  trade(t: PrivateTrade): void {
    let list = this.trades.get(t.subaccount_id);
    if (!list) this.trades.set(t.subaccount_id, (list = []));
    list.push(t);
    if (list.length > HISTORY_PER_SUBACCOUNT) list.shift();
  }

  /** A taker's record of a fill, as the public tape shows it. */
  publicTrade(t: SettledTrade): void {
    this.tape.push(t);
    if (this.tape.length > PUBLIC_TAPE) this.tape.shift();
  }

  /** A subaccount's orders, newest first. */
  ordersOf(subaccount: number): Order[] {
    return [...(this.orders.get(subaccount)?.values() ?? [])].reverse();
  }

  /** The own trades of these subaccounts, newest first. */
  tradesOf(subaccounts: readonly number[]): PrivateTrade[] {
    return subaccounts.flatMap((s) => this.trades.get(s) ?? []).sort((a, b) => b.timestamp - a.timestamp);
  }

  /** The public tape, newest first. */
  publicTrades(): SettledTrade[] {
    return [...this.tape].reverse();
  }
}

/** One page of a list, newest first already: `page` (from 1) of `size`, with the pagination record. */
export function pageOf<T>(
  items: readonly T[],
  page: number | null | undefined,
  size: number,
): { items: T[]; pagination: { num_pages: number; count: number } } {
  const p = Math.max(1, page ?? 1);
  return {
    items: items.slice((p - 1) * size, p * size),
    pagination: { num_pages: Math.max(1, Math.ceil(items.length / size)), count: items.length },
  };
}

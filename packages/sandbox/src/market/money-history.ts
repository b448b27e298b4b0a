/**
 * What moved money in and out of subaccounts besides trading and the funds moved through the API
 * (deposits, withdrawals and transfers are funds.ts's): funding, interest and option settlements, each
 * as the history methods show it, kept to a bound per subaccount. The
 * sandbox books an entry here only when it moves the balance for that reason; until then the history
 * is empty, and truthfully so.
 */
import type { InterestPayment, OptionSettlementResponse, PerpSettlementEvent } from '@exchange-api/types';
import { HISTORY_PER_SUBACCOUNT } from './history';

/** The kinds of money records, each with its record type. */
export interface MoneyKinds {
  funding: PerpSettlementEvent;
  interest: InterestPayment;
  optionSettlements: OptionSettlementResponse;
}

type Kind = keyof MoneyKinds;

/** The money records of every subaccount, newest last. */
export class MoneyHistory {
  private readonly lists = new Map<string, unknown[]>();

  /** Keep one record of a kind for its subaccount. */
  add<K extends Kind>(kind: K, record: MoneyKinds[K]): void {
    const key = `${kind}|${record.subaccount_id}`;
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = []));
    list.push(record);
    if (list.length > HISTORY_PER_SUBACCOUNT) list.shift();
  }

  /** The records of a kind for these subaccounts, newest first, within [from, to] of `time` when given. */
  of<K extends Kind>(
    kind: K,
    subaccounts: readonly number[],
    time?: (r: MoneyKinds[K]) => number,
    from?: number | null,
    to?: number | null,
  ): MoneyKinds[K][] {
    const all = subaccounts.flatMap((s) => (this.lists.get(`${kind}|${s}`) ?? []) as MoneyKinds[K][]);
    if (!time) return all.reverse();
    return all
      .filter((r) => (from == null || time(r) >= from) && (to == null || time(r) <= to))
      .sort((a, b) => time(b) - time(a));
  }
}

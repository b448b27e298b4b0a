/**
 * Interest on negative cash: on every hour of the sandbox clock a subaccount whose cash (a quote
 * currency) is below zero is charged the hour's share of `margin.borrowRatePerYear` on what it owes,
 * booked in the money history (private/get_interest_history) and pushed as an `interest_accrual`
 * balance update. Positive cash earns nothing: the sandbox lends to no one. Hours a clock advance skips
 * are charged one event each, as funding is (funding.ts); a jump of more than MAX_EVENT_HOURS is one
 * event at its last hour. In a fleet, the member owning the first instrument's book charges.
 */
import type { Accounts } from '../accounts';
import { address } from '../channels';
import { fixed, fmt, mul } from '../fixed';
import { MAX_EVENT_HOURS } from './funding';
import type { Instruments } from './instruments';
import type { MoneyHistory } from './money-history';
import type { Publisher } from './types';

const HOUR_MS = 3_600_000;
const HOURS_PER_YEAR = 8760;

/** The hourly interest on negative cash. */
export class Interest {
  private charged: number;

  constructor(
    private readonly instruments: Instruments,
    private readonly accounts: Accounts,
    private readonly money: MoneyHistory,
    private readonly out: Publisher,
    private readonly ratePerYear: number,
    now: number,
    /** In a fleet, whether this member charges (the owner of the first instrument's book does). */
    private readonly charges: () => boolean = () => true,
  ) {
    this.charged = Math.floor(now / HOUR_MS);
  }

  /** Charge every hour begun since the last charge, up to `now`. */
  settle(now: number): void {
    const hour = Math.floor(now / HOUR_MS);
    if (hour <= this.charged) return;
    const hours = hour - this.charged;
    if (hours > MAX_EVENT_HOURS) this.charge(hour, hours);
    else for (let h = this.charged + 1; h <= hour; h++) this.charge(h, 1);
    this.charged = hour;
  }

  private charge(h: number, hours: number): void {
    if (this.ratePerYear === 0 || !this.charges()) return;
    const rate = fixed(((this.ratePerYear * hours) / HOURS_PER_YEAR).toFixed(12));
    const cash = new Set([...this.instruments.all()].map((i) => i.cfg.quote_currency));
    for (const [subaccount, book] of this.accounts.balances) {
      for (const currency of cash) {
        const owed = book.get(currency) ?? 0n;
        if (owed >= 0n) continue;
        const interest = mul(owed, rate);
        if (interest === 0n) continue;
        const u = this.accounts.adjust(subaccount, currency, interest);
        this.money.add('interest', { subaccount_id: subaccount, timestamp: h * HOUR_MS, interest: fmt(interest) });
        this.out.publish(address('subaccountBalances', { subaccount_id: subaccount }), [
          {
            name: u.name,
            previous_balance: fmt(u.previous),
            new_balance: fmt(u.next),
            update_type: 'interest_accrual',
          },
        ]);
      }
    }
  }
}

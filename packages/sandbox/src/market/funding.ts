/**
 * Funding on perps, charged on the hour of the sandbox clock at the rate the ticker and the funding
 * rate history report: a long pays amount × mark × rate into nothing (a short is paid as much), the
 * quote cash of the subaccount moving by it, booked in the money history (private/get_funding_history)
 * and pushed as a `perp_settlement` balance update. The hours a clock advance skips are charged at the
 * mark of the moment (the sandbox's prices do not move while its clock jumps), one event per hour; a
 * jump of more than MAX_EVENT_HOURS is charged as one event at its last hour. In a fleet, a member
 * charges the perps whose books it owns.
 */
import type { Accounts } from '../accounts';
import { address } from '../channels';
import { fixed, fmt, mul } from '../fixed';
import { mid, type Instrument } from './instrument';
import type { Instruments } from './instruments';
import type { MoneyHistory } from './money-history';
import { FUNDING_RATE_PER_HOUR } from './rates';
import type { Publisher } from './types';

const HOUR_MS = 3_600_000;
/** Hours charged one event each; a longer jump is one event. */
export const MAX_EVENT_HOURS = 1000;

/** The hourly funding of perp positions. */
export class Funding {
  /** The last hour (ms / HOUR_MS) whose funding is charged. */
  private charged: number;

  constructor(
    private readonly instruments: Instruments,
    private readonly accounts: Accounts,
    private readonly money: MoneyHistory,
    private readonly out: Publisher,
    private readonly owns: (name: string) => boolean,
    now: number,
  ) {
    this.charged = Math.floor(now / HOUR_MS);
  }

  /** Charge every hour that has begun since the last charge, up to `now`. */
  settle(now: number): void {
    const hour = Math.floor(now / HOUR_MS);
    if (hour <= this.charged) return;
    const hours = hour - this.charged;
    const perps = [...this.instruments.all()].filter(
      (i) => i.cfg.instrument_type === 'perp' && this.owns(i.cfg.instrument_name),
    );
    if (hours > MAX_EVENT_HOURS) this.charge(perps, hour, BigInt(hours));
    else for (let h = this.charged + 1; h <= hour; h++) this.charge(perps, h, 1n);
    this.charged = hour;
  }

  /** Charge `hours` hours of funding, as one event at hour `h`. */
  private charge(perps: Instrument[], h: number, hours: bigint): void {
    const rate = fixed(FUNDING_RATE_PER_HOUR) * hours;
    for (const inst of perps) {
      const name = inst.cfg.instrument_name;
      const mark = mid(inst);
      for (const [subaccount, book] of this.accounts.balances) {
        const amount = book.get(name) ?? 0n;
        if (amount === 0n) continue;
        const funding = -mul(mul(amount, mark), rate);
        const u = this.accounts.adjust(subaccount, inst.cfg.quote_currency, funding);
        const timestamp = h * HOUR_MS;
        this.money.add('funding', {
          subaccount_id: subaccount,
          instrument_name: name,
          timestamp,
          funding: fmt(funding),
          pnl: '0',
          batch_status: 'Settled',
          batch_uuid: `funding-${name}-${h}`,
          tx_hash: null,
        });
        this.out.publish(address('subaccountBalances', { subaccount_id: subaccount }), [
          {
            name: u.name,
            previous_balance: fmt(u.previous),
            new_balance: fmt(u.next),
            update_type: 'perp_settlement',
          },
        ]);
      }
    }
  }
}

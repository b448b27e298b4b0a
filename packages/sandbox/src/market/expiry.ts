/**
 * Option expiry: once the sandbox clock passes an option's expiry (its name's date at 08:00 UTC, as
 * public/get_instrument gives it), the option settles at the settlement price, its index at that moment
 * (the spot price of its base currency, or its own mark without one). Every position is closed for
 * cash, amount × max(price − strike, 0) for a call and amount × max(strike − price, 0) for a put (a
 * short pays it), booked in the money history (private/get_option_settlement_history), pushed as an
 * `option_settlement` balance update, and the settlement price is what public/get_option_settlement_prices
 * and public/get_instrument report from then on. The option's resting orders are cancelled, it takes no
 * new order and the simulation stops quoting it. In a fleet, the member owning the option's book settles it.
 */
import type { Accounts } from '../accounts';
import { address } from '../channels';
import { fixed, fmt, max, mul } from '../fixed';
import { type Instrument } from './instrument';
import type { Instruments } from './instruments';
import type { MoneyHistory } from './money-history';
import type { Publisher } from './types';

/** An option's terms as public/get_instrument gives them. */
export interface OptionTerms {
  expirySec: number;
  strike: string;
  type: 'C' | 'P';
}

/** The options that have expired and their settlement prices. */
export class Expiry {
  private readonly settled = new Map<string, bigint>();

  constructor(
    private readonly instruments: Instruments,
    private readonly accounts: Accounts,
    private readonly money: MoneyHistory,
    private readonly out: Publisher,
    private readonly termsOf: (inst: Instrument) => OptionTerms,
    /** Cancel every resting order on an instrument. */
    private readonly cancelOn: (name: string) => void,
    /** In a fleet, whether this member owns an instrument's book: the owner settles it. */
    private readonly owns: (name: string) => boolean = () => true,
  ) {}

  /** The settlement price of an expired option, or null while it trades. */
  priceOf(name: string): bigint | null {
    return this.settled.get(name) ?? null;
  }

  /** Whether an instrument is an option past its expiry. */
  expired(name: string): boolean {
    return this.settled.has(name);
  }

  /** Settle every option whose expiry the clock has passed. */
  settle(now: number): void {
    for (const inst of this.instruments.all()) {
      const name = inst.cfg.instrument_name;
      if (inst.cfg.instrument_type !== 'option' || this.settled.has(name) || !this.owns(name)) continue;
      const terms = this.termsOf(inst);
      if (terms.expirySec * 1000 > now) continue;
      this.expire(inst, terms);
    }
  }

  private expire(inst: Instrument, terms: OptionTerms): void {
    const name = inst.cfg.instrument_name;
    const price = this.instruments.indexPrice(inst);
    this.settled.set(name, price);
    this.cancelOn(name);
    const strike = fixed(terms.strike);
    const perUnit = max(terms.type === 'C' ? price - strike : strike - price, 0n);
    for (const [subaccount, book] of this.accounts.balances) {
      const amount = book.get(name) ?? 0n;
      if (amount === 0n) continue;
      const value = mul(amount, perUnit);
      const closed = this.accounts.adjust(subaccount, name, -amount);
      const cash = this.accounts.adjust(subaccount, inst.cfg.quote_currency, value);
      this.money.add('optionSettlements', {
        subaccount_id: subaccount,
        instrument_name: name,
        expiry: terms.expirySec,
        amount: fmt(amount),
        settlement_price: fmt(price),
        settlement_value: fmt(value),
      });
      this.out.publish(
        address('subaccountBalances', { subaccount_id: subaccount }),
        [closed, cash].map((u) => ({
          name: u.name,
          previous_balance: fmt(u.previous),
          new_balance: fmt(u.next),
          update_type: 'option_settlement',
        })),
      );
    }
    inst.oi = 0n;
  }
}

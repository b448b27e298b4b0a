/**
 * The ledger: one side of a fill booked in its subaccount's balances. Perps settle PnL and fees, not
 * the notional: the position moves, an average entry price is kept, and cash changes by the PnL
 * realized on the part that reduces the position, less the fee. Spot and options exchange the asset
 * for its price.
 */
import type { BalanceUpdate } from '@exchange-api/types';
import type { Accounts } from '../accounts';
import { abs, div, fmt, max, min, mul } from '../fixed';
import { amt, positionAsset, px, type Instrument } from './instrument';
import type { Direction, Fill } from './types';

/** Balances as the accounts hold them, plus the average entry price of every perp position. */
export class Ledger {
  /** Average entry price of each perp and option position, by `subaccount|instrument`. */
  private readonly entries = new Map<string, bigint>();
  /** PnL realized (before fees) and fees paid on each position since it was opened, by `subaccount|instrument`. */
  private readonly closed = new Map<string, { realized: bigint; fees: bigint; since: number }>();

  constructor(readonly accounts: Accounts) {}

  /** The average entry price of a perp position, if the subaccount holds one. */
  entryOf(subaccount: number, instrument: string): bigint | undefined {
    return this.entries.get(`${subaccount}|${instrument}`);
  }

  /** What a position has realized and paid since it was opened (zeros for one never traded). */
  closedOf(subaccount: number, instrument: string): { realized: bigint; fees: bigint; since: number | null } {
    return this.closed.get(`${subaccount}|${instrument}`) ?? { realized: 0n, fees: 0n, since: null };
  }

  /** Book one side of a fill; returns the balance updates and the PnL it realized (before fees). */
  book(
    inst: Instrument,
    subaccount: number,
    direction: Direction,
    fill: Fill,
    fee: bigint,
    now = 0,
  ): { updates: BalanceUpdate[]; realized: bigint } {
    const sign = direction === 'buy' ? 1n : -1n;
    const amount = sign * amt(inst, fill.lots);
    const price = px(inst, fill.priceTicks);
    const asset = positionAsset(inst);
    const before = this.accounts.balance(subaccount, asset);
    const after = before + amount;
    let realized = 0n;
    let cash: bigint;
    const key = `${subaccount}|${asset}`;
    // An option's average entry and realized PnL are kept like a perp's, for the position reads; its
    // cash moves by the premium.
    if (inst.cfg.instrument_type !== 'erc20') realized = this.movePerp(key, before, amount, price);
    if (inst.cfg.instrument_type === 'perp') cash = realized - fee;
    else cash = -sign * mul(price, amt(inst, fill.lots)) - fee;
    if (inst.cfg.instrument_type !== 'erc20') this.keepClosed(key, before, realized, fee, now);
    if (inst.cfg.instrument_type !== 'erc20') inst.oi += max(0n, after) - max(0n, before);
    const updates = [
      this.accounts.adjust(subaccount, asset, amount),
      this.accounts.adjust(subaccount, inst.cfg.quote_currency, cash),
    ];
    return {
      updates: updates.map((u) => ({
        name: u.name,
        new_balance: fmt(u.next),
        previous_balance: fmt(u.previous),
        update_type: 'trade',
      })),
      realized,
    };
  }

  /** Add a fill's realized PnL and fee to its position's record; a position opened from flat starts anew. */
  private keepClosed(key: string, before: bigint, realized: bigint, fee: bigint, now: number): void {
    const prior = before === 0n ? undefined : this.closed.get(key);
    const since = prior?.since ?? now;
    this.closed.set(key, { realized: (prior?.realized ?? 0n) + realized, fees: (prior?.fees ?? 0n) + fee, since });
  }

  /** Move a perp position by `amount` at `price`: average in when it grows, realize PnL when it shrinks. */
  private movePerp(key: string, before: bigint, amount: bigint, price: bigint): bigint {
    const after = before + amount;
    const entry = this.entries.get(key) ?? price;
    if (before === 0n || before > 0n === amount > 0n) {
      this.entries.set(key, div(mul(abs(before), entry) + mul(abs(amount), price), abs(after)));
      return 0n;
    }
    const closed = min(abs(before), abs(amount));
    if (after === 0n) this.entries.delete(key);
    else if (after > 0n !== before > 0n) this.entries.set(key, price);
    return mul(closed, price - entry) * (before > 0n ? 1n : -1n);
  }

  /** The current balances of a subaccount as BalanceUpdate records (generated samples). */
  snapshot(subaccount: number): BalanceUpdate[] {
    const out: BalanceUpdate[] = [];
    for (const [name, amount] of this.accounts.balances.get(subaccount) ?? [])
      out.push({ name, new_balance: fmt(amount), previous_balance: fmt(amount), update_type: 'trade' });
    return out.length > 0
      ? out
      : [{ name: 'USDC', new_balance: '0', previous_balance: '0', update_type: 'asset_deposit' }];
  }
}

/**
 * Market maker protection, per subaccount and currency (private/set_mmp_config, get_mmp_config,
 * reset_mmp). The fills of orders placed with `mmp: true` are counted over the last `mmp_interval`
 * milliseconds: their total amount against `mmp_amount_limit`, their net delta (bought minus sold; a
 * perp or spot unit is delta 1, an option is counted the same, a simplification) against
 * `mmp_delta_limit`; a limit of 0 is no limit. When a fill takes either past its limit, the
 * subaccount freezes in that currency: every open `mmp` order of it there is cancelled
 * (cancel_reason `mmp_trigger`) and a new `mmp` order is refused (11000) until `mmp_frozen_time`
 * milliseconds have passed on the sandbox clock (0: until reset_mmp). Orders without `mmp` are
 * never counted, cancelled or refused.
 */
import type { MmpConfigResult } from '@exchange-api/types';
import { errorByName } from '@exchange-api/types';
import type { Clock } from '../clock';
import { abs, fixed, fmt } from '../fixed';
import { RpcFailure } from '../rpc';
import { amt, type Instrument, type Resting } from './instrument';
import type { Direction } from './types';
import type { SharedRecords } from '../state/ports';

const MMP_FROZEN = errorByName('RPC_MMP_FROZEN').code;

interface Config {
  amountLimit: bigint;
  deltaLimit: bigint;
  intervalMs: number;
  frozenMs: number;
  /** Frozen since (ms), or null. */
  frozenAt: number | null;
  fills: { at: number; amount: bigint; delta: bigint }[];
}

/** The config to set (amounts exact). */
export interface MmpSetting {
  subaccount: number;
  currency: string;
  amountLimit: bigint;
  deltaLimit: bigint;
  intervalMs: number;
  frozenMs: number;
}

/** A config as every member holds it (a fleet: state/ports.ts, SharedRecords); fills stay with each book's owner. */
type SharedConfig = Omit<MmpSetting, 'amountLimit' | 'deltaLimit'> & {
  amountLimit: string;
  deltaLimit: string;
  frozenAt: number | null;
};
const KIND = 'mmp';

const key = (subaccount: number, currency: string) => `${subaccount}|${currency}`;

/** The configs and their counts; `freeze` cancels a subaccount's open mmp orders in a currency. */
export class Mmp {
  private readonly configs = new Map<string, Config & { subaccount: number; currency: string }>();

  constructor(
    private readonly clock: Clock,
    private readonly shared: SharedRecords,
    private readonly freeze: (subaccount: number, currency: string) => void,
  ) {
    shared.on(KIND, (_key, c) => this.take(c as SharedConfig));
  }

  set(s: MmpSetting): void {
    const had = this.configs.get(key(s.subaccount, s.currency));
    this.store(s, had?.frozenAt ?? null);
    this.share(key(s.subaccount, s.currency));
  }

  private store(s: MmpSetting, frozenAt: number | null): void {
    const k = key(s.subaccount, s.currency);
    const had = this.configs.get(k);
    // A freeze lifted (reset_mmp) forgets the counts, as here.
    const fills = had && !(had.frozenAt !== null && frozenAt === null) ? had.fills : [];
    this.configs.set(k, { ...s, frozenAt, fills });
  }

  /** Tell every member of a config as it stands (its freeze included). */
  private share(k: string): void {
    const c = this.configs.get(k)!;
    const { fills: _fills, ...rest } = c;
    this.shared.put(KIND, k, { ...rest, amountLimit: fmt(c.amountLimit), deltaLimit: fmt(c.deltaLimit) });
  }

  /** A config another member shared: a freeze there cancels this member's mmp orders too. */
  private take(c: SharedConfig): void {
    const had = this.configs.get(key(c.subaccount, c.currency));
    const newlyFrozen = c.frozenAt !== null && had?.frozenAt !== c.frozenAt;
    this.store({ ...c, amountLimit: fixed(c.amountLimit), deltaLimit: fixed(c.deltaLimit) }, c.frozenAt);
    if (newlyFrozen) this.freeze(c.subaccount, c.currency);
  }

  /** Whether frozen now (a freeze with a time ends by itself). */
  private frozen(c: Config): boolean {
    if (c.frozenAt === null) return false;
    if (c.frozenMs > 0 && this.clock.now() >= c.frozenAt + c.frozenMs) {
      c.frozenAt = null;
      c.fills = [];
      return false;
    }
    return true;
  }

  /** The configs of a subaccount (of one currency, when given), as get_mmp_config answers. */
  list(subaccount: number, currency?: string | null): MmpConfigResult[] {
    return [...this.configs.values()]
      .filter((c) => c.subaccount === subaccount && (currency == null || c.currency === currency))
      .map((c) => {
        const frozen = this.frozen(c);
        return {
          subaccount_id: c.subaccount,
          currency: c.currency,
          is_frozen: frozen,
          mmp_amount_limit: fmt(c.amountLimit),
          mmp_delta_limit: fmt(c.deltaLimit),
          mmp_frozen_time: c.frozenMs,
          mmp_interval: c.intervalMs,
          mmp_unfreeze_time: frozen && c.frozenMs > 0 ? c.frozenAt! + c.frozenMs : 0,
        };
      });
  }

  /** reset_mmp: unfreeze and forget the counts (of one currency, when given). */
  reset(subaccount: number, currency?: string | null): void {
    for (const c of this.configs.values())
      if (c.subaccount === subaccount && (currency == null || c.currency === currency)) {
        c.frozenAt = null;
        c.fills = [];
        this.share(key(c.subaccount, c.currency));
      }
  }

  /** Refuse a new mmp order while its subaccount is frozen in its currency. */
  assertOpen(subaccount: number, inst: Instrument, mmp: boolean | null | undefined): void {
    if (mmp !== true) return;
    const c = this.configs.get(key(subaccount, inst.cfg.base_currency));
    if (c && this.frozen(c))
      throw new RpcFailure(
        MMP_FROZEN,
        `mmp is frozen for subaccount ${subaccount} in ${inst.cfg.base_currency}` +
          (c.frozenMs > 0 ? ` until ${c.frozenAt! + c.frozenMs}` : ' until reset_mmp'),
      );
  }

  /** Count a fill of an mmp order; freeze when it takes a total past its limit. */
  filled(inst: Instrument, r: Resting, direction: Direction, lots: number): void {
    if (!r.order.mmp) return;
    const c = this.configs.get(key(r.order.subaccount_id, inst.cfg.base_currency));
    if (!c || this.frozen(c)) return;
    const now = this.clock.now();
    const amount = amt(inst, lots);
    c.fills = c.fills.filter((f) => f.at > now - c.intervalMs);
    c.fills.push({ at: now, amount, delta: direction === 'buy' ? amount : -amount });
    const total = c.fills.reduce((s, f) => s + f.amount, 0n);
    const delta = abs(c.fills.reduce((s, f) => s + f.delta, 0n));
    if ((c.amountLimit > 0n && total > c.amountLimit) || (c.deltaLimit > 0n && delta > c.deltaLimit)) {
      c.frozenAt = now;
      this.share(key(c.subaccount, c.currency));
      // After the fill in hand has settled: the match that made it is still walking the book.
      queueMicrotask(() => this.freeze(r.order.subaccount_id, inst.cfg.base_currency));
    }
  }
}

/**
 * The client-side mirror of the server's two rate-limit tiers, so requests wait for budget instead of
 * being rejected: fixed-window budgets per rate-limit class and a token bucket per (wallet, instrument)
 * for order flow. Classes, budgets and reference values come from the tables of the API the client
 * speaks (an API without limits is not throttled); the live budgets from `public/getRateLimits`
 * correct them.
 */
import { namesInstrument, rateLimitRules, type RateLimitRules } from '@exchange-api/types';
import type { LimitTableEntry, RateLimitClassEntry, RateLimitMethodEntry } from '@exchange-api/types';
import { RateLimitError, UsageError } from './errors';
import { TokenBucket, WindowBudget, type Budget, type BucketLimit, type WindowLimit } from './limiter-budgets';

/** The tables the limiter reads: the API's methods, rate-limit classes and limits. */
export interface LimiterTables {
  readonly methods: ReadonlyArray<RateLimitMethodEntry & { readonly orderFlow?: boolean }>;
  readonly rateLimitClasses?: ReadonlyArray<RateLimitClassEntry>;
  readonly limits?: ReadonlyArray<LimitTableEntry>;
}

/** Overrides of the reference limits, by limit id (same shape as the sandbox's `limits` option). */
export type LimitOverrides = Record<
  string,
  Partial<{ points: number; windowMs: number; refillPerSecond: number; capacity: number }>
>;

/** One budget of a `public/getRateLimits` answer, as the limiter reads it. */
export interface RateLimitBudgetAnswer {
  remainingPoints: number;
  consumedPoints: number;
  msBeforeNext: number;
  isFirstInDuration?: boolean;
}

/**
 * A `public/getRateLimits` answer as the limiter reads it: a budget per rate-limit class
 * (`remaining_<class>`) and the per-method budgets (`remaining_per_endpoint`). Read field by field and
 * checked, so any object fits (the API's own result type among them).
 */
type RateLimitsAnswer = Record<string, RateLimitBudgetAnswer | undefined> & {
  remaining_per_endpoint?: Record<string, RateLimitBudgetAnswer> | null;
};

/** Limiter settings. */
export interface LimiterOptions {
  /** Deployment values that differ from the reference ones (by limit id, e.g. `matching`, `bucket_perp_spot`). */
  limits?: LimitOverrides;
  /**
   * Slack added to each wait, because the server starts its windows when requests arrive, a little
   * after the client sent them. Default 40 ms.
   */
  marginMs?: number;
  /**
   * The instrument type of a name (picks the bucket). Default: the type the server reports
   * (`public/get_instrument`, looked up by the client when an order names an instrument it has not
   * seen); an instrument still unknown draws on the table's first bucket (perps and spot).
   */
  instrumentType?: (instrumentName: string) => string | undefined;
  /** Call `public/getRateLimits` after each login to correct the budgets. Default true. */
  syncAfterLogin?: boolean;
  /**
   * How many times a request the limiter let through is sent again after the server refused it with a
   * rate-limit error and a retry hint (`Retry after N ms`): the client's window and the server's
   * disagreed at a boundary (a network delay, a busy machine). Each retry waits for the hint (the
   * budget is held until then) within the call's timeout. A refused request was not executed, so
   * sending it again is safe. Default 2; 0 hands every such refusal to the caller.
   */
  rateLimitRetries?: number;
  /**
   * The longest hint that is retried, in ms: a longer one is no boundary disagreement but a budget the
   * server sees spent (by other connections of the wallet or IP), and reaches the caller at once as a
   * RateLimitError. Default 1000.
   */
  rateLimitRetryMaxMs?: number;
}

interface Waiter {
  budgets: Budget[];
  resolve: () => void;
  reject: (err: unknown) => void;
  cleanup: () => void;
}

/** Where the limiter stood when a getRateLimits request was taken: takes per window id. */
export type LimiterMark = ReadonlyMap<string, number>;

/** Both tiers, for one client (one wallet). */
export class Limiter {
  private readonly windows = new Map<string, WindowBudget>();
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = 0;
  private readonly marginMs: number;
  private readonly windowLimits = new Map<string, WindowLimit>();
  private readonly bucketLimits: BucketLimit[] = [];
  /** Instrument types as the server reported them. */
  private readonly types = new Map<string, string>();
  private readonly noted = new Set<string>();
  private readonly rules: RateLimitRules;
  private readonly orderFlow: ReadonlySet<string>;
  private readonly classes: ReadonlyArray<RateLimitClassEntry>;
  /** Told once per instrument whose type is unknown (the request then draws on the fallback bucket). */
  onUnknownInstrument: ((instrumentName: string, bucketId: string) => void) | null = null;

  /** A limiter of the API described by `tables`; throws UsageError naming what in them (or in `options`) is wrong. */
  constructor(
    tables: LimiterTables,
    readonly options: LimiterOptions = {},
  ) {
    this.marginMs = options.marginMs ?? 40;
    try {
      this.rules = rateLimitRules(tables);
    } catch (err) {
      throw new UsageError(`limiter: ${(err as Error).message}`);
    }
    this.orderFlow = new Set(tables.methods.filter((m) => m.orderFlow).map((m) => m.name));
    this.classes = tables.rateLimitClasses ?? [];
    const limits = tables.limits ?? [];
    const ids = limits.map((l) => l.id);
    for (const key of Object.keys(options.limits ?? {})) {
      if (!ids.includes(key))
        throw new UsageError(`limiter.limits: unknown limit id '${key}' (valid ids: ${ids.join(', ') || 'none'})`);
    }
    for (const l of limits) {
      const o = options.limits?.[l.id] ?? {};
      if (l.kind === 'window') this.windowLimits.set(l.id, { ...l, ...o } as WindowLimit);
      if (l.kind === 'bucket') this.bucketLimits.push({ ...l, ...o } as BucketLimit);
    }
  }

  private window(id: string | null | undefined): WindowBudget | null {
    if (!id) return null;
    let b = this.windows.get(id);
    if (!b) {
      const l = this.windowLimits.get(id);
      if (!l) return null;
      b = new WindowBudget(id, l.points, l.windowMs, this.marginMs);
      this.windows.set(id, b);
    }
    return b;
  }

  private budgetsFor(method: string, params: unknown, authenticated: boolean): Budget[] {
    const out: Budget[] = [];
    // One client is one wallet (or, before login, one source IP), so the budget's key needs no tracking here.
    const w = this.window(this.rules.budgetOf(method, params, authenticated)?.budget);
    if (w) out.push(w);
    if (this.orderFlow.has(method) && namesInstrument(params)) {
      const name = (params as { instrument_name: string }).instrument_name;
      const l = this.bucketLimit(name);
      if (l) {
        const key = `${l.id}:${name}`;
        let b = this.buckets.get(key);
        if (!b) this.buckets.set(key, (b = new TokenBucket(l.refillPerSecond, l.capacity, this.marginMs, Date.now())));
        out.push(b);
      }
    }
    return out;
  }

  /** Record the instrument types the server reports (`public/get_instrument`'s records). */
  setInstrumentTypes(instruments: Iterable<{ instrument_name: string; instrument_type: string }>): void {
    for (const i of instruments)
      if (i && typeof i.instrument_name === 'string' && typeof i.instrument_type === 'string')
        this.types.set(i.instrument_name, i.instrument_type);
  }

  /**
   * The instrument of an order-flow request whose type the limiter does not know (and has no override
   * for), else null; null as well for an API without instrument buckets, where types pick nothing.
   */
  unknownInstrument(method: string, params: unknown): string | null {
    if (this.options.instrumentType || this.bucketLimits.length === 0) return null;
    if (!this.orderFlow.has(method) || !namesInstrument(params)) return null;
    const name = (params as { instrument_name: string }).instrument_name;
    return this.types.has(name) ? null : name;
  }

  /** The bucket limit id an instrument's order flow draws on. */
  bucketIdFor(instrumentName: string): string | null {
    return this.bucketLimit(instrumentName)?.id ?? null;
  }

  private bucketLimit(name: string): BucketLimit | undefined {
    const type = this.options.instrumentType?.(name) ?? this.types.get(name);
    const l = type === undefined ? undefined : this.bucketLimits.find((b) => b.instrumentTypes.includes(type));
    if (l) return l;
    // Unknown type: the table's first bucket (perps and spot), and a note once per instrument.
    const fallback = this.bucketLimits[0];
    if (fallback && !this.noted.has(name)) {
      this.noted.add(name);
      this.onUnknownInstrument?.(name, fallback.id);
    }
    return fallback;
  }

  /**
   * Wait until every budget the request draws from has room, then take it. Rejects with the signal's
   * reason when the signal fires first (the caller's timeout or abort). A `retry` (a request the server
   * refused, see `absorb`) waits ahead of the others: it was let through first.
   */
  acquire(method: string, params: unknown, authenticated: boolean, signal?: AbortSignal, retry = false): Promise<void> {
    const budgets = this.budgetsFor(method, params, authenticated);
    if (budgets.length === 0) return Promise.resolve();
    if (this.queue.length === 0 && budgets.every((b) => b.waitMs(Date.now()) === 0)) {
      const now = Date.now();
      for (const b of budgets) b.take(now);
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal!.reason);
        this.pump();
      };
      const waiter: Waiter = { budgets, resolve, reject, cleanup: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (retry) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  /**
   * First come, first served per budget: a waiter held up by a budget holds back later waiters on that
   * budget only, so an order waiting for one instrument's bucket does not stall the other instruments.
   */
  private pump(): void {
    const now = Date.now();
    const held = new Set<Budget>();
    let next = Infinity;
    for (let i = 0; i < this.queue.length;) {
      const w = this.queue[i]!;
      let wait = 0;
      const blocking: Budget[] = [];
      for (const b of w.budgets) {
        const ms = held.has(b) ? Infinity : b.waitMs(now);
        if (ms > 0) blocking.push(b);
        wait = Math.max(wait, ms);
      }
      if (wait === 0) {
        for (const b of w.budgets) b.take(now);
        this.queue.splice(i, 1);
        w.cleanup();
        w.resolve();
        continue;
      }
      for (const b of blocking) held.add(b);
      if (wait !== Infinity) next = Math.min(next, wait);
      i++;
    }
    if (next === Infinity) {
      if (this.timer && this.queue.length === 0) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      return;
    }
    const at = now + next;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, next);
  }

  /** After a rate-limit answer (RateLimitError) with a retry hint: hold the request's budgets for that long. */
  penalize(method: string, params: unknown, authenticated: boolean, retryAfterMs: number): void {
    const until = Date.now() + retryAfterMs + this.marginMs;
    for (const b of this.budgetsFor(method, params, authenticated)) b.blockedUntil = Math.max(b.blockedUntil, until);
  }

  /**
   * After the server refused a request this limiter let through (`err`, the `retries`-th retry so far):
   * its budgets are held for the hint, and the answer says whether to send it again (through `acquire`,
   * which waits for the hint): a server rate-limit error with a hint of at most `rateLimitRetryMaxMs`,
   * fewer than `rateLimitRetries` retries so far. Any other error: false, nothing held.
   */
  absorb(err: unknown, retries: number, method: string, params: unknown, authenticated: boolean): boolean {
    if (!(err instanceof RateLimitError) || err.local || err.retryAfterMs === null) return false;
    this.penalize(method, params, authenticated, err.retryAfterMs);
    return (
      retries < (this.options.rateLimitRetries ?? 2) && err.retryAfterMs <= (this.options.rateLimitRetryMaxMs ?? 1000)
    );
  }

  /** Takes per window so far; pass it to `sync` with the answer of a getRateLimits request taken just before. */
  mark(): LimiterMark {
    return new Map([...this.windows].map(([id, b]) => [id, b.total]));
  }

  /**
   * Correct the window budgets from a `public/getRateLimits` result. `mark` (from `mark()` right after
   * that request was taken) tells which local takes the answer cannot include; without it, what the
   * client counted in a running window is kept when it is more than the server's count.
   *
   * `msBeforeNext` is 0 whenever points remain, so then the window's end is unknown: the consumed
   * points are kept and the window is assumed to run a full `windowMs` from now (the latest it can have
   * started), so the limiter may wait longer than needed but never sends what the server would refuse.
   */
  sync(answer: object, authenticated: boolean, mark?: LimiterMark): void {
    if (!answer || typeof answer !== 'object') return;
    const result = answer as RateLimitsAnswer;
    const now = Date.now();
    const apply = (id: string | null | undefined, r: RateLimitBudgetAnswer | null | undefined) => {
      const b = this.window(id);
      if (!b || !r || typeof r !== 'object') return;
      const running = now < b.resetAt;
      const unseen = mark ? b.total - (mark.get(b.id) ?? 0) : running ? Math.max(0, b.used - r.consumedPoints) : 0;
      // With points left, remaining + consumed is the budget; with none left, refused requests may be counted too.
      if (r.remainingPoints > 0) b.points = r.remainingPoints + r.consumedPoints;
      if (r.msBeforeNext > 0) {
        // Exhausted, and the server says for how long. A window that began with this very request tells its length.
        if (r.isFirstInDuration) b.windowMs = Math.ceil(r.msBeforeNext / 10) * 10;
        b.used = Math.max(b.points, r.consumedPoints);
        b.resetAt = now + r.msBeforeNext + this.marginMs;
      } else if (r.consumedPoints > 0 || unseen > 0) {
        b.used = r.consumedPoints + unseen;
        b.resetAt = now + b.windowMs + this.marginMs;
      } else if (mark || !running) {
        // No window on the server and nothing sent since: none here either.
        b.used = 0;
        b.resetAt = 0;
      }
    };
    // One budget object per rate-limit class with a window budget (`remaining_<class>`); before login
    // the default class reports the per-IP public budget.
    for (const c of this.classes) {
      const id = authenticated ? c.budget : c.default ? this.rules.publicBudget : null;
      if (id && this.windowLimits.has(id)) apply(id, result[`remaining_${c.name}`]);
    }
    // The per-method budgets are the wallet's: before login they say nothing about this client.
    // Keyed by the rate-limit tables' names (cancel_all for the wire name private/cancel_all).
    for (const [key, r] of Object.entries((authenticated && result.remaining_per_endpoint) || {})) {
      apply(this.rules.endpointBudgetOf(this.rules.methodOfEndpointKey(key)), r);
    }
    this.pump();
  }

  /** Requests waiting for budget right now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Reject every waiter (the client is closing). */
  clear(err: unknown): void {
    for (const w of this.queue.splice(0)) {
      w.cleanup();
      w.reject(err);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

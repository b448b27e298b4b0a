/**
 * The client-side mirror of the server's two rate-limit tiers, so requests wait for budget instead of
 * being rejected: fixed-window budgets per rate-limit class and a token bucket per (wallet, instrument)
 * for order flow. Classes, budgets and reference values come from the generated tables; the live
 * budgets from `public/getRateLimits` correct them.
 */
import { limitTable, methodTable, rateLimitClassTable } from '@exchange-api/types';
import type { RateLimitsResult, RateLimitBudget } from '@exchange-api/types';

/** Overrides of the reference limits, by limit id (same shape as the sandbox's `limits` option). */
export type LimitOverrides = Record<string, Partial<{ points: number; windowMs: number; refillPerSecond: number; capacity: number }>>;

/** Limiter settings. */
export interface LimiterOptions {
  /** Deployment values that differ from the reference ones (by limit id, e.g. `matching`, `bucket_perp_spot`). */
  limits?: LimitOverrides;
  /**
   * Slack added to each wait, because the server starts its windows when requests arrive, a little
   * after the client sent them. Default 40 ms.
   */
  marginMs?: number;
  /** The instrument type of a name (picks the bucket); default: names ending in -C or -P are options, others perps. */
  instrumentType?: (instrumentName: string) => string;
  /** Call `public/getRateLimits` after each login to correct the budgets. Default true. */
  syncAfterLogin?: boolean;
}

type WindowLimit = { id: string; kind: 'window'; scope: string; points: number; windowMs: number };
type BucketLimit = { id: string; kind: 'bucket'; refillPerSecond: number; capacity: number; instrumentTypes: readonly string[] };

class WindowBudget {
  used = 0;
  /** When the current window ends (client clock, margin included); 0 when none is running. */
  resetAt = 0;
  blockedUntil = 0;
  constructor(readonly id: string, public points: number, public windowMs: number, private readonly marginMs: number) {}
  waitMs(now: number): number {
    if (now < this.blockedUntil) return this.blockedUntil - now;
    if (now >= this.resetAt || this.used < this.points) return 0;
    return this.resetAt - now;
  }
  take(now: number): void {
    if (now >= this.resetAt) {
      this.used = 0;
      this.resetAt = now + this.windowMs + this.marginMs;
    }
    this.used++;
  }
}

class TokenBucket {
  tokens: number;
  last: number;
  blockedUntil = 0;
  /** Each request is charged a little over one token, so jitter in arrival times never puts the server's bucket below ours. */
  readonly charge: number;
  readonly cap: number;
  constructor(readonly refillPerSecond: number, capacity: number, marginMs: number, now: number) {
    this.charge = 1 + Math.min(0.25, Math.max(0.02, (refillPerSecond * marginMs) / 1000));
    this.cap = capacity * this.charge;
    this.tokens = this.cap;
    this.last = now;
  }
  private refill(now: number): void {
    this.tokens = Math.min(this.cap, this.tokens + ((now - this.last) * this.refillPerSecond) / 1000);
    this.last = now;
  }
  waitMs(now: number): number {
    if (now < this.blockedUntil) return this.blockedUntil - now;
    this.refill(now);
    return this.tokens >= this.charge ? 0 : Math.ceil(((this.charge - this.tokens) * 1000) / this.refillPerSecond);
  }
  take(now: number): void {
    this.refill(now);
    this.tokens -= this.charge;
  }
}

type Budget = WindowBudget | TokenBucket;

interface Waiter {
  budgets: Budget[];
  resolve: () => void;
  reject: (err: unknown) => void;
  cleanup: () => void;
}

type MethodEntry = (typeof methodTable)[number];
const methods = new Map<string, MethodEntry>(methodTable.map((m) => [m.name, m]));
const classBudget = new Map<string, string>(rateLimitClassTable.map((c) => [c.name, c.budget]));
// Public pre-authentication traffic is keyed by source IP: the window limit with scope `ip`.
const publicBudgetId = limitTable.find((l) => l.kind === 'window' && l.scope === 'ip')?.id;

const defaultInstrumentType = (name: string): string => (/-[CP]$/.test(name) ? 'option' : 'perp');

/** Both tiers, for one client (one wallet). */
export class Limiter {
  private readonly windows = new Map<string, WindowBudget>();
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = 0;
  private readonly marginMs: number;
  private readonly instrumentType: (name: string) => string;
  private readonly windowLimits = new Map<string, WindowLimit>();
  private readonly bucketLimits: BucketLimit[] = [];

  constructor(readonly options: LimiterOptions = {}) {
    this.marginMs = options.marginMs ?? 40;
    this.instrumentType = options.instrumentType ?? defaultInstrumentType;
    for (const l of limitTable) {
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

  /** The tier-1 budget id a request draws from, or null when it has no per-request decrement. */
  budgetIdFor(method: string, params: unknown, authenticated: boolean): string | null {
    const m = methods.get(method);
    const cls = m?.rateLimitClass ?? rateLimitClassTable.find((c) => c.default)?.name;
    let id: string | null | undefined = cls ? classBudget.get(cls) : undefined;
    if (m && id === 'per-method') id = m.rateLimitBudget;
    else if (m && id === 'own-logic') {
      const rule = m.rateLimitRule as { decrement?: string; singleInstrument?: string; otherwise?: string } | null;
      if (!rule || rule.decrement === 'none') return null;
      id = hasInstrument(params) ? rule.singleInstrument : rule.otherwise;
    }
    if (!authenticated && id === classBudget.get(rateLimitClassTable.find((c) => c.default)!.name)) id = publicBudgetId;
    return id ?? null;
  }

  private budgetsFor(method: string, params: unknown, authenticated: boolean): Budget[] {
    const out: Budget[] = [];
    const w = this.window(this.budgetIdFor(method, params, authenticated));
    if (w) out.push(w);
    if (methods.get(method)?.orderFlow && hasInstrument(params)) {
      const name = (params as { instrument_name: string }).instrument_name;
      const type = this.instrumentType(name);
      const l = this.bucketLimits.find((b) => b.instrumentTypes.includes(type)) ?? this.bucketLimits[0];
      if (l) {
        const key = `${l.id}:${name}`;
        let b = this.buckets.get(key);
        if (!b) this.buckets.set(key, (b = new TokenBucket(l.refillPerSecond, l.capacity, this.marginMs, Date.now())));
        out.push(b);
      }
    }
    return out;
  }

  /**
   * Wait until every budget the request draws from has room, then take it. Rejects with the signal's
   * reason when the signal fires first (the caller's timeout or abort).
   */
  acquire(method: string, params: unknown, authenticated: boolean, signal?: AbortSignal): Promise<void> {
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
      this.queue.push(waiter);
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
    for (let i = 0; i < this.queue.length; ) {
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

  /** After a -32000 answer: hold the request's budgets for the server's retry hint. */
  penalize(method: string, params: unknown, authenticated: boolean, retryAfterMs: number): void {
    const until = Date.now() + retryAfterMs + this.marginMs;
    for (const b of this.budgetsFor(method, params, authenticated)) b.blockedUntil = Math.max(b.blockedUntil, until);
  }

  /** Correct the window budgets from a `public/getRateLimits` result. */
  sync(result: RateLimitsResult, authenticated: boolean): void {
    const defaultBudget = classBudget.get(rateLimitClassTable.find((c) => c.default)!.name);
    const apply = (id: string | null | undefined, r: RateLimitBudget | undefined) => {
      const b = this.window(id);
      if (!b || !r) return;
      const now = Date.now();
      const total = r.remainingPoints + r.consumedPoints;
      if (total > 0) b.points = total;
      // A window that began with this very request tells its length.
      if (r.isFirstInDuration && r.msBeforeNext > 0) b.windowMs = Math.ceil(r.msBeforeNext / 10) * 10;
      b.used = r.consumedPoints;
      b.resetAt = r.msBeforeNext > 0 ? now + r.msBeforeNext + this.marginMs : 0;
    };
    apply(authenticated ? defaultBudget : publicBudgetId, result.remaining_non_matching);
    if (authenticated) apply(classBudget.get('matching'), result.remaining_matching);
    for (const [method, r] of Object.entries(result.remaining_per_endpoint ?? {})) {
      const m = methods.get(method);
      const rule = m?.rateLimitRule as { otherwise?: string } | null | undefined;
      apply(m?.rateLimitBudget ?? rule?.otherwise, r);
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

function hasInstrument(params: unknown): boolean {
  return typeof params === 'object' && params !== null && typeof (params as { instrument_name?: unknown }).instrument_name === 'string';
}

/**
 * Both rate-limit tiers. Which budget a request draws on is budgetOf from @exchange-api/types (the
 * client's limiter uses the same function); the values come from limitTable through the resolved options.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import {
  budgetOf,
  classBudgetOf,
  endpointBudgetOf,
  endpointKeyOf,
  methodTable,
  publicBudget,
  rateLimitClassTable,
  type BudgetKey,
  type MethodEntry,
} from '@exchange-api/types';
import type { BucketLimit, ResolvedOptions, WindowLimit } from './options';
import { rateLimited } from './rpc';
import type { Clock } from './clock';
import type { SharedLimits, WindowCount } from './redis/shared-limits';

/** The budget object of public/getRateLimits. */
export interface Budget {
  remainingPoints: number;
  msBeforeNext: number;
  consumedPoints: number;
  isFirstInDuration: boolean;
}

/** The budget a request spent its point on, as it stood right after. */
export interface Spent {
  id: string;
  key: string;
  budget: Budget;
}

/** Who is asking: the wallet once authenticated, else the source IP. */
export interface Caller {
  wallet: string | null;
  ip: string;
}

interface Window {
  limit: WindowLimit;
  limiter: RateLimiterMemory;
}

/**
 * Tier 1 (fixed windows, rate-limiter-flexible) and tier 2 (per wallet and instrument token buckets),
 * counted in this process, or with `shared` (a fleet's, in Redis: redis/shared-limits.ts) there.
 */
export class Limits {
  private readonly windows = new Map<string, Window>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly options: ResolvedOptions,
    private readonly clock: Clock,
    private readonly shared: SharedLimits | null = null,
  ) {
    for (const limit of options.windows.values()) {
      // rate-limiter-flexible counts in seconds; fractions give the short windows tests need.
      this.windows.set(limit.id, {
        limit,
        limiter: new RateLimiterMemory({ points: limit.points, duration: limit.windowMs / 1000, keyPrefix: limit.id }),
      });
    }
  }

  /** The limit id and key a request of this method draws on, or null when it is not decremented. */
  private budgetFor(method: MethodEntry, caller: Caller, params: unknown): { id: string; key: string } | null {
    const b = budgetOf(method.name, params, caller.wallet !== null);
    return b && { id: b.budget, key: storeKey(b.key, caller, method.name) };
  }

  /**
   * Spend one point for a request, or throw -32000 with the retry hint. Never queues. Methods with no
   * per-request decrement are still refused while the caller's per-IP public budget is exhausted.
   */
  async consume(method: MethodEntry, caller: Caller, params: unknown): Promise<Spent | null> {
    const b = this.budgetFor(method, caller, params);
    if (b === null) {
      if (publicBudget) {
        const current = await this.peek(publicBudget, storeKey('ip', caller, method.name));
        if (current.remainingPoints <= 0 && current.msBeforeNext > 0) throw rateLimited(current.msBeforeNext);
      }
      return null;
    }
    const w = this.windows.get(b.id)!;
    if (this.shared) {
      const count = await this.shared.spend(w.limit, b.key);
      if (count.consumedPoints > w.limit.points) throw rateLimited(count.msBeforeNext);
      return { id: b.id, key: b.key, budget: toBudget(count, w.limit) };
    }
    try {
      return { id: b.id, key: b.key, budget: toBudget(await w.limiter.consume(b.key, 1), w.limit) };
    } catch (err) {
      if (err instanceof RateLimiterRes) throw rateLimited(err.msBeforeNext);
      throw err;
    }
  }

  /**
   * A budget as it stands, without spending. The request asking is not a request on this budget, so
   * it is never the first of the budget's window: isFirstInDuration is false (a budget the request did
   * spend on is reported from its consume, which measures it).
   */
  private async peek(id: string, key: string, spent: Spent | null = null): Promise<Budget> {
    if (spent && spent.id === id && spent.key === key) return spent.budget;
    const w = this.windows.get(id)!;
    const res = this.shared ? await this.shared.count(w.limit, key) : await w.limiter.get(key);
    if (!res) return { remainingPoints: w.limit.points, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false };
    return { ...toBudget(res, w.limit), isFirstInDuration: false };
  }

  /**
   * The getRateLimits result: `remaining_<class>` for each rate-limit class with a budget of its own
   * (before login the default class reports the per-IP public budget, which that traffic draws on),
   * and the per-method budgets. remaining_connections is added by the WebSocket transport.
   */
  async report(caller: Caller, spent: Spent | null): Promise<Record<string, Budget | Record<string, Budget>>> {
    const keyOf = (id: string, method = '') => storeKey(this.windows.get(id)!.limit.scope, caller, method);
    const result: Record<string, Budget | Record<string, Budget>> = {};
    for (const c of rateLimitClassTable) {
      const own = classBudgetOf(c.name);
      const id = caller.wallet === null && c.default && publicBudget ? publicBudget : own;
      if (id) result[`remaining_${c.name}`] = await this.peek(id, keyOf(id), spent);
    }
    const perEndpoint: Record<string, Budget> = {};
    for (const m of methodTable) {
      const id = endpointBudgetOf(m.name);
      // Keyed by the rate-limit tables' name (cancel_all for the wire name private/cancel_all).
      if (id) perEndpoint[endpointKeyOf(m.name)] = await this.peek(id, keyOf(id, m.name), spent);
    }
    result.remaining_per_endpoint = perEndpoint;
    return result;
  }

  /** Tier 2: take one token from the (wallet, instrument) bucket, or throw -32000 with the time until one refills. */
  takeToken(wallet: string, instrument: string, instrumentType: string): void | Promise<void> {
    const limit = this.bucketFor(instrumentType);
    if (!limit) return;
    const now = this.clock.now();
    const key = `${wallet}|${instrument}`;
    if (this.shared)
      return this.shared.takeToken(limit, key, now).then((wait) => {
        if (wait !== null) throw rateLimited(wait);
      });
    const b = this.buckets.get(key) ?? { tokens: limit.capacity, at: now };
    b.tokens = Math.min(limit.capacity, b.tokens + (Math.max(0, now - b.at) / 1000) * limit.refillPerSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) {
      const wait = limit.refillPerSecond > 0 ? ((1 - b.tokens) / limit.refillPerSecond) * 1000 : 60_000;
      throw rateLimited(wait);
    }
    b.tokens -= 1;
  }

  private bucketFor(instrumentType: string): BucketLimit | undefined {
    return this.options.buckets.find((b) => b.instrumentTypes.includes(instrumentType));
  }

  /**
   * Move the fixed windows forward by ms (the control plane's advance): windows that would have
   * elapsed are reset, the others keep their points with less time left. Buckets read the clock. A
   * fleet's windows are the fleet's: one member's clock does not move them.
   */
  async advance(ms: number): Promise<void> {
    if (this.shared) return;
    for (const w of this.windows.values()) {
      for (const entry of w.limiter.dump().storage as Array<{ key: string; value: number; expiresAt: number | null }>) {
        const left = entry.expiresAt === null ? Infinity : entry.expiresAt - Date.now();
        if (left <= ms) await w.limiter.delete(entry.key);
        else if (Number.isFinite(left)) await w.limiter.set(entry.key, entry.value, (left - ms) / 1000);
      }
    }
  }

  /** Drop every window record and its timer (a fleet's records stay: the other members count on them). */
  async close(): Promise<void> {
    this.buckets.clear();
    if (this.shared) return;
    for (const w of this.windows.values()) {
      for (const entry of w.limiter.dump().storage as Array<{ key: string }>) await w.limiter.delete(entry.key);
    }
  }
}

/** The rate-limiter-flexible key of a caller on a budget counted per `key`. */
function storeKey(key: BudgetKey, caller: Caller, method: string): string {
  if (key === 'ip' || caller.wallet === null) return `ip:${caller.ip}`;
  return key === 'wallet-method' ? `wallet:${caller.wallet}:${method}` : `wallet:${caller.wallet}`;
}

function toBudget(res: RateLimiterRes | WindowCount, limit: WindowLimit): Budget {
  const remaining = Math.max(0, limit.points - res.consumedPoints);
  const reset = Math.max(0, Math.ceil(res.msBeforeNext));
  return {
    remainingPoints: remaining,
    // The document: milliseconds until the next request is allowed, 0 when one may go through now.
    msBeforeNext: remaining > 0 ? 0 : reset,
    consumedPoints: res.consumedPoints,
    isFirstInDuration: res.isFirstInDuration,
  };
}

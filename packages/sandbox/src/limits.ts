/**
 * Both rate-limit tiers. Which budget a request draws on is budgetOf from @exchange-api/types (the
 * client's limiter uses the same function); the values come from limitTable through the resolved options.
 */
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
import type { Budget, BucketStore, WindowCount, WindowStore } from './state/ports';

export type { Budget } from './state/ports';

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

/**
 * Tier 1 (fixed windows) and tier 2 (per wallet and instrument token buckets): which budget a request
 * draws on and what the answer says; where the counts live is the stores' (state/ports.ts).
 */
export class Limits {
  constructor(
    private readonly options: ResolvedOptions,
    private readonly clock: Clock,
    private readonly windows: WindowStore,
    private readonly buckets: BucketStore,
  ) {}

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
    const limit = this.limitOf(b.id);
    const count = await this.windows.spend(limit, b.key);
    if (count.consumedPoints > limit.points) throw rateLimited(count.msBeforeNext);
    return { id: b.id, key: b.key, budget: toBudget(count, limit) };
  }

  private limitOf(id: string): WindowLimit {
    return this.options.windows.get(id)!;
  }

  /**
   * A budget as it stands, without spending. The request asking is not a request on this budget, so
   * it is never the first of the budget's window: isFirstInDuration is false (a budget the request did
   * spend on is reported from its consume, which measures it).
   */
  private async peek(id: string, key: string, spent: Spent | null = null): Promise<Budget> {
    if (spent && spent.id === id && spent.key === key) return spent.budget;
    const limit = this.limitOf(id);
    const res = await this.windows.count(limit, key);
    if (!res) return { remainingPoints: limit.points, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false };
    return { ...toBudget(res, limit), isFirstInDuration: false };
  }

  /**
   * The getRateLimits result: `remaining_<class>` for each rate-limit class with a budget of its own
   * (before login the default class reports the per-IP public budget, which that traffic draws on),
   * and the per-method budgets. remaining_connections is added by the WebSocket transport.
   */
  async report(caller: Caller, spent: Spent | null): Promise<Record<string, Budget | Record<string, Budget>>> {
    const keyOf = (id: string, method = '') => storeKey(this.limitOf(id).scope, caller, method);
    // Every budget is read at once: a fleet's are in Redis, and one round trip each in turn adds up.
    const classes = rateLimitClassTable.flatMap((c) => {
      const own = classBudgetOf(c.name);
      const id = caller.wallet === null && c.default && publicBudget ? publicBudget : own;
      return id ? [{ name: `remaining_${c.name}`, budget: this.peek(id, keyOf(id), spent) }] : [];
    });
    const endpoints = methodTable.flatMap((m) => {
      const id = endpointBudgetOf(m.name);
      // Keyed by the rate-limit tables' name (cancel_all for the wire name private/cancel_all).
      return id ? [{ name: endpointKeyOf(m.name), budget: this.peek(id, keyOf(id, m.name), spent) }] : [];
    });
    const [ofClasses, ofEndpoints] = await Promise.all([
      Promise.all(classes.map((c) => c.budget)),
      Promise.all(endpoints.map((e) => e.budget)),
    ]);
    const result: Record<string, Budget | Record<string, Budget>> = {};
    classes.forEach((c, i) => (result[c.name] = ofClasses[i]!));
    const perEndpoint: Record<string, Budget> = {};
    endpoints.forEach((e, i) => (perEndpoint[e.name] = ofEndpoints[i]!));
    result.remaining_per_endpoint = perEndpoint;
    return result;
  }

  /** Tier 2: take one token from the (wallet, instrument) bucket, or throw -32000 with the time until one refills. */
  takeToken(wallet: string, instrument: string, instrumentType: string): void | Promise<void> {
    const limit = this.bucketFor(instrumentType);
    if (!limit) return;
    const wait = this.buckets.take(limit, `${wallet}|${instrument}`, this.clock.now());
    if (wait === null) return;
    if (typeof wait === 'number') throw rateLimited(wait);
    return wait.then((ms) => {
      if (ms !== null) throw rateLimited(ms);
    });
  }

  /** Requests per second a window limit allows, as configured (private/get_account reports them). */
  tps(id: string): number {
    const w = this.options.windows.get(id);
    return w ? w.points / (w.windowMs / 1000) : 0;
  }

  /** Orders per second an instrument type's bucket refills, as configured. */
  refill(instrumentType: string): number {
    return this.bucketFor(instrumentType)?.refillPerSecond ?? 0;
  }

  private bucketFor(instrumentType: string): BucketLimit | undefined {
    return this.options.buckets.find((b) => b.instrumentTypes.includes(instrumentType));
  }

  /**
   * Move the fixed windows forward by ms (the control plane's advance): windows that would have
   * elapsed are reset, the others keep their points with less time left (a fleet's windows are the
   * fleet's: one member's clock does not move them). Buckets read the clock.
   */
  advance(ms: number): Promise<void> {
    return this.windows.advance(ms);
  }

  /** Drop this process's records and timers. */
  async close(): Promise<void> {
    this.buckets.close();
    await this.windows.close();
  }
}

/** The rate-limiter-flexible key of a caller on a budget counted per `key`. */
function storeKey(key: BudgetKey, caller: Caller, method: string): string {
  if (key === 'ip' || caller.wallet === null) return `ip:${caller.ip}`;
  return key === 'wallet-method' ? `wallet:${caller.wallet}:${method}` : `wallet:${caller.wallet}`;
}

function toBudget(res: WindowCount, limit: WindowLimit): Budget {
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

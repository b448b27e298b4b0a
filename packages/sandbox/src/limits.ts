/**
 * Both rate-limit tiers. Which budget a method draws on comes from methodTable (class, budget, rule)
 * and rateLimitClassTable; the values from limitTable through the resolved options.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { methodTable, rateLimitClassTable, type MethodEntry } from '@exchange-api/types';
import type { BucketLimit, ResolvedOptions, WindowLimit } from './options';
import { RpcFailure, retryHint } from './rpc';
import type { Clock } from './clock';

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

const classBudget = new Map<string, string>(rateLimitClassTable.map((c) => [c.name, c.budget]));
const defaultClass = rateLimitClassTable.find((c) => c.default)?.name ?? 'non_matching';

/** Tier 1 (fixed windows, rate-limiter-flexible) and tier 2 (per wallet and instrument token buckets). */
export class Limits {
  private readonly windows = new Map<string, Window>();
  private readonly publicId: string | null;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly options: ResolvedOptions,
    private readonly clock: Clock,
  ) {
    for (const limit of options.windows.values()) {
      // rate-limiter-flexible counts in seconds; fractions give the short windows tests need.
      this.windows.set(limit.id, { limit, limiter: new RateLimiterMemory({ points: limit.points, duration: limit.windowMs / 1000, keyPrefix: limit.id }) });
    }
    // Pre-authentication traffic is keyed by IP: the window limit whose scope is the IP.
    this.publicId = [...options.windows.values()].find((w) => w.scope === 'ip')?.id ?? null;
  }

  /** The limit id and key a request of this method draws on, or null when it is not decremented. */
  private budgetFor(method: MethodEntry, caller: Caller, params: unknown): { id: string; key: string } | null {
    const cls = method.rateLimitClass ?? defaultClass;
    const budget = classBudget.get(cls) ?? defaultClass;
    let id: string | null;
    if (budget === 'per-method') id = method.rateLimitBudget;
    else if (budget === 'own-logic') {
      const rule = method.rateLimitRule as { decrement?: string; singleInstrument?: string; otherwise?: string } | null;
      if (!rule || rule.decrement === 'none') return null;
      const single = typeof (params as { instrument_name?: unknown } | null)?.instrument_name === 'string';
      id = (single ? rule.singleInstrument : rule.otherwise) ?? null;
    } else id = budget;
    if (!id) return null;
    const w = this.windows.get(id);
    if (!w) return null;
    if (caller.wallet === null) {
      // Before login only public traffic reaches here (private methods need login first).
      return this.publicId ? { id: this.publicId, key: `ip:${caller.ip}` } : null;
    }
    const key = w.limit.scope === 'wallet-method' ? `wallet:${caller.wallet}:${method.name}` : w.limit.scope === 'ip' ? `ip:${caller.ip}` : `wallet:${caller.wallet}`;
    return { id, key };
  }

  /**
   * Spend one point for a request, or throw -32000 with the retry hint. Never queues. Methods with no
   * per-request decrement are still refused while the caller's per-IP public budget is exhausted.
   */
  async consume(method: MethodEntry, caller: Caller, params: unknown): Promise<Spent | null> {
    const b = this.budgetFor(method, caller, params);
    if (b === null) {
      if (this.publicId) {
        const current = await this.peek(this.publicId, `ip:${caller.ip}`);
        if (current.remainingPoints <= 0 && current.msBeforeNext > 0) throw new RpcFailure(-32000, retryHint(current.msBeforeNext));
      }
      return null;
    }
    const w = this.windows.get(b.id)!;
    try {
      return { id: b.id, key: b.key, budget: toBudget(await w.limiter.consume(b.key, 1), w.limit) };
    } catch (err) {
      if (err instanceof RateLimiterRes) throw new RpcFailure(-32000, retryHint(err.msBeforeNext));
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
    const res = await w.limiter.get(key);
    if (!res) return { remainingPoints: w.limit.points, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false };
    return { ...toBudget(res, w.limit), isFirstInDuration: false };
  }

  /** The getRateLimits result (remaining_connections is added by the WebSocket transport). */
  async report(caller: Caller, spent: Spent | null): Promise<{ remaining_matching: Budget; remaining_non_matching: Budget; remaining_per_endpoint: Record<string, Budget> }> {
    const wallet = caller.wallet;
    const keyOf = (id: string, method?: string) => {
      const scope = this.windows.get(id)?.limit.scope;
      if (wallet === null || scope === 'ip') return `ip:${caller.ip}`;
      return scope === 'wallet-method' ? `wallet:${wallet}:${method}` : `wallet:${wallet}`;
    };
    const nonMatchingId = wallet === null && this.publicId ? this.publicId : (classBudget.get('non_matching') ?? 'non_matching');
    const matchingId = classBudget.get('matching') ?? 'matching';
    const perEndpoint: Record<string, Budget> = {};
    for (const m of methodTable) {
      const rule = m.rateLimitRule as { otherwise?: string } | null;
      const id = m.rateLimitBudget ?? rule?.otherwise ?? null;
      if (id && this.windows.has(id)) perEndpoint[m.name] = await this.peek(id, keyOf(id, m.name), spent);
    }
    return {
      remaining_matching: await this.peek(matchingId, keyOf(matchingId), spent),
      remaining_non_matching: await this.peek(nonMatchingId, keyOf(nonMatchingId), spent),
      remaining_per_endpoint: perEndpoint,
    };
  }

  /** Tier 2: take one token from the (wallet, instrument) bucket, or throw -32000 with the time until one refills. */
  takeToken(wallet: string, instrument: string, instrumentType: string): void {
    const limit = this.bucketFor(instrumentType);
    if (!limit) return;
    const now = this.clock.now();
    const key = `${wallet}|${instrument}`;
    const b = this.buckets.get(key) ?? { tokens: limit.capacity, at: now };
    b.tokens = Math.min(limit.capacity, b.tokens + (Math.max(0, now - b.at) / 1000) * limit.refillPerSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) {
      const wait = limit.refillPerSecond > 0 ? ((1 - b.tokens) / limit.refillPerSecond) * 1000 : 60_000;
      throw new RpcFailure(-32000, retryHint(wait));
    }
    b.tokens -= 1;
  }

  private bucketFor(instrumentType: string): BucketLimit | undefined {
    return this.options.buckets.find((b) => b.instrumentTypes.includes(instrumentType));
  }

  /**
   * Move the fixed windows forward by ms (the control plane's advance): windows that would have
   * elapsed are reset, the others keep their points with less time left. Buckets read the clock.
   */
  async advance(ms: number): Promise<void> {
    for (const w of this.windows.values()) {
      for (const entry of w.limiter.dump().storage as Array<{ key: string; value: number; expiresAt: number | null }>) {
        const left = entry.expiresAt === null ? Infinity : entry.expiresAt - Date.now();
        if (left <= ms) await w.limiter.delete(entry.key);
        else if (Number.isFinite(left)) await w.limiter.set(entry.key, entry.value, (left - ms) / 1000);
      }
    }
  }

  /** Drop every window record and its timer. */
  async close(): Promise<void> {
    for (const w of this.windows.values()) {
      for (const entry of w.limiter.dump().storage as Array<{ key: string }>) await w.limiter.delete(entry.key);
    }
    this.buckets.clear();
  }
}

function toBudget(res: RateLimiterRes, limit: WindowLimit): Budget {
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

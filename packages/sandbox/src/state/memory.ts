/**
 * The memory adapters of the state ports (one process): fixed windows on rate-limiter-flexible's
 * RateLimiterMemory, token buckets in a map, and the lone sandbox's state as a whole (its slots are
 * admission.ts's, its nonces actions.ts's NonceBook, its bus the subscription index itself).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { BucketLimit, ResolvedOptions, WindowLimit } from '../options';
import { Admission } from '../admission';
import { NonceBook } from '../actions';
import type { BucketStore, NonceStore, WindowCount, WindowStore } from './ports';
import type { SandboxState } from './sandbox-state';
import { LocalRecords } from './local-records';

/** Tier-1 windows in this process: rate-limiter-flexible's RateLimiterMemory, one per budget. */
export class MemoryWindows implements WindowStore {
  private readonly limiters = new Map<string, RateLimiterMemory>();

  constructor(windows: Iterable<WindowLimit>) {
    for (const limit of windows)
      // rate-limiter-flexible counts in seconds; fractions give the short windows tests need.
      this.limiters.set(
        limit.id,
        new RateLimiterMemory({ points: limit.points, duration: limit.windowMs / 1000, keyPrefix: limit.id }),
      );
  }

  async spend(limit: WindowLimit, key: string): Promise<WindowCount> {
    try {
      return await this.limiters.get(limit.id)!.consume(key, 1);
    } catch (err) {
      // Refused: the count as it stands (over the limit), as the Redis adapter answers it.
      if (err instanceof RateLimiterRes) return err;
      throw err;
    }
  }

  async count(limit: WindowLimit, key: string): Promise<WindowCount | null> {
    return this.limiters.get(limit.id)!.get(key);
  }

  /** Windows that would have elapsed are reset; the others keep their points with less time left. */
  async advance(ms: number): Promise<void> {
    for (const limiter of this.limiters.values()) {
      for (const entry of records(limiter)) {
        const left = entry.expiresAt === null ? Infinity : entry.expiresAt - Date.now();
        if (left <= ms) await limiter.delete(entry.key);
        else if (Number.isFinite(left)) await limiter.set(entry.key, entry.value, (left - ms) / 1000);
      }
    }
  }

  /** Drop every record and its timer. */
  async close(): Promise<void> {
    for (const limiter of this.limiters.values()) for (const entry of records(limiter)) await limiter.delete(entry.key);
  }
}

/** The records of a RateLimiterMemory (its dump: keys with their prefix, as delete and set take them). */
function records(limiter: RateLimiterMemory) {
  return limiter.dump().storage as Array<{ key: string; value: number; expiresAt: number | null }>;
}

/** Tier-2 buckets in this process, refilled by the sandbox clock. */
export class MemoryBuckets implements BucketStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  take(limit: BucketLimit, key: string, now: number): number | null {
    const k = `${limit.id}|${key}`;
    const b = this.buckets.get(k) ?? { tokens: limit.capacity, at: now };
    b.tokens = Math.min(limit.capacity, b.tokens + (Math.max(0, now - b.at) / 1000) * limit.refillPerSecond);
    b.at = now;
    this.buckets.set(k, b);
    if (b.tokens < 1) return limit.refillPerSecond > 0 ? ((1 - b.tokens) / limit.refillPerSecond) * 1000 : 60_000;
    b.tokens -= 1;
    return null;
  }

  close(): void {
    this.buckets.clear();
  }
}

/** The nonces of this process (NonceBook) as the nonce port. */
class MemoryNonces extends NonceBook implements NonceStore {}

/** The state of a sandbox alone: everything in this process, no bus but its own subscribers. */
export function memoryState(options: ResolvedOptions): SandboxState {
  return {
    windows: new MemoryWindows(options.windows.values()),
    buckets: new MemoryBuckets(),
    slots: new Admission(options.maxConnections),
    nonces: new MemoryNonces(),
    shared: new LocalRecords(),
    ownership: null,
    publisher: (index) => index.publisher,
    router: () => null,
    member: null,
    start: async () => {},
    leave: async () => {},
  };
}

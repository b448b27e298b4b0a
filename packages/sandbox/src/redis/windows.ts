/**
 * Tier-1 fixed windows over a fleet, in Redis: one counter per budget and key, created with the window's
 * expiry by the request that opens it, so every member counts against the same window. A window of
 * whole seconds (every window of the document) is rate-limiter-flexible's RateLimiterRedis; it counts
 * in whole seconds (a window under a second would never expire), so a window with a fraction of a
 * second (tests) is counted by our own script, the same way in milliseconds.
 */
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { WindowLimit } from '../options';
import type { WindowCount, WindowStore } from '../state/ports';
import { guarded, type RedisClient as Redis } from './connect';
import { keys } from './keys';
import { answer, run, script } from './scripts';
import type { FaultSink } from './slots';

/** KEYS: window; ARGV: window ms. Opens the window when there is none, spends one point: {used, ms left}. */
const SPEND = script(
  'xsbWindowSpend',
  1,
  `
redis.call('SET', KEYS[1], 0, 'PX', ARGV[1], 'NX')
local used = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {used, ttl}`,
  answer.ints(2),
);

/** The fleet's fixed windows. */
export class RedisWindows implements WindowStore {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    windows: Iterable<WindowLimit>,
    private readonly fault: FaultSink,
  ) {
    for (const limit of windows) {
      if (limit.windowMs % 1000 !== 0) continue;
      this.limiters.set(
        limit.id,
        new RateLimiterRedis({
          storeClient: redis,
          points: limit.points,
          duration: limit.windowMs / 1000,
          keyPrefix: keys.windowPrefix(limit.id),
          // Never counted on a guess: while Redis is away the request is refused with the cause (connect.ts).
          rejectIfRedisNotReady: true,
        }),
      );
    }
  }

  async spend(limit: WindowLimit, key: string): Promise<WindowCount> {
    const limiter = this.limiters.get(limit.id);
    if (!limiter) {
      const [used, ttl] = await guarded(
        () => run(this.redis, SPEND, [keys.window(limit.id, key)], [limit.windowMs]),
        (err) => this.fault(`spending a point of ${limit.id}`, err),
      );
      return { consumedPoints: used!, msBeforeNext: ttl!, isFirstInDuration: used === 1 };
    }
    return guarded(
      async () => {
        try {
          return await limiter.consume(key, 1);
        } catch (err) {
          // Refused: the count as it stands (over the limit); anything else is Redis failing.
          if (err instanceof RateLimiterRes) return err;
          throw err;
        }
      },
      (err) => this.fault(`spending a point of ${limit.id}`, err),
    );
  }

  /**
   * Read as rate-limiter-flexible's get reads it (the count and its time left), without its MULTI: a
   * read of one key needs no transaction, and getRateLimits reads many.
   */
  async count(limit: WindowLimit, key: string): Promise<WindowCount | null> {
    const k = keys.window(limit.id, key);
    const [used, ttl] = await guarded(
      () => Promise.all([this.redis.get(k), this.redis.pttl(k)]),
      (err) => this.fault(`reading ${limit.id}`, err),
    );
    if (used === null || ttl < 0) return null;
    return { consumedPoints: Number(used), msBeforeNext: ttl, isFirstInDuration: false };
  }

  /** The fleet's windows run on Redis's clock: one member's clock does not move them. */
  async advance(): Promise<void> {}

  /** The records stay: the other members count on them (they expire by themselves). */
  async close(): Promise<void> {}
}

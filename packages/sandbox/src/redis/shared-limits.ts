/**
 * Both rate-limit tiers over a fleet, atomically in Redis: the document's fixed windows (one counter
 * per budget and key, created with the window's expiry by the request that opens it, so every member
 * counts against the same window) and the per (wallet, instrument) token buckets (refilled and taken
 * in one script). Limits (../limits.ts) keeps choosing which budget a request draws on; only where
 * the count lives changes.
 */
import type { Redis } from 'ioredis';
import type { BucketLimit, WindowLimit } from '../options';
import { keys } from './keys';
import { guarded } from './connect';

/** A window's count as it stands: what rate-limiter-flexible reports for it. */
export interface WindowCount {
  consumedPoints: number;
  msBeforeNext: number;
  isFirstInDuration: boolean;
}

/** KEYS: window; ARGV: window ms. Opens the window when there is none, spends one point. */
const SPEND = `
redis.call('SET', KEYS[1], 0, 'PX', ARGV[1], 'NX')
local used = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {used, ttl}`;

/**
 * KEYS: bucket; ARGV: capacity, refill per second, now (ms). Refill, then take one token; returns
 * {1} or {0, ms until one is back} (as text: Lua numbers reach the client truncated).
 */
const TAKE_TOKEN = `
local cap = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local v = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(v[1]) or cap
local at = tonumber(v[2]) or now
tokens = math.min(cap, tokens + math.max(0, now - at) / 1000 * rate)
local keep = 60000
if rate > 0 then keep = math.ceil(cap / rate * 1000) + 1000 end
if tokens < 1 then
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(math.max(now, at)))
  redis.call('PEXPIRE', KEYS[1], keep)
  if rate > 0 then return {0, tostring((1 - tokens) / rate * 1000)} end
  return {0, '60000'}
end
redis.call('HSET', KEYS[1], 't', tostring(tokens - 1), 'at', tostring(math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], keep)
return {1}`;

/** The fleet's rate-limit counts. */
export class SharedLimits {
  constructor(private readonly redis: Redis) {}

  /** Spend one point of a window; the count as it stands after (over the limit when consumedPoints > points). */
  async spend(limit: WindowLimit, key: string): Promise<WindowCount> {
    const [used, ttl] = await guarded(
      () => this.redis.eval(SPEND, 1, keys.window(limit.id, key), limit.windowMs) as Promise<[number, number]>,
    );
    return { consumedPoints: used, msBeforeNext: ttl, isFirstInDuration: used === 1 };
  }

  /** A window's count without spending, or null when no window is open. */
  async count(limit: WindowLimit, key: string): Promise<WindowCount | null> {
    const k = keys.window(limit.id, key);
    const [used, ttl] = await guarded(() => Promise.all([this.redis.get(k), this.redis.pttl(k)]));
    if (used === null || ttl < 0) return null;
    return { consumedPoints: Number(used), msBeforeNext: ttl, isFirstInDuration: false };
  }

  /** Take one token of a bucket; the wait in ms when there is none, else null. */
  async takeToken(limit: BucketLimit, key: string, nowMs: number): Promise<number | null> {
    const res = await guarded(
      () =>
        this.redis.eval(
          TAKE_TOKEN,
          1,
          keys.bucket(limit.id, key),
          limit.capacity,
          limit.refillPerSecond,
          nowMs,
        ) as Promise<[number, string?]>,
    );
    return res[0] === 1 ? null : Number(res[1]);
  }
}

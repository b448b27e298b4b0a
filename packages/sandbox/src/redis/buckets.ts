/**
 * Tier-2 token buckets over a fleet: per (wallet, instrument), refilled and taken in one script, by
 * the clock of the member asking (the sandbox's movable clock, which tests move to refill a bucket).
 */
import type { BucketLimit } from '../options';
import type { BucketStore } from '../state/ports';
import { guarded, type RedisClient as Redis } from './connect';
import { keys } from './keys';
import { run, script } from './scripts';
import type { FaultSink } from './slots';

/**
 * KEYS: bucket; ARGV: capacity, refill per second, now (ms). Refill, then take one token; returns
 * {1} or {0, ms until one is back} (as text: Lua numbers reach the client truncated).
 */
const TAKE_TOKEN = script(
  'xsbBucketTake',
  1,
  `
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
return {1}`,
  (raw): number | null | undefined => {
    if (!Array.isArray(raw)) return undefined;
    if (raw.length === 1 && raw[0] === 1) return null;
    const wait = raw.length === 2 && raw[0] === 0 ? Number(raw[1]) : NaN;
    return Number.isFinite(wait) ? wait : undefined;
  },
);

/** The fleet's token buckets. */
export class RedisBuckets implements BucketStore {
  constructor(
    private readonly redis: Redis,
    private readonly fault: FaultSink,
  ) {}

  take(limit: BucketLimit, key: string, nowMs: number): Promise<number | null> {
    return guarded(
      () => run(this.redis, TAKE_TOKEN, [keys.bucket(limit.id, key)], [limit.capacity, limit.refillPerSecond, nowMs]),
      (err) => this.fault(`taking a token of ${limit.id}`, err),
    );
  }

  /** The buckets stay: the other members count on them (they expire by themselves). */
  close(): void {}
}

/**
 * The per-IP connection limit over a fleet: one count per IP in Redis, kept per member, taken and given
 * back atomically by Lua. A member that dies without giving its slots back is found dead (its slots key,
 * which outlives the alive key by SLOTS_GRACE_MS, is gone) by the next script that reads the IP, and its
 * slots are dropped then.
 */
import type { Redis } from 'ioredis';
import type { Slots } from '../admission';
import type { Budget } from '../limits';
import { keys } from './keys';
import { guarded } from './connect';

/** The live members' slots of an IP (dead members' dropped); shared by the scripts below. */
const LIVE_TOTAL = `
local all = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #all, 2 do
  if all[i] == ARGV[1] or redis.call('EXISTS', ARGV[2] .. all[i]) == 1 then
    total = total + tonumber(all[i + 1])
  else
    redis.call('HDEL', KEYS[1], all[i])
  end
end
`;

/** KEYS: slots, first; ARGV: member, alive prefix, max, connection. Returns 1 when taken, else 0. */
const TAKE = `${LIVE_TOTAL}
if total >= tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if total == 0 then redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[4]) end
return 1`;

/** KEYS: slots, first; ARGV: member. */
const RELEASE = `
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
return left`;

/** KEYS: slots, first; ARGV: member, alive prefix. Returns the live total and who opened the run. */
const REPORT = `${LIVE_TOTAL}
return {total, redis.call('GET', KEYS[2]) or ''}`;

/** The fleet's connection slots, as this member takes and reports them. */
export class SharedAdmission implements Slots {
  readonly shared = true;
  /** What this member holds, to give back when it closes. */
  private readonly held = new Map<string, number>();
  /** IPs whose slot could not be given back (Redis was away). */
  private readonly unsynced = new Set<string>();

  constructor(
    private readonly redis: Redis,
    private readonly member: string,
    private readonly max: number,
  ) {}

  async tryTake(ip: string, id: number): Promise<boolean> {
    const taken = await guarded(
      () =>
        this.redis.eval(
          TAKE,
          2,
          keys.connections(ip),
          keys.connectionsFirst(ip),
          this.member,
          keys.slotsAlivePrefix,
          this.max,
          id,
        ) as Promise<number>,
    );
    if (taken === 1) this.held.set(ip, (this.held.get(ip) ?? 0) + 1);
    return taken === 1;
  }

  release(ip: string): void {
    const n = (this.held.get(ip) ?? 1) - 1;
    if (n > 0) this.held.set(ip, n);
    else this.held.delete(ip);
    // Not given back while Redis is away: resync() writes the count again once it is back.
    this.redis
      .eval(RELEASE, 2, keys.connections(ip), keys.connectionsFirst(ip), this.member)
      .catch(() => this.unsynced.add(ip));
  }

  /** Write this member's count of each IP again (Redis came back: releases may have failed, or it restarted empty). */
  async resync(): Promise<void> {
    const ips = new Set([...this.held.keys(), ...this.unsynced]);
    this.unsynced.clear();
    for (const ip of ips) {
      const n = this.held.get(ip) ?? 0;
      const key = keys.connections(ip);
      await (n > 0 ? this.redis.hset(key, this.member, n) : this.redis.hdel(key, this.member));
    }
  }

  async report(ip: string, id: number): Promise<Budget> {
    const [count, first] = await guarded(
      () =>
        this.redis.eval(
          REPORT,
          2,
          keys.connections(ip),
          keys.connectionsFirst(ip),
          this.member,
          keys.slotsAlivePrefix,
        ) as Promise<[number, string]>,
    );
    return {
      remainingPoints: Math.max(0, this.max - count),
      msBeforeNext: 0,
      consumedPoints: count,
      isFirstInDuration: first === `${this.member}:${id}`,
    };
  }

  /** Give back every slot this member holds (it is closing). */
  async clear(): Promise<void> {
    const ips = [...this.held.keys()];
    this.held.clear();
    await Promise.all(
      ips.map((ip) =>
        this.redis
          .multi()
          .hdel(keys.connections(ip), this.member)
          .exec()
          .catch(() => {}),
      ),
    );
  }
}

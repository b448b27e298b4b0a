/**
 * The per-IP connection limit over a fleet: one hash per IP in Redis holding each member's count and
 * until when it counts (Redis time: member@ → ms), taken and given back atomically by scripts. Each
 * member moves its until forward every cycle for the IPs it holds, so the slots of a member that died
 * without giving them back lapse SLOTS_GRACE_MS after its last cycle, dropped by the next script that
 * reads the IP. Every key of an IP shares its hash tag (keys.ts), so each script's keys share a slot.
 *
 * After Redis lost the shared state (recovery.ts) every member writes its counts again (sync); until the
 * members alive before the loss have, a new connection is refused, and a slot taken is confirmed against
 * the generation marker, so one counted in an emptied Redis is never taken for the IP's only one.
 */
import type { Budget, SlotStore } from '../state/ports';
import { keys } from './keys';
import { guarded, type FaultSink, type RedisClient as Redis } from './connect';
import { answer, REDIS_NOW, run, script } from './scripts';
import { SLOTS_GRACE_MS } from './members';
import { RESTORING, type Generation } from './recovery';
import { RpcFailure } from '../rpc';

/** The live members' slots of an IP (lapsed members' dropped) as `total`; ARGV[1] is the asking member. */
const LIVE_TOTAL = `${REDIS_NOW}
local all = redis.call('HGETALL', KEYS[1])
local counts, untils = {}, {}
for i = 1, #all, 2 do
  local f = all[i]
  if string.sub(f, -1) == '@' then untils[string.sub(f, 1, -2)] = tonumber(all[i + 1])
  else counts[f] = tonumber(all[i + 1]) end
end
local total = 0
for m, n in pairs(counts) do
  if m == ARGV[1] or (untils[m] and untils[m] > now) then total = total + n
  else redis.call('HDEL', KEYS[1], m, m .. '@') end
end
for m, _ in pairs(untils) do
  if not counts[m] then redis.call('HDEL', KEYS[1], m .. '@') end
end
`;

/** KEYS: slots, first; ARGV: member, max, connection, grace ms. 1 when taken, else 0. */
const TAKE = script(
  'xsbSlotTake',
  2,
  `${LIVE_TOTAL}
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSET', KEYS[1], ARGV[1] .. '@', now + tonumber(ARGV[4]))
if total == 0 then redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[3]) end
return 1`,
  answer.int,
);

/** KEYS: slots, first; ARGV: member. Returns what the member still holds. */
const RELEASE = script(
  'xsbSlotRelease',
  2,
  `
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1], ARGV[1] .. '@') end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
return left`,
  answer.int,
);

/** KEYS: slots; ARGV: member, count, grace ms. Sets what the member holds (0: nothing) and moves its until. */
const HOLD = script(
  'xsbSlotHold',
  1,
  `${REDIS_NOW}
if tonumber(ARGV[2]) > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2], ARGV[1] .. '@', now + tonumber(ARGV[3]))
else
  redis.call('HDEL', KEYS[1], ARGV[1], ARGV[1] .. '@')
end
return 1`,
  answer.int,
);

/** KEYS: slots, first; ARGV: member. Returns the live total and who opened the run. */
const REPORT = script(
  'xsbSlotReport',
  2,
  `${LIVE_TOTAL}
return {total, redis.call('GET', KEYS[2]) or ''}`,
  (raw): [number, string] | undefined =>
    Array.isArray(raw) && Number.isInteger(raw[0]) && typeof raw[1] === 'string' ? [raw[0], raw[1]] : undefined,
);

export type { FaultSink } from './connect';

/** The fleet's connection slots, as this member takes and reports them. */
export class RedisSlots implements SlotStore {
  /** What this member holds, to hold again each cycle and give back when it closes. */
  private readonly held = new Map<string, number>();
  /**
   * Takes sent and not yet answered, by IP. A cycle's HOLD counts them: queued after a TAKE on the same
   * connection, a HOLD of `held` alone wrote a count one short over the TAKE's, and the next connection of
   * the IP was served over the limit (a loaded run: five connections on a limit of four). A refused take
   * counted so is corrected at the next cycle (unsynced): for a moment one too many, never one too few.
   */
  private readonly taking = new Map<string, number>();
  /** IPs whose count in Redis may be wrong (a release failed while Redis was away). */
  private readonly unsynced = new Set<string>();
  /** Cleared (leaving): every slot of ours was given back at once, none is given back one by one. */
  private cleared = false;

  constructor(
    private readonly redis: Redis,
    private readonly member: string,
    private readonly max: number,
    private readonly generation: Generation,
    private readonly fault: FaultSink,
  ) {}

  async tryTake(ip: string, id: number): Promise<boolean> {
    if (this.generation.restoring) throw new Error(RESTORING);
    const slots = [keys.connections(ip), keys.connectionsFirst(ip)];
    this.taking.set(ip, (this.taking.get(ip) ?? 0) + 1);
    let taken: number;
    try {
      taken = await guarded(
        () => run(this.redis, TAKE, slots, [this.member, this.max, id, SLOTS_GRACE_MS]),
        (err) => this.fault(`taking a connection slot of ${ip}`, err),
      );
    } catch (err) {
      this.unsynced.add(ip);
      throw err;
    } finally {
      this.untake(ip);
    }
    if (taken === 1) this.held.set(ip, (this.held.get(ip) ?? 0) + 1);
    else this.unsynced.add(ip);
    try {
      await this.generation.confirm('taking a connection slot');
    } catch (err) {
      // Counted in a Redis that lost our other slots (or unconfirmed): refused; sync() writes ours over it.
      if (taken === 1) this.drop(ip);
      this.unsynced.add(ip);
      throw err instanceof RpcFailure && err.data === RESTORING ? new Error(RESTORING) : err;
    }
    return taken === 1;
  }

  private untake(ip: string): void {
    const n = (this.taking.get(ip) ?? 1) - 1;
    if (n > 0) this.taking.set(ip, n);
    else this.taking.delete(ip);
  }

  /** One slot of the IP no longer held here (Redis is told by the caller, or by the next sync). */
  private drop(ip: string): void {
    const n = (this.held.get(ip) ?? 1) - 1;
    if (n > 0) this.held.set(ip, n);
    else this.held.delete(ip);
  }

  release(ip: string): void {
    this.drop(ip);
    if (this.cleared) return;
    run(this.redis, RELEASE, [keys.connections(ip), keys.connectionsFirst(ip)], [this.member]).catch((err) => {
      // Written again by sync() at the next cycle (or once Redis is back).
      this.unsynced.add(ip);
      this.fault(`giving back a connection slot of ${ip}`, err);
    });
  }

  /**
   * Hold our slots again: every cycle (so they do not lapse), and after Redis came back (releases may
   * have failed, or it restarted empty). Throws when Redis fails (the cycle reports it).
   */
  async sync(): Promise<void> {
    const ips = new Set([...this.held.keys(), ...this.unsynced, ...this.taking.keys()]);
    for (const ip of ips) {
      const count = (this.held.get(ip) ?? 0) + (this.taking.get(ip) ?? 0);
      // Marked written before it is: a take refused while this HOLD is on its way marks the IP again.
      this.unsynced.delete(ip);
      try {
        await run(this.redis, HOLD, [keys.connections(ip)], [this.member, count, SLOTS_GRACE_MS]);
      } catch (err) {
        this.unsynced.add(ip);
        throw err;
      }
    }
  }

  async report(ip: string, id: number): Promise<Budget> {
    const slots = [keys.connections(ip), keys.connectionsFirst(ip)];
    const [count, first] = await guarded(
      () => run(this.redis, REPORT, slots, [this.member]),
      (err) => this.fault(`counting the connections of ${ip}`, err),
    );
    return {
      remainingPoints: Math.max(0, this.max - count),
      msBeforeNext: 0,
      consumedPoints: count,
      isFirstInDuration: first === `${this.member}:${id}`,
    };
  }

  /** Give back every slot this member holds (it is closing); throws when Redis fails. */
  async clear(): Promise<void> {
    const ips = [...new Set([...this.held.keys(), ...this.unsynced])];
    this.cleared = true;
    this.held.clear();
    for (const ip of ips) await run(this.redis, HOLD, [keys.connections(ip)], [this.member, 0, 0]);
  }
}

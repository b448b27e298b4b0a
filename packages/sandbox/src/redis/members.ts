/**
 * Fleet membership: each sandbox started with the same `redis` URL joins as a member with an id of its
 * own, keeps an alive key that expires unless refreshed, and finds the others. The first member sets
 * the configuration the fleet runs with; a later one with another configuration does not join (one
 * exchange has one set of instruments, accounts, session keys and limits).
 */
import type { RedisClient as Redis } from './connect';
import type { ResolvedOptions } from '../options';
import { keys } from './keys';
import { answer, run, script } from './scripts';

/**
 * A member whose alive key has not been refreshed for this long is dead (its connection slots are
 * dropped). Ten refresh cycles: at 3 s, a live member stalled by a loaded machine was taken for dead,
 * and the per-IP count, without its slots, let a connection past the limit.
 */
export const ALIVE_MS = 10_000;

/**
 * How long a member's connection slots outlive its last refresh. Longer than ALIVE_MS: a live member
 * stalled past its alive key (its event loop starved for ten seconds under six busy processes) lost
 * its slots to the next count, which then let a fifth connection of an IP in. A member that really died
 * holds its slots this long.
 */
export const SLOTS_GRACE_MS = 60_000;

/** Another member runs with a different configuration. */
export class FleetConfigError extends Error {
  /** `where`: the flag and its value as printed (`--redis redis://:***@…`, `--redis-cluster …`). */
  constructor(where: string, differs: string[]) {
    super(
      `${where}: the sandboxes already running on this Redis use another configuration ` +
        `(${differs.join(', ')} differ); start every member with the same --config and --seed`,
    );
    this.name = 'FleetConfigError';
  }
}

/**
 * KEYS: our alive key, members, config, generation, then the alive keys of every other member we know;
 * ARGV: member. Leaves; takes the configuration away when no other member is alive (or unknown to us: it
 * then expires), and the generation marker unless it carries a loss's floor (recovery.ts), which outlives
 * the fleet: a signature made before that loss must stay refused by a fleet started again.
 */
const LEAVE = script(
  'xsbLeave',
  -1,
  `
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
for i = 5, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then return 0 end
end
if redis.call('SCARD', KEYS[2]) > #KEYS - 4 then return 0 end
redis.call('DEL', KEYS[3])
if tonumber(redis.call('HGET', KEYS[4], 'floor') or '0') == 0 then redis.call('DEL', KEYS[4]) end
return 1`,
  answer.int,
);

/** What every member must share, as JSON values by key. */
export function fleetConfig(o: ResolvedOptions): Record<string, unknown> {
  return {
    seed: o.seed,
    knownWalletsOnly: o.knownWalletsOnly,
    limits: { windows: [...o.windows.values()], buckets: o.buckets, maxConnections: o.maxConnections },
    login: o.login,
    sessionKeys: o.sessionKeys,
    wallets: o.wallets,
    instruments: o.instruments,
    market: o.market,
    actionDeployments: o.actionDeployments,
  };
}

/**
 * Set the fleet's configuration unless one is set; what of ours differs from the one set (none when it
 * is ours). At join, and again after Redis lost it (each member re-publishes it).
 */
export async function publishConfig(redis: Redis, options: ResolvedOptions): Promise<string[]> {
  const ours = fleetConfig(options);
  const text = JSON.stringify(ours);
  // Kept while any member lives (each refreshes it), so a new fleet on the same Redis may differ.
  const set = await redis.set(keys.config, text, 'PX', ALIVE_MS, 'NX');
  if (set === 'OK') return [];
  const theirs = JSON.parse((await redis.get(keys.config)) ?? text) as Record<string, unknown>;
  return Object.keys(ours).filter((k) => JSON.stringify(ours[k]) !== JSON.stringify(theirs[k]));
}

/** Set the fleet's configuration, or check ours against it; throws FleetConfigError naming what differs. */
export async function agreeOnConfig(redis: Redis, where: string, options: ResolvedOptions): Promise<void> {
  const differs = await publishConfig(redis, options);
  if (differs.length > 0) throw new FleetConfigError(where, differs);
}

/** KEYS: member-seq; ARGV: a member's number. Raises the sequence to it, so no later member takes its id. */
const SEQ_AT_LEAST = script(
  'xsbSeqAtLeast',
  1,
  `if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1`,
  answer.int,
);

/** This member's id and the live members. */
export class Members {
  private live: string[] = [];
  /** The members alive at the refresh before the last (a loss may have come between the two). */
  private before: string[] = [];

  private constructor(
    private readonly redis: Redis,
    readonly id: string,
  ) {}

  /** Join: take an id, announce it. */
  static async join(redis: Redis): Promise<Members> {
    const n = await redis.incr(keys.memberSeq);
    const m = new Members(redis, `m${n}`);
    await m.refresh();
    return m;
  }

  /** Refresh our alive key and the shared configuration's, and read who else is alive (pruning the dead). */
  async refresh(): Promise<string[]> {
    await this.redis
      .multi()
      .set(keys.alive(this.id), '1', 'PX', ALIVE_MS)
      .sadd(keys.members, this.id)
      .pexpire(keys.config, ALIVE_MS)
      .exec();
    const all = await this.redis.smembers(keys.members);
    const alive = await Promise.all(all.map((m) => this.redis.exists(keys.alive(m))));
    const dead = all.filter((_, i) => alive[i] === 0);
    if (dead.length > 0) await this.redis.srem(keys.members, ...dead);
    this.before = this.live;
    this.live = all.filter((_, i) => alive[i] === 1).sort();
    return this.live;
  }

  /** The members alive at the last refresh (this one included). */
  get alive(): readonly string[] {
    return this.live;
  }

  /** The other members alive at either of the last two refreshes. */
  get recent(): string[] {
    return [...new Set([...this.before, ...this.live])].filter((m) => m !== this.id);
  }

  /** After Redis lost the shared state: our id is taken again, and the member sequence raised past it. */
  async republish(): Promise<void> {
    await run(this.redis, SEQ_AT_LEAST, [keys.memberSeq], [Number(this.id.slice(1))]);
    await this.refresh();
  }

  /** Leave: no longer alive; the last one to leave takes the configuration away with it. */
  async leave(): Promise<void> {
    const others = (await this.redis.smembers(keys.members)).filter((m) => m !== this.id);
    await run(
      this.redis,
      LEAVE,
      [keys.alive(this.id), keys.members, keys.config, keys.generation, ...others.map(keys.alive)],
      [this.id],
    );
  }
}

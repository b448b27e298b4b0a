/**
 * The shared records of a fleet (state/ports.ts, SharedRecords): session keys and whitelists registered
 * through the API, MMP configs and freezes, cancel-on-disconnect settings. A change is written to Redis
 * (a hash per kind, each record with a version from one counter: a later change has a higher one), then
 * sent on the bus to every member, which applies it and acknowledges; settled() resolves once every
 * member that heard it has, so the request that made the change is answered only when a check on any
 * member sees it (a revoked key signs nothing anywhere after the revocation's answer). A member applies
 * a record only over an older version (messages and reloads may cross), reloads every kind each cycle
 * (a message it missed), and after a loss of Redis writes back what it holds, at its versions.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { SharedRecords } from '../state/ports';
import { RpcFailure } from '../rpc';
import { guarded, publish, type RedisClient as Redis } from './connect';
import { channels, keys } from './keys';
import { answer, run, script } from './scripts';
import type { FaultSink } from './slots';
import type { Generation } from './recovery';

/** How long a change waits for every member's acknowledgement. */
export const SHARED_ACK_MS = 5000;

/**
 * Write a record at a new version (ARGV[3] empty), or at a version it held (a loss's re-publishing:
 * written only over an older one or none, and the counter is kept above it). Answers the version kept.
 */
const PUT = script(
  'xsbSharedPut',
  2,
  `
local given = tonumber(ARGV[3])
if given == nil then
  local v = redis.call('INCR', KEYS[2])
  redis.call('HSET', KEYS[1], ARGV[1], v .. ' ' .. ARGV[2])
  return v
end
if tonumber(redis.call('GET', KEYS[2]) or '0') < given then redis.call('SET', KEYS[2], given) end
local held = redis.call('HGET', KEYS[1], ARGV[1])
local hv = 0
if held then hv = tonumber(string.match(held, '^(%d+) ')) or 0 end
if hv < given then
  redis.call('HSET', KEYS[1], ARGV[1], given .. ' ' .. ARGV[2])
  return given
end
return hv`,
  answer.int,
);

interface Change {
  id: string;
  from: string;
  kind: string;
  key: string;
  v: number;
  json: string;
}

interface Waiting {
  acks: number;
  expected: number;
  done: () => void;
}

/** The shared records of one member. */
export class RedisShared implements SharedRecords {
  private readonly appliers = new Map<string, (key: string, value: unknown) => void>();
  /** kind → key → the version and JSON this member holds. */
  private readonly held = new Map<string, Map<string, { v: number; json: string }>>();
  /** The puts of the call running in this async context (during): its wait is for its own alone. */
  private readonly call = new AsyncLocalStorage<Set<Promise<Error | null>>>();
  private readonly waiting = new Map<string, Waiting>();
  private closed = false;

  constructor(
    private readonly redis: Redis,
    private readonly member: string,
    private readonly generation: Generation,
    private readonly fault: FaultSink,
  ) {}

  on(kind: string, apply: (key: string, value: unknown) => void): void {
    this.appliers.set(kind, apply);
    this.held.set(kind, this.held.get(kind) ?? new Map());
  }

  put(kind: string, key: string, value: unknown): void {
    // Closing: the connections this member drops as it goes say nothing to the others.
    if (this.closed) return;
    const json = JSON.stringify(value ?? null);
    const p: Promise<Error | null> = this.send(kind, key, json).then(
      () => null,
      (err: unknown) => {
        this.fault(`sharing ${kind} ${key}`, err);
        return err instanceof Error ? err : new Error(String(err));
      },
    );
    this.call.getStore()?.add(p);
  }

  async during<T>(work: () => Promise<T>): Promise<T> {
    const puts = new Set<Promise<Error | null>>();
    const result = await this.call.run(puts, work);
    const failed = (await Promise.all([...puts])).find((e) => e !== null);
    if (failed instanceof RpcFailure) throw failed;
    if (failed)
      throw RpcFailure.of(
        'RPC_INTERNAL_ERROR',
        `the change was made on this member but not confirmed by every member of the fleet ` +
          `(${failed.message.slice(0, 160)}); retry`,
      );
    return result;
  }

  /** Write, then send to every member and wait until each that heard it has applied it. */
  private async send(kind: string, key: string, json: string): Promise<void> {
    const v = await guarded(
      () => run(this.redis, PUT, [keys.shared(kind), keys.sharedVersion], [key, json, '']),
      (err) => this.fault(`writing ${kind} ${key}`, err),
    );
    await this.generation.confirm(`writing ${kind} ${key}`);
    this.held.get(kind)?.set(key, { v, json });
    const change: Change = { id: randomUUID(), from: this.member, kind, key, v, json };
    let timer: NodeJS.Timeout | undefined;
    const all = new Promise<void>((resolve, reject) => {
      this.waiting.set(change.id, { acks: 0, expected: Infinity, done: resolve });
      timer = setTimeout(() => {
        const w = this.waiting.get(change.id);
        reject(new Error(`${w ? w.expected - w.acks : '?'} members did not acknowledge it within ${SHARED_ACK_MS} ms`));
      }, SHARED_ACK_MS);
    });
    try {
      const receivers = await publish(this.redis, channels.shared, JSON.stringify(change));
      const w = this.waiting.get(change.id)!;
      w.expected = receivers;
      if (w.acks >= receivers) w.done();
      await all;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(change.id);
    }
  }

  /** A change on the bus (ours too): applied when newer than what we hold, then acknowledged. */
  async receive(text: string): Promise<void> {
    const c = JSON.parse(text) as Change;
    if (typeof c?.id !== 'string' || typeof c.from !== 'string' || !/^m[0-9]+$/.test(c.from))
      return this.fault('a shared record', new Error(`not a change: ${text.slice(0, 80)}`));
    this.take(c.kind, c.key, c.v, c.json);
    await publish(this.redis, channels.sharedAcks(c.from), c.id);
  }

  /** An acknowledgement of one of our changes. */
  acknowledged(id: string): void {
    const w = this.waiting.get(id);
    if (w && ++w.acks >= w.expected) w.done();
  }

  /** Apply a record held elsewhere when it is newer than ours. */
  private take(kind: string, key: string, v: number, json: string): void {
    const held = this.held.get(kind);
    const apply = this.appliers.get(kind);
    if (!held || !apply || !Number.isInteger(v) || (held.get(key)?.v ?? 0) >= v) return;
    held.set(key, { v, json });
    apply(key, JSON.parse(json));
  }

  /** Read every kind from Redis (at start, and each cycle: a change whose message this member missed). */
  async reload(): Promise<void> {
    for (const kind of this.held.keys()) {
      const all = await this.redis.hgetall(keys.shared(kind));
      for (const [key, text] of Object.entries(all)) {
        const space = text.indexOf(' ');
        try {
          this.take(kind, key, Number(text.slice(0, space)), text.slice(space + 1));
        } catch (err) {
          this.fault(`reading the shared ${kind} ${key}`, err);
        }
      }
    }
  }

  /** The member leaves: nothing more is shared. */
  close(): void {
    this.closed = true;
  }

  /** Redis lost everything: write back what this member holds, each at its version. */
  async republish(): Promise<void> {
    for (const [kind, held] of this.held)
      for (const [key, { v, json }] of held)
        await run(this.redis, PUT, [keys.shared(kind), keys.sharedVersion], [key, json, v]);
  }
}

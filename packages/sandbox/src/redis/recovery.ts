/**
 * Knowing that Redis lost the fleet's shared state (FLUSHALL, or a restart without persistence) and
 * what may not be done until it is restored. The first member of a fleet writes a generation marker
 * (keys.generation) with no expiry; every member remembers its id, checks it every cycle and after each
 * shared write that would otherwise quietly start from empty (a nonce claimed, a connection slot taken).
 * A marker gone, or another id, is a loss: the member that sees it first writes a new marker with the
 * floor below, every member re-publishes what it holds (fleet.ts) and, until the members alive before the
 * loss have, refuses signed requests and new connections.
 *
 * Nonces cannot be re-published (nobody holds them all), so they cannot come back: a nonce's leading 13
 * digits are its time in ms (ms, ms with more digits, ns: every public client's), a fleet refuses a nonce
 * stamped more than `lead` ms ahead of Redis's clock, and after a loss one not stamped after the floor,
 * Redis's clock when the loss was seen plus `lead`. Every nonce used before the loss was stamped at most
 * `lead` after its use, hence before the floor: no signature made before the loss is taken again.
 */
import { randomUUID } from 'node:crypto';
import type { FaultSink, RedisClient as Redis } from './connect';
import { RpcFailure } from '../rpc';
import { keys } from './keys';
import { guarded } from './connect';
import { REDIS_NOW, run, script } from './scripts';

/** How many leading digits of a nonce are its time in ms (13 from 2001 to 2286). */
export const STAMP_DIGITS = 13;

/** The time in ms a canonical nonce carries in its leading digits, or null when it is too short to carry one. */
export function stampOf(nonce: string): number | null {
  return nonce.length >= STAMP_DIGITS ? Number(nonce.slice(0, STAMP_DIGITS)) : null;
}

/**
 * KEYS: generation; ARGV: the id we know ('' joining), a fresh id, lead ms. Returns {id, floor}.
 * Joining: the marker as it is, written (floor 0) when there is none: a fleet starting. Knowing one:
 * when it is gone or another, Redis lost the state: a new marker (kept when another member wrote it
 * first) whose floor is at least Redis's clock now plus the lead.
 */
const GENERATION = script(
  'xsbGeneration',
  1,
  `
local id = redis.call('HGET', KEYS[1], 'id')
if id and (id == ARGV[1] or ARGV[1] == '') then
  return {id, tonumber(redis.call('HGET', KEYS[1], 'floor') or '0')}
end
if not id then
  id = ARGV[2]
  redis.call('HSET', KEYS[1], 'id', id)
end
local floor = tonumber(redis.call('HGET', KEYS[1], 'floor') or '0')
if ARGV[1] ~= '' and floor == 0 then
  ${REDIS_NOW}
  floor = now + tonumber(ARGV[3])
end
redis.call('HSET', KEYS[1], 'floor', floor)
return {id, floor}`,
  (raw): [string, number] | undefined =>
    Array.isArray(raw) && typeof raw[0] === 'string' && Number.isInteger(raw[1]) ? [raw[0], raw[1]] : undefined,
);

/** Why a signed request or a new connection is refused while the shared state is restored. */
export const RESTORING =
  "the exchange's shared state (Redis) was lost and is being restored (each member re-publishes what it " +
  'holds): signed requests and new connections are refused until it is; retry';

/** The refusal of a request while the shared state is restored (-32603, nothing was served). */
export function restoringFailure(): RpcFailure {
  return RpcFailure.of('RPC_INTERNAL_ERROR', RESTORING);
}

/** The generation this member knows, and whether it is restoring. */
export class Generation {
  id = '';
  /** Nonces must be stamped after this (ms, Redis's clock); 0 while no loss was seen. */
  floor = 0;
  /** A loss was seen and what this member, or a member alive before it, holds is not all back yet. */
  restoring = false;
  /** Told when a shared write finds the marker gone (the fleet starts its recovery). */
  onLost: () => void = () => {};

  constructor(
    private readonly redis: Redis,
    /** How far ahead of Redis's clock a nonce may be stamped (the login window's futureMs). */
    readonly lead: number,
    private readonly fault: FaultSink,
  ) {}

  /** Read the marker (write it, when this member starts a fleet). */
  async join(): Promise<void> {
    [this.id, this.floor] = await run(this.redis, GENERATION, [keys.generation], ['', randomUUID(), this.lead]);
  }

  /** Whether the marker is gone or another (a loss this member has not recovered from); takes a higher floor. */
  async changed(): Promise<boolean> {
    const [id, floor] = await this.redis.hmget(keys.generation, 'id', 'floor');
    if (id !== this.id) return true;
    this.floor = Math.max(this.floor, Number(floor ?? 0));
    return false;
  }

  /** The loss is this member's to recover from: the marker written again, its id and floor taken. */
  async lost(): Promise<void> {
    this.restoring = true;
    [this.id, this.floor] = await run(this.redis, GENERATION, [keys.generation], [this.id, randomUUID(), this.lead]);
  }

  /** Throw the refusal while restoring. */
  refuseWhileRestoring(): void {
    if (this.restoring) throw restoringFailure();
  }

  /**
   * After a shared write: the write landed in the state this member knows, or the loss is seen now
   * (recovery starts) and the request that needed the write is refused. A marker present with our id
   * after the write means no loss came between the marker's writing and the write.
   */
  async confirm(what: string): Promise<void> {
    const changed = await guarded(
      () => this.changed(),
      (err) => this.fault(`checking the shared state after ${what}`, err),
    );
    if (!changed) return;
    this.restoring = true;
    this.onLost();
    throw restoringFailure();
  }
}

/**
 * The fleet's Lua scripts, each an ioredis command (`defineCommand`: EVALSHA, loaded once per
 * connection) whose keys all come in KEYS, never built inside the script, so Redis (and a Redis Cluster,
 * where a script's keys must share one hash slot: see keys.ts's hash tags) knows every key a script
 * touches. Each script's answer is read by a function that checks its shape, so a caller gets typed
 * values, or an error naming the script and what came back.
 */
import type { RedisClient as Redis } from './connect';
import { slotPart } from './keys';

/** One script: how many of its arguments are keys, its text, and how its answer is read. */
export interface Script<R> {
  name: string;
  numberOfKeys: number;
  lua: string;
  read(raw: unknown): R;
}

/** A script's answer was not what the script returns (a bug, or another program wrote our keys). */
export class ScriptAnswerError extends Error {
  constructor(script: string, raw: unknown) {
    super(`Redis script ${script} answered ${JSON.stringify(raw)?.slice(0, 120)}, not what it returns`);
    this.name = 'ScriptAnswerError';
  }
}

/** Every script defined so far, by name (a test computes each one's key slots: test/cluster-slots.test.ts). */
export const defined = new Map<string, Script<unknown>>();

/** Define a script (reading its answer with `read`). */
export function script<R>(name: string, numberOfKeys: number, lua: string, read: (raw: unknown) => R | undefined) {
  const def: Script<R> = {
    name,
    numberOfKeys,
    lua,
    read: (raw) => {
      const value = read(raw);
      if (value === undefined) throw new ScriptAnswerError(name, raw);
      return value;
    },
  };
  if (defined.has(name)) throw new Error(`Redis script ${name} is defined twice`);
  defined.set(name, def);
  return def;
}

/** The commands ioredis adds for defined scripts: keys first, then arguments. */
type Defined = Record<string, (...args: Array<string | number>) => Promise<unknown>>;

/** Run a script on a connection (defining it there on first use) with exactly its keys. */
export async function run<R>(
  redis: Redis,
  s: Script<R>,
  keys: readonly string[],
  args: ReadonlyArray<string | number>,
): Promise<R> {
  if (s.numberOfKeys >= 0 && keys.length !== s.numberOfKeys)
    throw new Error(`Redis script ${s.name} takes ${s.numberOfKeys} keys (given ${keys.length})`);
  // Checked on one Redis too, so that a key set a cluster would refuse (CROSSSLOT) fails every fleet test.
  const spread = new Set(keys.map(slotPart));
  if (spread.size > 1)
    throw new Error(`Redis script ${s.name} was given keys of more than one cluster slot (${[...spread].join(', ')})`);
  const commands = redis as unknown as Defined;
  // A script taking a variable number of keys (numberOfKeys -1) is defined without it: the count goes first.
  if (typeof commands[s.name] !== 'function')
    redis.defineCommand(s.name, s.numberOfKeys >= 0 ? { numberOfKeys: s.numberOfKeys, lua: s.lua } : { lua: s.lua });
  const head = s.numberOfKeys < 0 ? [keys.length] : [];
  return s.read(await commands[s.name]!(...head, ...keys, ...args));
}

/** Readers of script answers. */
export const answer = {
  /** An integer. */
  int: (raw: unknown): number | undefined => (Number.isInteger(raw) ? (raw as number) : undefined),
  /** An array of integers of this length. */
  ints:
    (n: number) =>
    (raw: unknown): number[] | undefined =>
      Array.isArray(raw) && raw.length === n && raw.every((x) => Number.isInteger(x)) ? (raw as number[]) : undefined,
} as const;

/** Milliseconds now by Redis's clock: the one time source of every member (a Lua fragment, sets `now`). */
export const REDIS_NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

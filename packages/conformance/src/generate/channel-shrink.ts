/**
 * Shrinking a channel failure: a push that does not conform was seen on an address while the connection
 * held a whole set of subscriptions. On connections of their own, smaller sets are subscribed (the
 * address alone first, then the set less one part of the others at a time) and, once the set is as
 * small as it goes, each parameter of the address is moved to an earlier value of its list; each that
 * still gets a non-conforming push on its address is kept. Bounded by a number of probes and the deadline.
 */
import { frameMethod, type GenChannel } from './spec';
import { toJson } from './schema-set';
import { collect } from './channel-pushes';
import type { SeenPush } from './invariants';
import type { TargetEnv } from './target-env';
import type { Exchange } from './session';

/** The most probes (each a subscription and a window of pushes) one channel failure may take. */
const MAX_PROBES = 12;

/** A failing subscription: the set subscribed, the address whose push failed, and that push. */
export interface ChannelFailure {
  set: string[];
  address: string;
  push: SeenPush;
}

/** Subscribe `set` on a connection of its own; the first push on `address` that does not conform, if any. */
async function probe(env: TargetEnv, ch: GenChannel, set: string[], address: string): Promise<SeenPush | null> {
  const login = ch.access === 'private';
  const conn = await env.session.fresh(login, 'generate-shrink');
  try {
    const from = conn.frames.length;
    await env.session.callOn(conn, frameMethod(env.spec, env.spec.subscribe), toJson({ channels: set }), login);
    const pushes = await collect(conn, from, [address]);
    return pushes.find((p) => p.channel === address && !env.schemas.valid(ch.payload, p.data)) ?? null;
  } finally {
    await conn.close();
  }
}

/** The values of each parameter of an address of the template (null when it is not one). */
export function valuesOf(template: string, address: string): Record<string, string> | null {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '(.+?)';
    })
    .join('');
  const m = new RegExp(`^${source}$`).exec(address);
  return m ? Object.fromEntries(names.map((n, i) => [n, m[i + 1]!])) : null;
}

/** Smaller sets than `set` that keep `address`: it alone, then the set less one part of the others. */
export function* smallerSets(set: string[], address: string): Generator<string[]> {
  const others = set.filter((a) => a !== address);
  if (!others.length) return;
  yield [address];
  for (let parts = 2; parts <= others.length; parts *= 2) {
    const size = Math.ceil(others.length / parts);
    for (let i = 0; i < others.length; i += size) yield [address, ...others.filter((_a, j) => j < i || j >= i + size)];
  }
}

/** Subscribe `set` on a connection of its own; the answer when the request was refused as a whole, else null. */
async function refusal(env: TargetEnv, ch: GenChannel, set: string[]): Promise<Exchange | null> {
  const login = ch.access === 'private';
  const conn = await env.session.fresh(login, 'generate-shrink');
  try {
    const ex = await env.session.callOn(
      conn,
      frameMethod(env.spec, env.spec.subscribe),
      toJson({ channels: set }),
      login,
    );
    const json = ex.outcome.kind === 'response' ? ex.outcome.json : null;
    return typeof json === 'object' && json !== null && 'error' in json ? ex : null;
  } finally {
    await conn.close();
  }
}

/**
 * The smallest subscription of valid addresses still refused as a whole (null when none smaller was):
 * each address alone first, then the set less one part at a time.
 */
export async function shrinkRefusal(
  env: TargetEnv,
  ch: GenChannel,
  set: string[],
): Promise<{ set: string[]; ex: Exchange; steps: number } | null> {
  let probes = Math.min(MAX_PROBES, env.shrinkCalls);
  let current = set;
  let found: Exchange | null = null;
  let steps = 0;
  const candidates = function* (s: string[]): Generator<string[]> {
    if (s.length < 2) return;
    for (const a of s) yield [a];
    for (const a of s.slice(1)) yield* smallerSets(s, a);
  };
  for (let progressed = true; progressed && probes > 0;) {
    progressed = false;
    for (const c of candidates(current)) {
      if (probes-- <= 0 || Date.now() > env.deadline) break;
      const ex = await refusal(env, ch, c);
      if (!ex) continue;
      [current, found, progressed] = [c, ex, true];
      steps++;
      break;
    }
  }
  return found ? { set: current, ex: found, steps } : null;
}

/** The smallest failing subscription found (null when none smaller failed), with the steps it took. */
export async function shrinkChannelFailure(
  env: TargetEnv,
  ch: GenChannel,
  values: Record<string, string[]>,
  first: ChannelFailure,
): Promise<(ChannelFailure & { steps: number }) | null> {
  let probes = Math.min(MAX_PROBES, env.shrinkCalls);
  let best: ChannelFailure = first;
  let steps = 0;
  const tryOne = async (set: string[], address: string): Promise<boolean> => {
    if (probes <= 0 || Date.now() > env.deadline) return false;
    probes--;
    const push = await probe(env, ch, set, address);
    if (!push) return false;
    best = { set, address, push };
    steps++;
    return true;
  };
  for (let progressed = true; progressed;) {
    progressed = false;
    for (const set of smallerSets(best.set, best.address))
      if (await tryOne(set, best.address)) {
        progressed = true;
        break;
      }
  }
  for (const p of ch.parameters) {
    const now = valuesOf(ch.address, best.address);
    const list = values[p.name] ?? [];
    const at = now ? list.indexOf(now[p.name]!) : -1;
    for (const v of list.slice(0, Math.max(0, at))) {
      const address = ch.address.replace(/\{([^}]+)\}/g, (_m, n: string) => (n === p.name ? v : now![n]!));
      const set = [...new Set(best.set.map((a) => (a === best.address ? address : a)))];
      if (await tryOne(set, address)) break;
    }
  }
  return steps ? { ...best, steps } : null;
}

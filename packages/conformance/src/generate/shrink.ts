/**
 * Shrinking a failure with fast-check: the failing params are shrunk member by member (a member dropped,
 * a string, number or list made smaller by fast-check's own shrinkers), and each smaller input that the
 * schema still reads the same way (still valid, or still invalid) is sent; one that fails by the same rule
 * (the same rule id, whatever the words of its verdict)
 * is kept and shrunk further. Greedy and bounded by a number of calls, so a server is never flooded.
 */
import fc from 'fast-check';
import { runCase, type TargetEnv } from './target-env';
import { toJson } from './schema-set';
import type { InputCase } from './cases';
import type { ReplayCall } from './replay-file';
import type { GenMethod } from './spec';
import type { Judgement } from '../model';

const LEAF_TRIES = 8;
const STRINGS = fc.string({ unit: 'binary' });
const INTEGERS = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const BIGINTS = fc.bigInt();

/** Smaller values of a leaf, by fast-check's shrinker for its type (nothing when it has none). */
function leafShrinks(v: unknown): unknown[] {
  const arb: fc.Arbitrary<unknown> | null =
    typeof v === 'string'
      ? STRINGS
      : typeof v === 'bigint'
        ? BIGINTS
        : typeof v === 'number' && Number.isSafeInteger(v)
          ? INTEGERS
          : null;
  if (arb && arb.canShrinkWithoutContext(v)) return [...arb.shrink(v, undefined).take(LEAF_TRIES)].map((x) => x.value);
  if (typeof v === 'number' && v !== 0) return [0, Math.trunc(v)].filter((x) => x !== v);
  return [];
}

/** Smaller inputs than `v`, simplest first: members dropped, then each member (or element) made smaller. */
export function* smaller(v: unknown, depth = 0): Generator<unknown> {
  if (depth > 6) return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) yield [...v.slice(0, i), ...v.slice(i + 1)];
    for (let i = 0; i < v.length; i++)
      for (const s of smaller(v[i], depth + 1)) yield v.map((x, j) => (j === i ? s : x));
    return;
  }
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const rest = { ...o };
      delete rest[k];
      yield rest;
    }
    for (const k of Object.keys(o)) for (const s of smaller(o[k], depth + 1)) yield { ...o, [k]: s };
    return;
  }
  yield* leafShrinks(v);
}

/** A smaller input tried: its verdict and the call as recorded. */
export type Tried = { verdict: Judgement; call: ReplayCall };

/** How a shrink searches: how many inputs it may send, until when, which inputs qualify and how one is sent. */
export interface ShrinkSearch {
  calls: number;
  deadline: number;
  /** Whether the schema still reads a candidate as the failing input was read (still valid, or still invalid). */
  qualifies: (candidate: unknown) => boolean;
  send: (candidate: unknown) => Promise<Tried>;
}

/**
 * Greedy search from `start`: the first smaller input that fails by the rule of `first` (its id: the
 * words may name another value) is kept and searched from; null when none smaller did.
 */
export async function shrinkSearch(
  start: unknown,
  first: Judgement,
  s: ShrinkSearch,
): Promise<{ call: ReplayCall; steps: number; params: unknown } | null> {
  let budget = s.calls;
  let current = start;
  let best: { call: ReplayCall; steps: number; params: unknown } | null = null;
  let steps = 0;
  let progressed = true;
  while (progressed && budget > 0 && Date.now() < s.deadline) {
    progressed = false;
    for (const candidate of smaller(current)) {
      if (budget <= 0) break;
      if (!s.qualifies(candidate)) continue;
      budget--;
      const { verdict, call } = await s.send(candidate);
      if (verdict.status !== 'fail' || verdict.ruleId !== first.ruleId) continue;
      current = candidate;
      best = { call, steps: ++steps, params: candidate };
      progressed = true;
      break;
    }
  }
  return best;
}

/** The smallest input found that still fails by the same rule, with its call, or null when none smaller did. */
export function shrinkFailure(
  env: TargetEnv,
  m: GenMethod,
  t: 'ws' | 'http',
  c: InputCase,
  first: Judgement,
): Promise<{ call: ReplayCall; steps: number; params: unknown } | null> {
  return shrinkSearch(c.params, first, {
    calls: env.shrinkCalls,
    deadline: env.deadline,
    qualifies: (candidate) => env.schemas.valid(m.params, candidate) === (c.expect === 'valid'),
    send: async (candidate) => {
      const { ex, verdict } = await runCase(env, m, t, { ...c, params: candidate });
      return { verdict, call: { params: toJson(candidate), sent: ex.sent, received: ex.received, verdict } };
    },
  });
}

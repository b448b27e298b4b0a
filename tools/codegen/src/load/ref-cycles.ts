/**
 * $ref cycles that never reach data: `A: {$ref: B}`, `B: {$ref: A}`, or a schema that is only a $ref
 * to itself. Such a schema has no meaning, and the AsyncAPI parser spins forever on one, so they are
 * found here, before the parser runs. Recursion through data (`A.properties.child: {$ref: A}`) is a
 * real recursive shape and is fine: each step of it goes one level down into the value.
 */
import { fromPointer, toPointer } from './spec-error';
import { isObj } from './spec-types';

type Path = Array<string | number>;

/** Keywords whose schemas apply to the same value, so a $ref reached through them stays on that value. */
const SAME_VALUE = ['allOf', 'anyOf', 'oneOf'] as const;
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'] as const;

/**
 * A cycle found: the pointers of its $refs, in order, the first repeated at the end, and the schema the first names.
 */
export interface RefCycle {
  pointers: string[];
  /** The $ref value at the first pointer. */
  target: string;
}

/** The node a local `$ref` names, or undefined when it does not resolve (checked elsewhere). */
function resolveRef(data: unknown, ref: string): unknown {
  let node: unknown = data;
  for (const key of fromPointer(ref)) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObj(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** The $refs that apply to the same value as `node`, each with its path: its own and its combinators'. */
function sameValueRefs(
  node: unknown,
  path: Path,
  out: Array<{ path: Path; ref: string }> = [],
  depth = 0,
): Array<{ path: Path; ref: string }> {
  if (!isObj(node) || depth > 64) return out;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) out.push({ path: [...path, '$ref'], ref: node.$ref });
  for (const k of SAME_VALUE) {
    const list = node[k];
    if (Array.isArray(list)) list.forEach((s, i) => sameValueRefs(s, [...path, k, i], out, depth + 1));
  }
  for (const k of SAME_VALUE_ONE) if (isObj(node[k])) sameValueRefs(node[k], [...path, k], out, depth + 1);
  return out;
}

/**
 * Every $ref in the document (or under `base`), with its path. Iterative, so a deep document cannot overflow the stack.
 */
function allRefs(data: unknown, base: Path = []): Array<{ path: Path; ref: string }> {
  const found: Array<{ path: Path; ref: string }> = [];
  const stack: Array<{ node: unknown; path: Path }> = [{ node: data, path: base }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    // Children go on the stack last-first, so refs come out in document order.
    if (Array.isArray(node))
      node
        .map((v, i) => ({ node: v, path: [...path, i] }))
        .reverse()
        .forEach((e) => stack.push(e));
    else if (isObj(node)) {
      if (typeof node.$ref === 'string' && node.$ref.startsWith('#'))
        found.push({ path: [...path, '$ref'], ref: node.$ref });
      Object.entries(node)
        .filter(([k]) => k !== '$ref')
        .reverse()
        .forEach(([k, v]) => stack.push({ node: v, path: [...path, k] }));
    }
  }
  return found;
}

/**
 * Every $ref cycle that never reaches data, each named by the pointers of the $refs on it (at least one
 * per knot of $refs that lead back to each other). A depth-first walk over the graph whose nodes are
 * the $refs and whose edges go from a $ref to the $refs that apply to the same value as its target: an
 * edge back to a $ref on the current walk closes a cycle. Each $ref is walked from once, and the walk
 * keeps its own stack, so a long chain of $refs costs time in proportion to its length (it once cost
 * the square, minutes for 10,000) and cannot overflow the call stack.
 */
export function findRefCycles(data: unknown): RefCycle[] {
  const cycles = new Map<string, RefCycle>();
  const targets = new Map<string, Array<{ at: string; ref: string }>>();
  const next = (ref: string): Array<{ at: string; ref: string }> => {
    let found = targets.get(ref);
    if (!found) {
      const target = resolveRef(data, ref);
      const hops = target === undefined ? [] : sameValueRefs(target, fromPointer(ref));
      found = hops.map((h) => ({ at: toPointer(h.path), ref: h.ref }));
      targets.set(ref, found);
    }
    return found;
  };
  const done = new Set<string>();
  for (const start of allRefs(data)) {
    const at = toPointer(start.path);
    if (done.has(at)) continue;
    walkFrom({ at, ref: start.ref }, next, done, cycles);
  }
  return [...cycles.values()];
}

/** The depth-first walk from one $ref, with an explicit stack: cycles found go into `cycles`. */
function walkFrom(
  start: { at: string; ref: string },
  next: (ref: string) => Array<{ at: string; ref: string }>,
  done: Set<string>,
  cycles: Map<string, RefCycle>,
): void {
  const chain: string[] = [start.at];
  const refOf = new Map([[start.at, start.ref]]);
  const onChain = new Set(chain);
  const frames = [{ hops: next(start.ref), i: 0 }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const hop = frame.hops[frame.i++];
    if (!hop) {
      frames.pop();
      const left = chain.pop()!;
      onChain.delete(left);
      done.add(left);
      continue;
    }
    if (onChain.has(hop.at)) {
      const loop = chain.slice(chain.indexOf(hop.at));
      const key = [...loop].sort().join('\u0000');
      if (!cycles.has(key)) cycles.set(key, { pointers: [...loop, hop.at], target: refOf.get(hop.at)! });
      continue;
    }
    if (done.has(hop.at)) continue;
    chain.push(hop.at);
    onChain.add(hop.at);
    refOf.set(hop.at, hop.ref);
    frames.push({ hops: next(hop.ref), i: 0 });
  }
}

/** The longest run of $refs followed in a row: how many, the path of the first, and the pointers of the run. */
export interface RefChain {
  length: number;
  start: Path;
  pointers: string[];
}

/**
 * The longest run of $refs followed one after the other along a path from the document's root: from
 * a $ref to any $ref inside the value it names, and so on. A recursion (a $ref back into a value the
 * run is inside) is counted once. Each $ref is walked once, with an explicit stack.
 */
export function longestRefChain(data: unknown): RefChain {
  const inside = new Map<string, Array<{ path: Path; at: string; ref: string }>>();
  const refsIn = (ref: string) => {
    let found = inside.get(ref);
    if (!found) {
      const target = resolveRef(data, ref);
      const refs = target === undefined ? [] : allRefs(target, fromPointer(ref));
      found = refs.map((r) => ({ ...r, at: toPointer(r.path) }));
      inside.set(ref, found);
    }
    return found;
  };
  // For each $ref walked: the length of the longest run from it and the next $ref of that run.
  const best = new Map<string, { length: number; next: string | null }>();
  const open = new Set<string>();
  let top: RefChain = { length: 0, start: [], pointers: [] };
  for (const root of allRefs(data)) {
    const at = toPointer(root.path);
    if (!best.has(at)) runFrom({ at, ref: root.ref }, refsIn, best, open);
    const length = best.get(at)!.length;
    if (length > top.length) top = { length, start: root.path, pointers: runOf(at, best) };
  }
  return top;
}

/** The post-order walk that fills `best` for every $ref reachable from `start`. */
function runFrom(
  start: { at: string; ref: string },
  refsIn: (ref: string) => Array<{ at: string; ref: string }>,
  best: Map<string, { length: number; next: string | null }>,
  open: Set<string>,
): void {
  const frames = [{ at: start.at, hops: refsIn(start.ref), i: 0 }];
  open.add(start.at);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const hop = frame.hops[frame.i++];
    if (hop) {
      // A $ref already on the walk is a recursion, counted once; one walked before has its length.
      if (!open.has(hop.at) && !best.has(hop.at)) {
        open.add(hop.at);
        frames.push({ at: hop.at, hops: refsIn(hop.ref), i: 0 });
      }
      continue;
    }
    frames.pop();
    open.delete(frame.at);
    let result = { length: 1, next: null as string | null };
    for (const h of frame.hops) {
      const found = best.get(h.at);
      if (found && found.length + 1 > result.length) result = { length: found.length + 1, next: h.at };
    }
    best.set(frame.at, result);
  }
}

/** The pointers of the run that starts at `at`. */
function runOf(at: string, best: Map<string, { length: number; next: string | null }>): string[] {
  const out: string[] = [];
  for (let p: string | null = at; p !== null && out.length < 5; p = best.get(p)?.next ?? null) out.push(p);
  return out;
}

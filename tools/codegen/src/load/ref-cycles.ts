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

/** A cycle found: the pointers of its $refs, in order, the first repeated at the end, and the schema the first names. */
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

/** Every $ref in the document, with its path. Iterative, so a deep document cannot overflow the stack. */
function allRefs(data: unknown): Array<{ path: Path; ref: string }> {
  const found: Array<{ path: Path; ref: string }> = [];
  const stack: Array<{ node: unknown; path: Path }> = [{ node: data, path: [] }];
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
 * Every $ref cycle that never reaches data, each named once by the pointers of the $refs on it.
 * Follows, from each $ref, the $refs that apply to the same value as its target; a walk that comes
 * back to a $ref it passed is a cycle.
 */
export function findRefCycles(data: unknown): RefCycle[] {
  const cycles = new Map<string, RefCycle>();
  const next = (ref: string): Array<{ path: Path; ref: string }> => {
    const target = resolveRef(data, ref);
    return target === undefined ? [] : sameValueRefs(target, fromPointer(ref));
  };
  for (const start of allRefs(data)) {
    // Depth-first over same-value refs, remembering the chain that led here.
    const chain: string[] = [toPointer(start.path)];
    const refOf = new Map([[chain[0]!, start.ref]]);
    const onChain = new Set(chain);
    const visit = (ref: string, budget: { steps: number }): void => {
      for (const hop of next(ref)) {
        if (--budget.steps < 0) return;
        const at = toPointer(hop.path);
        if (onChain.has(at)) {
          const loop = chain.slice(chain.indexOf(at));
          const key = [...loop].sort().join('\u0000');
          if (!cycles.has(key)) cycles.set(key, { pointers: [...loop, at], target: refOf.get(at)! });
          continue;
        }
        chain.push(at);
        onChain.add(at);
        refOf.set(at, hop.ref);
        visit(hop.ref, budget);
        onChain.delete(chain.pop()!);
      }
    };
    visit(start.ref, { steps: 10_000 });
  }
  return [...cycles.values()];
}

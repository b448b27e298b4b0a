/** Helpers for tests that edit a copy of a spec. */

/**
 * A spec (parsed YAML) without its `examples`: the examples are checked against the schemas, so an
 * edited schema would need them rewritten; the diff does not compare examples, so its tests drop them.
 */
export function withoutExamples<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutExamples) as T;
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => k !== 'examples')
      .map(([k, v]) => [k, withoutExamples(v)]),
  ) as T;
}

/** The value at a JSON pointer of a payload (`/reqid`), and a copy of a payload with one set there. */

const segments = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

export function valueAt(value: unknown, pointer: string): unknown {
  let current = value;
  for (const key of segments(pointer)) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `value` with `v` at `pointer` (objects along the way copied, made where missing); the input is untouched. */
export function withValueAt(value: unknown, pointer: string, v: unknown): unknown {
  const [head, ...rest] = segments(pointer);
  if (head === undefined) return v;
  const base =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const tail = rest.map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
  return { ...base, [head]: withValueAt(base[head], tail, v) };
}

/**
 * Constraints as a reader writes them: a pattern plain (not escaped as JSON), 64-bit bounds exact
 * (from the spec's text: the parsed numbers lost their last digits), formats, lengths and multiples.
 * The same exact text serves every number the docs print from the spec (`markExact`): enumeration
 * values, defaults, examples and schemas.
 */
import type { ApiModel, JsonSchema } from '../../model/types';
import { code, Exact, type Inline } from './ir';
import { nonNullBranch } from '../../model/schema-tools';
import { isObj } from '../../load/spec-types';

export const KEYS = [
  'pattern',
  'format',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'multipleOf',
] as const;

const isNull = (s: unknown) => isObj(s) && s.type === 'null';
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A value as written in the spec: the exact text of an integer beyond JavaScript's range, else its JSON. */
export function exactValue(value: unknown, pointer: string, exact: Record<string, string> | undefined): string {
  return exact?.[pointer] ?? (typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * The exact text of a number that lost digits, found by its value among the spec's exact integers, the one
 * whose pointer shares the longest tail with `path`.
 */
function exactByValue(n: number, path: string[], exact: Record<string, string>): string | undefined {
  const candidates = Object.entries(exact).filter(([, text]) => Number(text) === n);
  for (let k = path.length; k >= 0; k--) {
    const tail = k === 0 ? '' : '/' + path.slice(-k).map(escape).join('/');
    const texts = new Set(candidates.filter(([p]) => p.endsWith(tail)).map(([, t]) => t));
    // Two spec integers that round to one double at the same place: which one this is cannot be told.
    if (texts.size === 1) return [...texts][0];
    if (texts.size > 1) return undefined;
  }
  return undefined;
}

/**
 * A value of the spec with every integer beyond JavaScript's exact range put back as the spec writes
 * it (an `Exact`, which `toJson`/`prettyJson` print as written). `pointer` is the value's place in the
 * spec when known; else (an example seen inside a wire frame) a number is found by its value, the
 * place whose tail matches best deciding between candidates.
 */
export function markExact(value: unknown, exact: Record<string, string> | undefined, pointer?: string): unknown {
  if (!exact || Object.keys(exact).length === 0) return value;
  const walk = (v: unknown, path: string[]): unknown => {
    if (typeof v === 'number') {
      if (Number.isSafeInteger(v) || !Number.isInteger(v)) return v;
      const text =
        (pointer !== undefined ? exact[pointer + path.map((p) => '/' + escape(p)).join('')] : undefined) ??
        exactByValue(v, path, exact);
      return text === undefined ? v : new Exact(text);
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, String(i)]));
    if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
    return v;
  };
  return walk(value, []);
}

/**
 * Bounds that are exactly those of a 64-bit integer, said by its name: two 19- or 20-digit numbers on
 * every such field tell a reader less than `int64` does.
 */
const INT_RANGES: ReadonlyArray<readonly [name: string, min: string, max: string]> = [
  ['int64', '-9223372036854775808', '9223372036854775807'],
  ['uint64', '0', '18446744073709551615'],
];

/**
 * The constraints of a schema at `pointer` (its JSON pointer in the spec), e.g. `pattern ^…$`, `maximum 100`,
 * `int64`.
 */
export function constraintList(
  schema: JsonSchema,
  pointer: string,
  exact: Record<string, string> | undefined,
): Inline[] {
  const { schema: value, path } = nonNullBranch(schema);
  const text = (key: string) =>
    value[key] === undefined ? undefined : exactValue(value[key], `${pointer}${path}/${key}`, exact);
  const range = INT_RANGES.find(([, min, max]) => text('minimum') === min && text('maximum') === max);
  const out: Inline[] = [];
  for (const key of KEYS) {
    const shown = text(key);
    if (shown === undefined) continue;
    if (range && (key === 'maximum' || (key === 'format' && shown === range[0]))) continue;
    if (out.length) out.push(', ');
    if (range && key === 'minimum') out.push(code(range[0]));
    else out.push(`${key} `, code(shown));
  }
  return out;
}

/** The name of the named schema a model schema refers to (`#/definitions/<Name>`), or null. */
const refName = (s: unknown): string | null =>
  isObj(s) && typeof s.$ref === 'string' && s.$ref.startsWith('#/definitions/')
    ? s.$ref.slice('#/definitions/'.length)
    : null;

/**
 * A field's schema and its pointer in the spec: under the record's `properties`, or under those of an
 * `allOf` part (inline, or a named record it refers to, followed).
 */
export function fieldSchema(
  model: ApiModel,
  record: string,
  field: string,
  seen = new Set<string>(),
): { schema: JsonSchema; pointer: string } | undefined {
  if (seen.has(record)) return undefined;
  seen.add(record);
  const at = (s: unknown, pointer: string): { schema: JsonSchema; pointer: string } | undefined => {
    if (!isObj(s)) return undefined;
    const own = isObj(s.properties) ? s.properties[field] : undefined;
    if (isObj(own)) return { schema: own, pointer: `${pointer}/properties/${escape(field)}` };
    const parts = Array.isArray(s.allOf) ? s.allOf : [];
    for (const [i, part] of parts.entries()) {
      const named = refName(part);
      const found = named ? fieldSchema(model, named, field, seen) : at(part, `${pointer}/allOf/${i}`);
      if (found) return found;
    }
    return undefined;
  };
  return at(model.schemas[record], `#/components/schemas/${escape(record)}`);
}

/**
 * The constraints a named type puts on a value of it, as a field row shows them: a scalar's own (`pattern …`,
 * `minimum …, maximum …`); a union's per branch, joined by "or" (a branch without any named by its type).
 * Nothing for records, enumerations (their values are a link away) and types without constraints.
 */
export function typeConstraints(model: ApiModel, name: string, seen = new Set<string>()): Inline[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const schema = model.schemas[name];
  const pointer = `#/components/schemas/${escape(name)}`;
  if (!schema || schema.enum !== undefined) return [];
  const own = constraintList(schema, pointer, model.exactIntegers);
  if (own.length) return own;
  const named = refName(schema) ?? refName(nonNullBranch(schema).schema);
  if (named) return typeConstraints(model, named, seen);
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    const branches = list.flatMap((b, i): Inline[][] => {
      if (isNull(b)) return [];
      const ref = refName(b);
      const c = ref
        ? typeConstraints(model, ref, seen)
        : isObj(b)
          ? constraintList(b, `${pointer}/${k}/${i}`, model.exactIntegers)
          : [];
      if (c.length) return [c];
      return [[code(ref ?? (isObj(b) && typeof b.type === 'string' ? b.type : 'any'))]];
    });
    if (branches.some((b) => !(b.length === 1 && typeof b[0] === 'object' && 'code' in b[0])))
      return branches.flatMap((b, i) => (i === 0 ? b : [' or ', ...b]));
  }
  return [];
}

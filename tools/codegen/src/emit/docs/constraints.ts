/**
 * Constraints as a reader writes them: a pattern plain (not escaped as JSON), 64-bit bounds exact
 * (from the spec's text: the parsed numbers lost their last digits), formats, lengths and multiples.
 */
import type { JsonSchema } from '../../model/types';
import { code, prettyJson, type Inline } from './ir';

const KEYS = ['pattern', 'format', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'multipleOf'] as const;

/** The schema that carries a nullable value's constraints: the non-null branch of `anyOf: [X, null]`. */
function valueSchema(schema: JsonSchema): { schema: JsonSchema; path: string } {
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    const i = list.findIndex((s) => !(typeof s === 'object' && s !== null && (s as JsonSchema).type === 'null'));
    if (i >= 0 && list.length === 2) return { schema: list[i] as JsonSchema, path: `/${k}/${i}` };
  }
  return { schema, path: '' };
}

/** A value as written in the spec: the exact text of an integer beyond JavaScript's range, else its JSON. */
export function exactValue(value: unknown, pointer: string, exact: Record<string, string> | undefined): string {
  return exact?.[pointer] ?? (typeof value === 'string' ? value : JSON.stringify(value));
}

/** The constraints of a schema at `pointer` (its JSON pointer in the spec), e.g. `pattern ^…$`, `maximum 9223372036854775807`. */
export function constraintList(schema: JsonSchema, pointer: string, exact: Record<string, string> | undefined): Inline[] {
  const { schema: value, path } = valueSchema(schema);
  const out: Inline[] = [];
  for (const key of KEYS) {
    if (value[key] === undefined) continue;
    if (out.length) out.push(', ');
    out.push(`${key} `, code(exactValue(value[key], `${pointer}${path}/${key}`, exact)));
  }
  return out;
}

/** A schema as JSON for the page, with every integer beyond JavaScript's range written as in the spec. */
export function exactJson(schema: JsonSchema, pointer: string, exact: Record<string, string> | undefined): string {
  let text = prettyJson(schema);
  for (const [key, value] of Object.entries(schema)) {
    const literal = exact?.[`${pointer}/${key}`];
    // prettyJson writes `"key":value` on one line and `"key": value` when it breaks lines.
    if (literal !== undefined) for (const sep of [':', ': ']) text = text.replace(`${JSON.stringify(key)}${sep}${JSON.stringify(value)}`, `${JSON.stringify(key)}${sep}${literal}`);
  }
  return text;
}

/**
 * Integer enumerations. quicktype knows string enumerations only: an integer `enum` it widens to a plain
 * integer (Python `int`, Go `int64`) that takes any value. So each is handed to it as a string
 * enumeration of marked values (U+0001 and a spelling of the number, which names its cases `VALUE_1`
 * in Python and `Value1` in Go), and the emitters turn each enumeration of marked values back into an
 * integer one (Python IntEnum, Go typed constants over int64) that refuses any other value.
 */
import type { ApiModel } from '../../model/types';
import { toPointer } from '../../load/spec-error';
import { DATA_KEYWORDS, SCHEMA_MAP } from '@exchange-api/types/json-schema-keywords';

const MARK = '\u0001';

/** The marked string a value of an integer enumeration is handed to quicktype as. */
const marked = (n: number) => `${MARK}value ${n < 0 ? `minus ${-n}` : String(n)}`;

/** The integer a marked value stands for, or null for any other text. */
export function unmarked(text: string): number | null {
  const m = new RegExp(`^${MARK}value (minus )?(\\d+)$`).exec(text);
  return m ? (m[1] ? -Number(m[2]) : Number(m[2])) : null;
}

const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** A schema node that is an integer enumeration (its values integers, or null beside them). */
function intEnum(node: Record<string, unknown>): boolean {
  const values = node.enum;
  if (!Array.isArray(values) || !values.some(isInt) || !values.every((v) => isInt(v) || v === null)) return false;
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  return types.every((t) => t === 'integer' || t === 'number' || t === 'null');
}

/** The node as a string enumeration of marked values. */
function asMarked(node: Record<string, unknown>): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(node).filter(([k]) => !NUMERIC.includes(k)));
  const values = node.enum as Array<number | null>;
  out.enum = values.map((v) => (v === null ? null : marked(v)));
  out.type = values.includes(null) ? ['string', 'null'] : 'string';
  return out;
}

/**
 * The schemas with every integer enumeration marked. Throws, naming its place, on a string enumeration
 * whose value starts with the mark (it would be read back as an integer).
 */
export function markIntegerEnums(model: ApiModel, schemas: Record<string, unknown>): Record<string, unknown> {
  const walk = (node: unknown, path: string[], names: boolean): unknown => {
    if (Array.isArray(node)) return node.map((v, i) => walk(v, [...path, String(i)], false));
    if (typeof node !== 'object' || node === null) return node;
    const o = node as Record<string, unknown>;
    if (!names && intEnum(o)) return asMarked(o);
    const clash = !names && Array.isArray(o.enum) && o.enum.some((v) => typeof v === 'string' && v.startsWith(MARK));
    if (clash)
      throw new Error(
        `--lang: the enum at ${JSON.stringify(toPointer([...path, 'enum']))} has ` +
          `a value starting with U+0001, which the Python and Go models use to mark ` +
          `integer enums; remove that character or leave python and go out of --lang`,
      );
    return Object.fromEntries(
      Object.entries(o).map(([k, v]) => [
        k,
        names ? walk(v, [...path, k], false) : DATA_KEYWORDS.has(k) ? v : walk(v, [...path, k], SCHEMA_MAP.has(k)),
      ]),
    );
  };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, s]) => [
      name,
      walk(s, model.schemaOrigins?.[name] ?? ['components', 'schemas', name], false),
    ]),
  );
}

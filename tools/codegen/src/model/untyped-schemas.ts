/**
 * A schema that says nothing of its value's type (`not`, `if`, a bare `minimum`, `format` or
 * `required`, only a description) accepts a value of any type: ajv lets a string through
 * `{not: {type: integer}}` and `{minimum: 3}` alike. json-schema-to-typescript reads such a schema as
 * an object (`{[k: string]: unknown}`), and an `allOf` part that only describes its sibling
 * (`allOf: [{$ref: Id}, {description}]`) as an object intersected with it (`Id & {[k: string]:
 * unknown}`): types no valid value fits. Here each such schema becomes `unknown` (its `tsType`), and an
 * `allOf` part that only annotates is dropped (its description moves up when its parent has none), so
 * a type is never narrower than what the validator accepts.
 *
 * Left to json-schema-to-typescript: a schema with `properties`, `patternProperties`,
 * `additionalProperties` or `items` but no `type` stays the object or array it describes (what its
 * author meant; the validator would also accept other types there).
 */
import { isObj, type Obj } from '../load/spec-types';
import { ANNOTATION_KEYWORDS, SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE } from '@exchange-api/types/json-schema-keywords';

/** Keywords that make json-schema-to-typescript write a type of that shape (or that are one). */
const SHAPING = [
  'type',
  '$ref',
  'enum',
  'const',
  'allOf',
  'anyOf',
  'oneOf',
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'tsType',
];

/** Keywords that only annotate: a schema of these alone constrains nothing. */
const ANNOTATIONS = new Set(ANNOTATION_KEYWORDS);

/** Whether a schema (an object) names no type and no shape: any JSON value's type passes it. */
export const isUntyped = (schema: Obj): boolean => SHAPING.every((k) => schema[k] === undefined);

/** Whether a schema only annotates (a description, a title…): it accepts every value. */
const onlyAnnotates = (schema: unknown): boolean =>
  isObj(schema) && Object.keys(schema).every((k) => ANNOTATIONS.has(k) || k.startsWith('x-'));

/** The `allOf` of a schema without its parts that only annotate (their first description moved up). */
function withoutAnnotatingParts(node: Obj): Obj {
  if (!Array.isArray(node.allOf)) return node;
  const parts = node.allOf.filter((p) => !onlyAnnotates(p));
  if (parts.length === node.allOf.length || parts.length === 0) return node;
  const described = node.allOf.find((p) => onlyAnnotates(p) && typeof (p as Obj).description === 'string') as
    Obj | undefined;
  const out: Obj = { ...node, allOf: parts };
  if (out.description === undefined && described) out.description = described.description;
  return out;
}

/** A copy of a schema in which every schema that names no type is `unknown` for json-schema-to-typescript. */
export function untypedAsUnknown<T>(schema: T): T {
  const walk = (node: unknown): unknown => {
    if (!isObj(node)) return node;
    const source = withoutAnnotatingParts(node);
    const out: Obj = {};
    for (const [k, v] of Object.entries(source)) {
      if (SCHEMA_LIST.has(k) && Array.isArray(v)) out[k] = v.map(walk);
      else if (SCHEMA_ONE.has(k)) out[k] = walk(v);
      else if (SCHEMA_MAP.has(k) && isObj(v))
        out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, walk(s)]));
      else out[k] = v;
    }
    if (isUntyped(out)) out.tsType = 'unknown';
    return out;
  };
  return walk(schema) as T;
}

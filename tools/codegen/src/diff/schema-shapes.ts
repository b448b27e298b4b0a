/**
 * How the diff reads a schema's shape: its union variants, its value without null, the JSON types it
 * allows, its fields (with those of inline `allOf` parts), its tuple, its meaning as text, and where a
 * named schema stands in its spec.
 */
import type { ApiModel, JsonSchema } from '../model/types';
import { refName } from '../model/schema-tools';
import { isObj } from '../load/spec-types';

export const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON pointer of a named schema in its spec (for the exact text of its 64-bit integers). */
export const pointerOf = (model: ApiModel, name: string) =>
  '#/' + (model.schemaOrigins?.[name] ?? ['components', 'schemas', name]).map(escape).join('/');

/** A schema at a place of its spec. */
export interface Branch {
  schema: JsonSchema;
  pointer: string;
}

/** The non-null branches of a union (`anyOf`/`oneOf`), each with its pointer. */
export function variantsOf(schema: JsonSchema, pointer: string): Branch[] {
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = schema[k];
    if (Array.isArray(list))
      return list.flatMap((s, i) =>
        isObj(s) && s.type === 'null'
          ? []
          : [{ schema: (isObj(s) ? s : {}) as JsonSchema, pointer: `${pointer}/${k}/${i}` }],
      );
  }
  return [];
}

/** The schema without its null: `anyOf: [X, null]` is X, `type: [string, null]` is `type: string`. */
export function valueOf(schema: JsonSchema, pointer: string): Branch {
  const variants = variantsOf(schema, pointer);
  if (variants.length === 1 && (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))) {
    const rest = { ...schema };
    delete rest.anyOf;
    delete rest.oneOf;
    return valueOf({ ...rest, ...variants[0]!.schema }, variants[0]!.pointer);
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, pointer };
  }
  return { schema, pointer };
}

/** The JSON types a value schema allows (null aside), as one string; empty when it does not say. */
export function typesOf(s: JsonSchema): string {
  const t = Array.isArray(s.type)
    ? s.type
    : s.type !== undefined
      ? [s.type]
      : isObj(s.properties) || Array.isArray(s.allOf)
        ? ['object']
        : s.items !== undefined || s.prefixItems !== undefined
          ? ['array']
          : [];
  return (t as string[])
    .filter((x) => x !== 'null')
    .sort()
    .join(' | ');
}

export interface Fields {
  props: Map<string, Branch>;
  required: Set<string>;
  closed: boolean;
  bases: string[];
}

/**
 * The properties of an object schema with those of its inline `allOf` parts (named parts are compared as their own
 * types).
 */
export function fieldsOf(
  schema: JsonSchema,
  pointer: string,
  into: Fields = { props: new Map(), required: new Set(), closed: schema.additionalProperties === false, bases: [] },
): Fields {
  if (isObj(schema.properties))
    for (const [k, v] of Object.entries(schema.properties))
      if (!into.props.has(k))
        into.props.set(k, { schema: (isObj(v) ? v : {}) as JsonSchema, pointer: `${pointer}/properties/${escape(k)}` });
  if (Array.isArray(schema.required)) for (const r of schema.required) into.required.add(String(r));
  if (Array.isArray(schema.allOf))
    schema.allOf.forEach((part, i) => {
      const name = refName(part);
      if (name) into.bases.push(name);
      else if (isObj(part)) fieldsOf(part, `${pointer}/allOf/${i}`, into);
    });
  return into;
}

export const tupleOf = (s: JsonSchema, pointer: string): Branch[] | null => {
  const key = Array.isArray(s.prefixItems) ? 'prefixItems' : Array.isArray(s.items) ? 'items' : null;
  return key
    ? (s[key] as unknown[]).map((x, i) => ({
        schema: (isObj(x) ? x : {}) as JsonSchema,
        pointer: `${pointer}/${key}/${i}`,
      }))
    : null;
};

/** A schema's meaning as text: keys sorted, documentation and extensions left out. */
export const meaning = (schema: unknown): string =>
  JSON.stringify(schema, (k, v: unknown) =>
    k === 'description' || k === 'title' || k === 'examples' || k.startsWith('x-')
      ? undefined
      : isObj(v)
        ? Object.fromEntries(Object.entries(v).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)))
        : v,
  );

/** A named schema's definition, else the schema itself. */
export const resolved = (schema: JsonSchema, model: ApiModel): JsonSchema => {
  const name = refName(schema);
  return (name !== null ? model.schemas[name] : undefined) ?? schema;
};

/**
 * Whether `x` (not a union) is one variant of the union `y`: the same named schema, or one of the same
 * meaning. So `string` → `string | integer` widens a field rather than changing its type.
 */
export function oneVariantOf(x: JsonSchema, y: JsonSchema, xModel: ApiModel, yModel: ApiModel): boolean {
  const union = variantsOf(resolved(y, yModel), '');
  if (union.length < 2 || variantsOf(resolved(x, xModel), '').length > 0) return false;
  const name = refName(x);
  return union.some(
    (v) =>
      (name !== null && refName(v.schema) === name) ||
      meaning(resolved(x, xModel)) === meaning(resolved(v.schema, yModel)),
  );
}

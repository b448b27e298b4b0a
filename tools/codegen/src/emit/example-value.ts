/** A value of a schema for a README's call (the SDK README's JSON-RPC and message examples alike). */
import type { JsonSchema } from '../model/types';

/**
 * A value of `schema` for the README's call, so the example compiles and reads as a real call: the
 * schema's own example, default, const or first enum value, else its required fields filled in (a
 * string as `<field>`, a number at its minimum, an array empty or of one item); `$ref`s read from
 * `schemas`, the first branch of a `oneOf`/`anyOf` that is not null, `allOf` merged. Bounded in depth.
 */
export function exampleValue(
  schema: unknown,
  schemas: Record<string, JsonSchema>,
  field = 'value',
  depth = 0,
): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return null;
  const s = schema as JsonSchema;
  if (typeof s.$ref === 'string') return exampleValue(schemas[s.$ref.split('/').pop()!], schemas, field, depth + 1);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  for (const k of ['example', 'default', 'const'] as const) if (s[k] !== undefined) return s[k];
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum.find((v) => v !== null) ?? null;
  const branches = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const branch = branches.find((b) => (b as JsonSchema)?.type !== 'null') ?? branches[0];
    return exampleValue(branch, schemas, field, depth + 1);
  }
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((b) => exampleValue(b, schemas, field, depth + 1));
    return Object.assign({}, ...parts.filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v)));
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'string') return `<${field}>`;
  if (type === 'integer' || type === 'number') {
    const min =
      typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
    return type === 'integer' ? Math.ceil(min) : min;
  }
  if (type === 'boolean') return false;
  if (type === 'null') return null;
  if (type === 'array')
    return typeof s.minItems === 'number' && s.minItems > 0 ? [exampleValue(s.items, schemas, field, depth + 1)] : [];
  if (type === 'object' || s.properties !== undefined) {
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    return Object.fromEntries(
      required.filter((k) => k in props).map((k) => [k, exampleValue(props[k], schemas, k, depth + 1)]),
    );
  }
  return {};
}

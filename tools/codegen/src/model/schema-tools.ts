import type { JsonSchema } from './types';
import { isObj, type Obj } from '../load/spec-types';
import { SCHEMA_MAP } from '@exchange-api/types/json-schema-keywords';

export const COMPONENT_SCHEMA_PREFIX = '#/components/schemas/';
export const DEFINITION_PREFIX = '#/definitions/';

/** A copy of a schema without x- keys, with component refs rewritten to `#/definitions/<Name>`. */
export function cleanSchema(schema: unknown): JsonSchema {
  const walk = (node: unknown, names = false): unknown => {
    if (Array.isArray(node)) return node.map((v) => walk(v));
    if (!isObj(node)) return node;
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (names) {
        out[k] = walk(v);
        continue;
      }
      if (k.startsWith('x-')) continue;
      if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT_SCHEMA_PREFIX)) {
        out[k] = DEFINITION_PREFIX + v.slice(COMPONENT_SCHEMA_PREFIX.length);
      } else if (k === 'examples' || k === 'default' || k === 'const' || k === 'enum') {
        out[k] = structuredClone(v);
      } else {
        out[k] = walk(v, SCHEMA_MAP.has(k));
      }
    }
    return out;
  };
  return (isObj(schema) ? walk(schema) : {}) as JsonSchema;
}

/** The named schema a ref points to, or null. */
export function refName(schema: unknown): string | null {
  if (!isObj(schema) || typeof schema.$ref !== 'string') return null;
  const ref = schema.$ref;
  for (const prefix of [DEFINITION_PREFIX, COMPONENT_SCHEMA_PREFIX])
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  return null;
}

/** Every named schema a schema refers to, in first-seen order. */
export function refsOf(schema: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObj(node)) return;
    const name = refName(node);
    if (name && !found.includes(name)) found.push(name);
    for (const [k, v] of Object.entries(node))
      if (k !== 'examples' && k !== 'default' && k !== 'enum' && k !== 'const') walk(v);
  };
  walk(schema);
  return found;
}

/** Whether a schema admits null. */
export function isNullable(schema: unknown): boolean {
  if (!isObj(schema)) return false;
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = schema[k];
    if (Array.isArray(list) && list.some(isNullable)) return true;
  }
  return false;
}

/** A short type expression for people: `Decimal | null`, `array of Order`, `map of string to Decimal`. */
export function describeType(schema: unknown): string {
  if (!isObj(schema)) return 'any';
  const name = refName(schema);
  if (name) return name;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = schema[k];
    if (Array.isArray(list)) return list.map(describeType).join(' | ');
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map(describeType).join(' & ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return types.map((t) => describeType({ ...schema, type: t })).join(' | ');
  const t = types[0];
  if (t === 'array') {
    if (Array.isArray(schema.items)) return `[${schema.items.map(describeType).join(', ')}]`;
    return `array of ${describeType(schema.items)}`;
  }
  if (t === 'object' || (t === undefined && isObj(schema.properties))) {
    if (isObj(schema.additionalProperties) && !schema.properties)
      return `map of string to ${describeType(schema.additionalProperties)}`;
    if (isObj(schema.properties)) return 'object';
    return 'object';
  }
  if (t === 'integer' || t === 'number' || t === 'string' || t === 'boolean' || t === 'null') return t;
  return 'any';
}

/**
 * The payload of a channel (or a reply) with several messages is `{anyOf: [each message's payload]}`
 * (spec-reader.ts, shared-address.ts): its variants, or null for any other payload.
 */
export function messageVariants(schema: unknown): JsonSchema[] | null {
  return isObj(schema) && Object.keys(schema).length === 1 && Array.isArray(schema.anyOf)
    ? (schema.anyOf as JsonSchema[])
    : null;
}

/** The payload schema of several messages, any one of which may come (see messageVariants). */
export const anyMessage = (variants: JsonSchema[]): JsonSchema => ({ anyOf: variants });

/**
 * The schema that carries a nullable value's constraints: the one non-null branch of an
 * `anyOf`/`oneOf` (`[X, null]` is X), with its pointer below the schema; else the schema itself.
 */
export function nonNullBranch(schema: JsonSchema): { schema: JsonSchema; path: string } {
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    const rest = list.map((s, i) => [s, i] as const).filter(([s]) => !(isObj(s) && s.type === 'null'));
    if (rest.length === 1) return { schema: rest[0]![0] as JsonSchema, path: `/${k}/${rest[0]![1]}` };
  }
  return { schema, path: '' };
}

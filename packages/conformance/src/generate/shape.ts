/**
 * A schema read flat: $refs followed, allOf merged, anyOf/oneOf kept as branches, type lists spread. The
 * value generators work on this reading, and every value they make is checked against the real schema
 * (schema-set.ts), so a reading that is too loose only costs a dropped case, never a wrong verdict.
 */
import { deref, type Schema } from './spec';

/** The flat reading of one schema. */
export interface Shape {
  types: Set<string>;
  enum: unknown[] | null;
  props: Record<string, Schema>;
  required: string[];
  closed: boolean;
  items: Schema | null;
  branches: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  maxProperties?: number;
}

const ALL_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function empty(): Shape {
  return { types: new Set(), enum: null, props: {}, required: [], closed: false, items: null, branches: [] };
}

function typesOf(s: Record<string, unknown>): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.map(String);
  if ('const' in s) return [jsonType(s.const)];
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map(jsonType))];
  if (isObj(s.properties) || Array.isArray(s.required)) return ['object'];
  if (typeof s.pattern === 'string' || typeof s.minLength === 'number') return ['string'];
  return [];
}

/** The JSON type name of a value. */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const NUMERIC = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'maxProperties'] as const;

/** Merge one schema object into a shape (allOf members too). */
function mergeInto(doc: Record<string, unknown>, out: Shape, raw: unknown, depth: number): void {
  const s = deref(doc, raw);
  if (!isObj(s) || depth > 16) return;
  for (const t of typesOf(s)) out.types.add(t);
  if ('const' in s) out.enum = [s.const];
  else if (Array.isArray(s.enum)) out.enum = s.enum;
  if (isObj(s.properties)) Object.assign(out.props, s.properties);
  if (Array.isArray(s.required)) out.required.push(...s.required.map(String).filter((r) => !out.required.includes(r)));
  if (s.additionalProperties === false) out.closed = true;
  if (s.items !== undefined && !Array.isArray(s.items)) out.items = s.items as Schema;
  for (const k of NUMERIC) if (typeof s[k] === 'number') out[k] = s[k];
  if (typeof s.pattern === 'string') out.pattern = s.pattern;
  if (Array.isArray(s.allOf)) for (const m of s.allOf) mergeInto(doc, out, m, depth + 1);
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) out.branches.push(...(s[key] as Schema[]));
}

/** The flat reading of a schema; a schema with no type anywhere accepts every type. */
export function shapeOf(doc: Record<string, unknown>, schema: Schema | null): Shape {
  const out = empty();
  if (schema === null || schema === true) {
    ALL_TYPES.forEach((t) => out.types.add(t));
    return out;
  }
  mergeInto(doc, out, schema, 0);
  const branches = out.branches.map((b) => shapeOf(doc, b));
  for (const b of branches) for (const t of b.types) out.types.add(t);
  // A union of enumerations (and null) is one enumeration: `anyOf: [OrderStatus, {type: 'null'}]`.
  const pureNull = (b: Shape) => b.enum === null && b.types.size === 1 && b.types.has('null');
  if (out.enum === null && branches.some((b) => b.enum) && branches.every((b) => b.enum || pureNull(b)))
    out.enum = branches.flatMap((b) => (b.enum ? b.enum : [null]));
  if (out.types.size === 0) ALL_TYPES.forEach((t) => out.types.add(t));
  if (out.types.has('number')) out.types.add('integer');
  return out;
}

/** Whether the shape accepts null at all. */
export function nullable(s: Shape): boolean {
  return s.types.has('null') || (s.enum?.includes(null) ?? false);
}

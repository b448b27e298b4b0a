/**
 * A value a schema accepts, drawn from a seeded generator: the same seed, the same value. Required
 * properties always, optional ones by a coin; enums and constants as given; a pattern through
 * fast-check's stringMatching. What it draws is checked by the caller's validator, which retries.
 */
import fc from 'fast-check';
import type { Schema } from './mock-model';

/** A small deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

export function sample(schema: unknown, definitions: Record<string, Schema>, rnd: () => number, depth = 0): unknown {
  if (!isObj(schema) || depth > 12) return null;
  const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)]!;
  if (typeof schema.$ref === 'string') {
    const name = /^#\/definitions\/(.+)$/.exec(schema.$ref)?.[1];
    return sample(name ? definitions[name] : undefined, definitions, rnd, depth + 1);
  }
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pick(schema.enum);
  if (Array.isArray(schema.allOf)) return merged(schema, definitions, rnd, depth);
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (options && options.length > 0) {
    const { oneOf: _o, anyOf: _a, ...rest } = schema;
    return sample({ ...rest, ...obj(resolve(pick(options), definitions)) }, definitions, rnd, depth + 1);
  }
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
  switch (type ?? (isObj(schema.properties) ? 'object' : isObj(schema.items) ? 'array' : 'object')) {
    case 'object':
      return objectOf(schema, definitions, rnd, depth);
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      const n = Math.min(
        Math.max(min, 1 + Math.floor(rnd() * 2)),
        typeof schema.maxItems === 'number' ? schema.maxItems : 3,
      );
      return Array.from({ length: n }, () => sample(schema.items ?? {}, definitions, rnd, depth + 1));
    }
    case 'string':
      return stringOf(schema, rnd);
    case 'integer':
    case 'number':
      return numberOf(schema, type === 'integer', rnd);
    case 'boolean':
      return rnd() < 0.5;
    default:
      return null;
  }
}

const obj = (v: unknown): Schema => (isObj(v) ? v : {});

function resolve(schema: unknown, definitions: Record<string, Schema>): unknown {
  const name =
    isObj(schema) && typeof schema.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  return name ? resolve(definitions[name], definitions) : schema;
}

/** An allOf's parts (nested ones too) as one object schema: properties and required together, then sampled. */
function merged(schema: Schema, definitions: Record<string, Schema>, rnd: () => number, depth: number): unknown {
  const partsOf = (s: unknown, d: number): Schema[] => {
    const r = obj(resolve(s, definitions));
    if (!Array.isArray(r.allOf) || d > 12) return [r];
    const { allOf, ...rest } = r;
    return [rest, ...(allOf as unknown[]).flatMap((p) => partsOf(p, d + 1))];
  };
  const parts = partsOf(schema, 0);
  const one: Schema = Object.assign({}, ...parts);
  one.properties = Object.assign({}, ...parts.map((p) => obj(p.properties)));
  one.required = [...new Set(parts.flatMap((p) => (Array.isArray(p.required) ? p.required : [])))];
  return sample(one, definitions, rnd, depth + 1);
}

function objectOf(schema: Schema, definitions: Record<string, Schema>, rnd: () => number, depth: number): unknown {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  // A constant (what tells a message apart: `event: heartbeat`) is always sent, required or not.
  const constant = (p: unknown) => {
    const r = obj(resolve(p, definitions));
    return r.const !== undefined || (Array.isArray(r.enum) && r.enum.length === 1);
  };
  for (const [key, prop] of Object.entries(obj(schema.properties)))
    if (required.has(key) || constant(prop) || rnd() < 0.5) out[key] = sample(prop, definitions, rnd, depth + 1);
  return out;
}

function stringOf(schema: Schema, rnd: () => number): string {
  if (typeof schema.pattern === 'string') {
    try {
      const seed = Math.floor(rnd() * 2 ** 31);
      return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed, numRuns: 1 })[0]!;
    } catch {
      // A pattern fast-check cannot read: a plain string, which the validator may refuse (then retried).
    }
  }
  const formats: Record<string, string> = {
    'date-time': '2026-01-02T03:04:05Z',
    date: '2026-01-02',
    uuid: '7f3c2a9e-1b4d-4c8a-9e2f-0a1b2c3d4e5f',
    email: 'user@example.com',
    uri: 'https://example.com/',
  };
  if (typeof schema.format === 'string' && formats[schema.format]) return formats[schema.format]!;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let s = '';
  while (s.length < Math.max(min, 4)) s += letters[Math.floor(rnd() * letters.length)];
  return typeof schema.maxLength === 'number' ? s.slice(0, schema.maxLength) : s;
}

function numberOf(schema: Schema, integer: boolean, rnd: () => number): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
  const max = typeof schema.maximum === 'number' ? schema.maximum : min + 1000;
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : integer ? 1 : 0.01;
  const n = Math.floor((min + rnd() * (max - min)) / step);
  return Number((n * step).toFixed(12));
}

/**
 * Validation against the spec's own schemas, compiled at run time (ajv), so any spec can be checked:
 * method params and results, channel payloads, and any sub-schema the generator meets. Values may hold
 * bigints (exact 64-bit edges): they are validated as the number a JSON parser reads them as.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { Schema } from './spec';

const ROOT = 'urn:exchange-api:generated-spec';

/** A value as a JSON parser on the other side reads it: bigints become numbers. */
export function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** JSON text of a value; bigints are written as their exact digits. */
export function toJson(v: unknown): string {
  const marked = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `\u0000big:${x}\u0000` : x));
  return marked.replace(/"\\u0000big:(-?[0-9]+)\\u0000"/g, '$1');
}

/** Rewrite local $refs ('#/…') to point into the document added under ROOT. */
function rooted(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rooted);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${ROOT}${v}` : rooted(v),
    ]),
  );
}

/** A stand-in key for a document without definitions or without components. */
const NONE = {};
/** The SchemaSet of each document's schemas, by their identity (definitions, then components). */
const shared = new WeakMap<object, WeakMap<object, SchemaSet>>();
/** Past this many compiled schemas a shared set is replaced: schemas made afresh each run are compiled anew. */
const MAX_COMPILED = 5000;

/** Compiled validators over one spec document, cached by schema identity. */
export class SchemaSet {
  private readonly ajv: Ajv;
  private readonly cache = new Map<unknown, ValidateFunction>();

  /**
   * The set over a document's schemas, shared by every run of that spec in this process (a test process
   * runs many, the command one): a schema is compiled once, not once per run (or per push replayed).
   * Compiled validators keep no state between calls, and `why` reads a function's errors right after it.
   */
  static of(doc: Record<string, unknown>): SchemaSet {
    const defs = typeof doc.definitions === 'object' && doc.definitions !== null ? doc.definitions : NONE;
    const comps = typeof doc.components === 'object' && doc.components !== null ? doc.components : NONE;
    const byComps = shared.get(defs) ?? shared.set(defs, new WeakMap()).get(defs)!;
    let set = byComps.get(comps);
    if (!set || set.cache.size > MAX_COMPILED) {
      set = new SchemaSet(doc);
      byComps.set(comps, set);
    }
    return set;
  }

  constructor(doc: Record<string, unknown>) {
    this.ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, allowUnionTypes: true });
    // The generator's model keeps named schemas under definitions; components too, for a document as written.
    this.ajv.addSchema({ $id: ROOT, definitions: doc.definitions ?? {}, components: doc.components ?? {} });
  }

  private compiled(schema: Schema): ValidateFunction {
    let fn = this.cache.get(schema);
    if (!fn) {
      fn = this.ajv.compile(typeof schema === 'boolean' ? schema : (rooted(schema) as object));
      this.cache.set(schema, fn);
    }
    return fn;
  }

  /** Whether the value conforms; a schema that cannot be compiled accepts everything. */
  valid(schema: Schema | null, value: unknown): boolean {
    if (schema === null) return true;
    try {
      return this.compiled(schema)(plain(value)) === true;
    } catch {
      return true;
    }
  }

  /** The first reason the value does not conform ('' when it does). */
  why(schema: Schema | null, value: unknown): string {
    if (schema === null) return '';
    try {
      const fn = this.compiled(schema);
      if (fn(plain(value))) return '';
      const e = fn.errors?.[0];
      return e
        ? `${e.instancePath || '/'} ${e.message ?? 'fails'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`
        : 'fails';
    } catch {
      return '';
    }
  }
}

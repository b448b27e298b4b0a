import type { JsonSchema } from '@exchange-api/codegen';
import type { Field, JsonType, Shape } from './shape';

const isObj = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const refName = (s: JsonSchema) =>
  typeof s.$ref === 'string' ? s.$ref.replace(/^#\/(definitions|components\/schemas)\//, '') : null;

/**
 * A spec schema as an evidence shape, so both sides compare in one vocabulary: named schemas become
 * `ref`s (resolved by `resolve`), `allOf` is merged, `anyOf`/`oneOf` of scalars and null become a type
 * list, a `const` a one-value enumeration.
 */
export class SpecShapes {
  constructor(readonly schemas: Record<string, JsonSchema>) {}

  /** The shape of a schema; a named record stays a `ref` (its fields through `resolve`). */
  shape(schema: unknown): Shape {
    if (!isObj(schema)) return { types: ['any'] };
    const name = refName(schema);
    if (name !== null) {
      const target = this.schemas[name];
      if (!target) throw new Error(`spec: $ref to unknown schema ${name}`);
      // Records stay named (compared once per pair); scalars and aliases inline.
      return this.isRecord(target) ? { types: ['object'], ref: name } : this.shape(target);
    }
    if (Array.isArray(schema.allOf)) return this.merged(schema);
    const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (Array.isArray(alternatives)) return this.union(alternatives.map((a) => this.shape(a)));
    return this.plain(schema);
  }

  /** The fields of a record schema (its `properties`, merged over `allOf`). */
  resolve(name: string): Shape {
    const target = this.schemas[name];
    if (!target) throw new Error(`spec: unknown schema ${name}`);
    return Array.isArray(target.allOf) ? this.merged(target) : this.plain(target);
  }

  private isRecord(s: JsonSchema): boolean {
    if (Array.isArray(s.allOf)) return true;
    return (s.type === 'object' || (s.type === undefined && isObj(s.properties))) && isObj(s.properties);
  }

  private merged(schema: JsonSchema): Shape {
    const fields = new Map<string, Field>();
    for (const part of schema.allOf as unknown[]) {
      const p = this.shape(part);
      const resolved = p.ref ? this.resolve(p.ref) : p;
      for (const f of resolved.fields ?? []) fields.set(f.name, f);
    }
    const own = this.plain({ ...schema, allOf: undefined, type: 'object' });
    for (const f of own.fields ?? []) fields.set(f.name, f);
    return { types: ['object'], fields: [...fields.values()].sort(byName) };
  }

  private plain(schema: JsonSchema): Shape {
    const declared = schema.type;
    let types: JsonType[] = Array.isArray(declared)
      ? (declared as JsonType[])
      : typeof declared === 'string'
        ? [declared as JsonType]
        : isObj(schema.properties)
          ? ['object']
          : [];
    const out: Shape = { types: [] };
    if ('const' in schema) out.enum = [schema.const as string];
    if (Array.isArray(schema.enum))
      out.enum = (schema.enum as Array<string | number | boolean | null>).filter((v) => v !== null) as Array<
        string | number | boolean
      >;
    if (out.enum && types.length === 0) types = [...new Set(out.enum.map((v) => typeof v as JsonType))];
    if (types.length === 0) return { types: ['any'] };
    out.types = [...new Set(types)].sort();
    if (types.includes('object')) {
      const props = isObj(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const fields = Object.entries(props).map(([name, s]) => ({
        name,
        required: required.has(name),
        ...this.shape(s),
      }));
      if (fields.length > 0) out.fields = fields.sort(byName);
      if (isObj(schema.additionalProperties)) out.values = this.shape(schema.additionalProperties);
      else if (fields.length === 0) out.values = { types: ['any'] };
    }
    if (types.includes('array')) {
      if (Array.isArray(schema.prefixItems)) out.tuple = (schema.prefixItems as unknown[]).map((s) => this.shape(s));
      else if (Array.isArray(schema.items)) out.tuple = (schema.items as unknown[]).map((s) => this.shape(s));
      else out.items = this.shape(schema.items);
    }
    return out;
  }

  private union(parts: Shape[]): Shape {
    const types = [...new Set(parts.flatMap((p) => p.types))].sort();
    const structured = parts.filter((p) => !(p.types.length === 1 && p.types[0] === 'null'));
    if (structured.length === 1) return { ...structured[0]!, types };
    const enums = structured.filter((p) => p.enum);
    const out: Shape = { types };
    if (enums.length === structured.length && enums.length > 0) out.enum = enums.flatMap((p) => p.enum!);
    const containers = structured.filter((p) => p.ref || p.fields || p.items || p.tuple || p.values);
    if (containers.length === 1) return { ...containers[0]!, types };
    if (containers.length > 1) out.anyOf = containers;
    return out;
  }
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

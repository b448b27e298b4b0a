/**
 * Changes to the named schemas: one recursive walk over each pair of schemas (old, new) at a JSON path,
 * with the direction its data flows. At every depth it compares nullability, named references, types,
 * enumerations, constraints, properties (with inline `allOf` parts), required fields, closedness, map
 * values, array items and tuples, and union variants (`oneOf`/`anyOf`).
 */
import type { ApiModel, JsonSchema, TypeModel } from '../model/types';
import { describeType, isNullable, refName } from '../model/schema-tools';
import { tsName } from '../emit/naming';
import { change, listDelta, show, type Change } from './change';
import { constraintMoves, overall } from './constraints';
import { flowsIn, flowsOf } from './flows';
import type { Flow, RuleId } from './rules';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every change to the named schemas between two models. */
export function compareTypes(before: ApiModel, after: ApiModel): Change[] {
  const flowsBefore = flowsOf(before);
  const flowsAfter = flowsOf(after);
  const afterByName = new Map(after.types.map((t) => [t.name, t]));
  const beforeNames = new Set(before.types.map((t) => t.name));
  const changes: Change[] = [];
  for (const old of before.types) {
    const now = afterByName.get(old.name);
    const flows = flowsIn(old.name, flowsBefore, flowsAfter);
    if (!now) {
      changes.push(change('type.removed', `${old.kind} ${old.name}`, 'removed', { names: [tsName(old.name)] }));
      continue;
    }
    changes.push(...compareType(old, now, before, after, flows));
  }
  for (const t of after.types)
    if (!beforeNames.has(t.name)) changes.push(change('type.added', `${t.kind} ${t.name}`, 'added'));
  return changes;
}

/** The JSON pointer of a named schema in its spec (for the exact text of its 64-bit integers). */
const pointerOf = (model: ApiModel, name: string) =>
  '#/' + (model.schemaOrigins?.[name] ?? ['components', 'schemas', name]).map(escape).join('/');

/** A union whose only other branch is null is the branch, made nullable: not a change of kind. */
const nullableOnly = (kind: string, schema: JsonSchema) => kind === 'union' && variantsOf(schema, '').length <= 1;

function compareType(old: TypeModel, now: TypeModel, before: ApiModel, after: ApiModel, flows: Flow[]): Change[] {
  const a = before.schemas[old.name] ?? {};
  const b = after.schemas[now.name] ?? {};
  if (old.kind !== now.kind && !nullableOnly(old.kind, a) && !nullableOnly(now.kind, b))
    return [
      change('type.kind-changed', `${now.kind} ${now.name}`, `${old.kind} → ${now.kind}`, {
        names: [tsName(now.name)],
      }),
    ];
  const walk = new Walk(now, flows, before, after);
  walk.pair(a, b, { path: '', field: null, pa: pointerOf(before, old.name), pb: pointerOf(after, now.name) });
  return walk.out;
}

/** Where the walk is: the path below the named type (`meta.a`, `legs[]`), its first property, and the JSON pointers in each spec. */
interface At {
  path: string;
  field: string | null;
  pa: string;
  pb: string;
}

interface Branch {
  schema: JsonSchema;
  pointer: string;
}

/** The non-null branches of a union (`anyOf`/`oneOf`), each with its pointer. */
function variantsOf(schema: JsonSchema, pointer: string): Branch[] {
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
function valueOf(schema: JsonSchema, pointer: string): Branch {
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
function typesOf(s: JsonSchema): string {
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

interface Fields {
  props: Map<string, Branch>;
  required: Set<string>;
  closed: boolean;
  bases: string[];
}

/** The properties of an object schema with those of its inline `allOf` parts (named parts are compared as their own types). */
function fieldsOf(
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

const tupleOf = (s: JsonSchema, pointer: string): Branch[] | null => {
  const key = Array.isArray(s.prefixItems) ? 'prefixItems' : Array.isArray(s.items) ? 'items' : null;
  return key
    ? (s[key] as unknown[]).map((x, i) => ({
        schema: (isObj(x) ? x : {}) as JsonSchema,
        pointer: `${pointer}/${key}/${i}`,
      }))
    : null;
};

/** A schema's meaning as text: keys sorted, documentation and extensions left out. */
const meaning = (schema: unknown): string =>
  JSON.stringify(schema, (k, v: unknown) =>
    k === 'description' || k === 'title' || k === 'examples' || k.startsWith('x-')
      ? undefined
      : isObj(v)
        ? Object.fromEntries(Object.entries(v).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)))
        : v,
  );

/** A named schema's definition, else the schema itself. */
const resolved = (schema: JsonSchema, model: ApiModel): JsonSchema => {
  const name = refName(schema);
  return (name !== null ? model.schemas[name] : undefined) ?? schema;
};

/**
 * Whether `x` (not a union) is one variant of the union `y`: the same named schema, or one of the same
 * meaning. So `string` → `string | integer` widens a field rather than changing its type.
 */
function oneVariantOf(x: JsonSchema, y: JsonSchema, xModel: ApiModel, yModel: ApiModel): boolean {
  const union = variantsOf(resolved(y, yModel), '');
  if (union.length < 2 || variantsOf(resolved(x, xModel), '').length > 0) return false;
  const name = refName(x);
  return union.some(
    (v) =>
      (name !== null && refName(v.schema) === name) ||
      meaning(resolved(x, xModel)) === meaning(resolved(v.schema, yModel)),
  );
}

class Walk {
  readonly out: Change[] = [];
  private readonly ts: string;
  private readonly exactA: Record<string, string>;
  private readonly exactB: Record<string, string>;
  constructor(
    private readonly type: TypeModel,
    private readonly flows: Flow[],
    private readonly before: ApiModel,
    private readonly after: ApiModel,
  ) {
    this.ts = tsName(type.name);
    this.exactA = before.exactIntegers ?? {};
    this.exactB = after.exactIntegers ?? {};
  }

  private subject(at: At): string {
    const head = `${this.type.kind} ${this.type.name}`;
    if (at.path === '') return head;
    return at.field !== null && at.path.startsWith(at.field) ? `${head}, field ${at.path}` : `${head}, at ${at.path}`;
  }

  private name(at: At): string {
    return at.field !== null ? `${this.ts}.${at.field}` : this.ts;
  }

  private push(rule: RuleId, at: At, detail: string, named = true): void {
    this.out.push(change(rule, this.subject(at), detail, { flows: this.flows, names: named ? [this.name(at)] : [] }));
  }

  /** Compare two schemas at one place. */
  pair(a: JsonSchema, b: JsonSchema, at: At): void {
    const na = isNullable(a);
    const nb = isNullable(b);
    if (na !== nb)
      this.push(
        nb ? 'field.made-nullable' : 'field.made-non-nullable',
        at,
        nb ? 'may now be null' : 'may no longer be null',
      );
    const va = valueOf(a, at.pa);
    const vb = valueOf(b, at.pb);
    this.value(va.schema, vb.schema, { ...at, pa: va.pointer, pb: vb.pointer });
  }

  private value(a: JsonSchema, b: JsonSchema, at: At): void {
    const ra = refName(a);
    const rb = refName(b);
    if (ra !== rb || ra === null) {
      const grown = oneVariantOf(a, b, this.before, this.after);
      if (grown || oneVariantOf(b, a, this.after, this.before)) {
        const why = grown ? 'the old type is one of the new variants' : 'the new type was one of the old variants';
        this.push(
          grown ? 'union.variant-added' : 'union.variant-removed',
          at,
          `${describeType(a)} → ${describeType(b)} (${why})`,
        );
        return;
      }
    }
    if (ra !== null || rb !== null) {
      // A named schema is compared as its own type; here only which one is named matters.
      if (ra !== rb) this.push('field.type-changed', at, `${describeType(a)} → ${describeType(b)}`);
      return;
    }
    const ta = typesOf(a);
    const tb = typesOf(b);
    const unionA = variantsOf(a, at.pa);
    const unionB = variantsOf(b, at.pb);
    if (ta !== tb && !(ta === '' && unionA.length) && !(tb === '' && unionB.length)) {
      this.push('field.type-changed', at, `${ta || 'any'} → ${tb || 'any'}`);
      return;
    }
    this.enumeration(a, b, at);
    const moves = constraintMoves(
      a,
      b,
      (k) => this.exactA[`${at.pa}/${k}`],
      (k) => this.exactB[`${at.pb}/${k}`],
    );
    if (moves.length) {
      const movement = overall(moves);
      this.push(`constraint.${movement}`, at, moves.map((m) => m.text).join('; '), movement === 'changed');
    }
    this.object(a, b, at);
    this.array(a, b, at);
    this.union(unionA, unionB, at);
  }

  private enumeration(a: JsonSchema, b: JsonSchema, at: At): void {
    const ea = Array.isArray(a.enum) ? (a.enum as Array<string | number>).filter((v) => v !== null) : null;
    const eb = Array.isArray(b.enum) ? (b.enum as Array<string | number>).filter((v) => v !== null) : null;
    if (ea && eb) {
      const { added, removed } = listDelta(ea, eb);
      if (added.length)
        this.push('enum.value-added', at, `values added: ${added.map((v) => show(v)).join(', ')}`, false);
      if (removed.length)
        this.push('enum.value-removed', at, `values removed: ${removed.map((v) => show(v)).join(', ')}`);
    } else if (eb)
      this.push('constraint.narrowed', at, `enum none → ${eb.map((v) => show(v)).join(', ')} (narrowed)`, false);
    else if (ea)
      this.push('constraint.widened', at, `enum ${ea.map((v) => show(v)).join(', ')} → none (widened)`, false);
  }

  private child(at: At, segment: string, pa: string, pb: string, property?: string): At {
    const path =
      property !== undefined ? (at.path === '' ? property : `${at.path}.${property}`) : `${at.path}${segment}`;
    return { path, field: at.field ?? (property !== undefined && at.path === '' ? property : null), pa, pb };
  }

  private object(a: JsonSchema, b: JsonSchema, at: At): void {
    const objectish = (s: JsonSchema) =>
      isObj(s.properties) || Array.isArray(s.allOf) || s.additionalProperties !== undefined || s.type === 'object';
    if (!objectish(a) && !objectish(b)) return;
    const fa = fieldsOf(a, at.pa);
    const fb = fieldsOf(b, at.pb);
    if (fa.bases.join() !== fb.bases.join())
      this.push(
        'field.type-changed',
        at,
        `named parts (allOf) ${fa.bases.join(' & ') || 'none'} → ${fb.bases.join(' & ') || 'none'}`,
      );
    for (const [k, p] of fa.props) {
      const q = fb.props.get(k);
      const at2 = this.child(at, '', p.pointer, q?.pointer ?? '', k);
      if (!q) {
        const was = fa.required.has(k);
        this.push(
          was ? 'field.removed-required' : 'field.removed',
          at2,
          `removed (was ${was ? 'required' : 'optional'} ${describeType(p.schema)})`,
        );
        continue;
      }
      const ra = fa.required.has(k);
      const rb = fb.required.has(k);
      if (ra !== rb)
        this.push(rb ? 'field.made-required' : 'field.made-optional', at2, rb ? 'now required' : 'now optional');
      this.pair(p.schema, q.schema, at2);
    }
    for (const [k, q] of fb.props) {
      if (fa.props.has(k)) continue;
      const required = fb.required.has(k);
      // An old server (or an old client's validator) refuses a field it does not know when the record was closed.
      const rule = required
        ? fa.closed
          ? 'field.added-required-closed'
          : 'field.added-required'
        : fa.closed
          ? 'field.added-optional-closed'
          : 'field.added-optional';
      // A required field is named: code that builds the record stops compiling until it sets the field.
      this.push(
        rule,
        this.child(at, '', '', q.pointer, k),
        `added, ${required ? 'required' : 'optional'} ${describeType(q.schema)}`,
        required,
      );
    }
    if (fa.closed !== fb.closed)
      this.push(
        fb.closed ? 'record.closed' : 'record.opened',
        at,
        fb.closed ? 'no longer accepts fields beyond those listed' : 'now accepts fields beyond those listed',
      );
    const ma = isObj(a.additionalProperties) ? (a.additionalProperties as JsonSchema) : null;
    const mb = isObj(b.additionalProperties) ? (b.additionalProperties as JsonSchema) : null;
    if (ma && mb)
      this.pair(ma, mb, this.child(at, '{}', `${at.pa}/additionalProperties`, `${at.pb}/additionalProperties`));
    else if (ma || mb)
      this.push(
        'field.type-changed',
        at,
        `map values ${ma ? describeType(ma) : 'none'} → ${mb ? describeType(mb) : 'none'}`,
      );
  }

  private array(a: JsonSchema, b: JsonSchema, at: At): void {
    const tupleA = tupleOf(a, at.pa);
    const tupleB = tupleOf(b, at.pb);
    if (tupleA || tupleB) {
      if (!tupleA || !tupleB || tupleA.length !== tupleB.length) {
        this.push(
          'field.type-changed',
          at,
          `${tupleA ? `tuple of ${tupleA.length}` : 'no tuple'} → ${tupleB ? `tuple of ${tupleB.length}` : 'no tuple'}`,
        );
        return;
      }
      tupleA.forEach((x, i) =>
        this.pair(x.schema, tupleB[i]!.schema, this.child(at, `[${i}]`, x.pointer, tupleB[i]!.pointer)),
      );
      return;
    }
    const ia = isObj(a.items) ? (a.items as JsonSchema) : null;
    const ib = isObj(b.items) ? (b.items as JsonSchema) : null;
    if (ia && ib) this.pair(ia, ib, this.child(at, '[]', `${at.pa}/items`, `${at.pb}/items`));
    else if (ia || ib)
      this.push('field.type-changed', at, `items ${ia ? describeType(ia) : 'any'} → ${ib ? describeType(ib) : 'any'}`);
  }

  /** Union variants match by the named schema they refer to, else by their place among the inline ones. */
  private union(va: Branch[], vb: Branch[], at: At): void {
    if (va.length === 0 && vb.length === 0) return;
    if (va.length === 0 || vb.length === 0) {
      this.push(
        'field.type-changed',
        at,
        `${va.length ? `union of ${va.length}` : 'no union'} → ${vb.length ? `union of ${vb.length}` : 'no union'}`,
      );
      return;
    }
    const keyed = (list: Branch[]) => {
      let inline = 0;
      return new Map(list.map((v) => [refName(v.schema) ?? `#${inline++}`, v] as const));
    };
    const ka = keyed(va);
    const kb = keyed(vb);
    const label = (k: string, v: Branch) =>
      k.startsWith('#') ? `${describeType(v.schema)} (variant ${Number(k.slice(1)) + 1})` : k;
    for (const [k, v] of ka) {
      const w = kb.get(k);
      if (!w) this.push('union.variant-removed', at, `variant removed: ${label(k, v)}`);
      else
        this.pair(
          v.schema,
          w.schema,
          this.child(
            at,
            `${at.path === '' ? '' : ' '}(variant ${k.startsWith('#') ? Number(k.slice(1)) + 1 : k})`,
            v.pointer,
            w.pointer,
          ),
        );
    }
    for (const [k, w] of kb)
      if (!ka.has(k)) this.push('union.variant-added', at, `variant added: ${label(k, w)}`, false);
  }
}

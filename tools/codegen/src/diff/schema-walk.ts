/**
 * One recursive walk over a pair of schemas (old, new) at a JSON path, with the direction its data
 * flows. At every depth it compares nullability, named references, types, enumerations, constraints,
 * properties (with inline `allOf` parts), required fields, closedness, map values, array items and
 * tuples, and union variants (`oneOf`/`anyOf`).
 */
import type { ApiModel, JsonSchema } from '../model/types';
import { describeType, isNullable, refName } from '../model/schema-tools';
import { change, listDelta, show, type Change } from './change';
import { constraintMoves, overall } from './constraints';
import type { Flow, RuleId } from './rules';
import {
  fieldsOf,
  meaning,
  oneVariantOf,
  tupleOf,
  typesOf,
  valueOf,
  variantsOf,
  type Branch,
  type Fields,
} from './schema-shapes';
import { isObj } from '../load/spec-types';

/**
 * Where the walk is: the path below the named type (`meta.a`, `legs[]`), its first property, and the JSON pointers in
 * each spec.
 */
export interface At {
  path: string;
  field: string | null;
  pa: string;
  pb: string;
}

/**
 * What a walk reports under: the head of each subject (`record Order`), and the generated names a change at a first
 * property touches.
 */
export interface Place {
  head: string;
  names: (field: string | null) => string[];
}

/** The walk over one pair of schemas (`pair`), its changes gathered in `out`. */
export class Walk {
  readonly out: Change[] = [];
  private readonly exactA: Record<string, string>;
  private readonly exactB: Record<string, string>;
  constructor(
    private readonly place: Place,
    private readonly flows: Flow[],
    private readonly before: ApiModel,
    private readonly after: ApiModel,
  ) {
    this.exactA = before.exactIntegers ?? {};
    this.exactB = after.exactIntegers ?? {};
  }

  private subject(at: At): string {
    const head = this.place.head;
    if (at.path === '') return head;
    return at.field !== null && at.path.startsWith(at.field) ? `${head}, field ${at.path}` : `${head}, at ${at.path}`;
  }

  private push(rule: RuleId, at: At, detail: string, named = true): void {
    this.out.push(
      change(rule, this.subject(at), detail, { flows: this.flows, names: named ? this.place.names(at.field) : [] }),
    );
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
    this.keptFields(fa, fb, at);
    this.addedFields(fa, fb, at);
    this.closedness(a, b, fa, fb, at);
    this.mapValues(a, b, at);
  }

  /** The fields of the old record: gone, made required or optional, or compared. */
  private keptFields(fa: Fields, fb: Fields, at: At): void {
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
  }

  private addedFields(fa: Fields, fb: Fields, at: At): void {
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
  }

  /**
   * Which fields beyond those listed a record takes: none (closed), any, or (closed) those whose names
   * match a pattern. On an open record, patterns only hold matching fields to more (constraints.ts).
   */
  private closedness(a: JsonSchema, b: JsonSchema, fa: Fields, fb: Fields, at: At): void {
    if (fa.closed !== fb.closed)
      this.push(
        fb.closed ? 'record.closed' : 'record.opened',
        at,
        fb.closed ? 'no longer accepts fields beyond those listed' : 'now accepts fields beyond those listed',
      );
    if ((fa.closed || fb.closed) && meaning(a.patternProperties) !== meaning(b.patternProperties))
      this.push(
        'record.pattern-fields-changed',
        at,
        `patternProperties ${a.patternProperties === undefined ? 'none' : show(a.patternProperties)}` +
          ` → ${b.patternProperties === undefined ? 'none' : show(b.patternProperties)}`,
      );
  }

  private mapValues(a: JsonSchema, b: JsonSchema, at: At): void {
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
        const tuple = (t: typeof tupleA) => (t ? `tuple of ${t.length}` : 'no tuple');
        this.push('field.type-changed', at, `${tuple(tupleA)} → ${tuple(tupleB)}`);
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

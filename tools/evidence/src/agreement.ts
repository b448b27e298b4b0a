import type { SpecShapes } from './spec-shape';
import type { JsonType, Shape } from './shape';

/** Which side of a method or channel: what the client sends, or what it reads. */
export type Part = 'params' | 'result' | 'data';

/** One place where the spec and the client's types differ. */
export interface Disagreement {
  /** Where: `order.trigger_type`, `[]` an array's items, `{}` a map's values; empty for the whole value. */
  path: string;
  kind: 'missing' | 'extra' | 'required' | 'types' | 'enum' | 'shape';
  evidence: string;
  spec: string;
  /** The spec's named record the field belongs to (`Trade`), when it is one, and the field's name there. */
  record?: string;
  field?: string;
}

const norm = (types: JsonType[]) => [...new Set(types.map((t) => (t === 'integer' ? 'number' : t)))].sort();
const join = (path: string, name: string) => (path ? `${path}.${name}` : name);

/** The spec record and field a difference belongs to, when it is in a named record. */
type Place = { record: string; field: string } | undefined;

/**
 * Compares a client's shape with the spec's, field by field: names, required, JSON types (an integer is
 * a number to a TypeScript client), enumerations, nested records, items and map values. Results and
 * channel data must be equal. Params must accept everything the client sends, with the same meaning: the
 * spec may accept more (a decimal also as a JSON number, the document's input rule; null; a field left
 * out that this client always sends; fields or enumeration values this client never sends), never less.
 */
export function compareShapes(
  evidence: Shape,
  spec: Shape,
  records: Record<string, Shape>,
  specShapes: SpecShapes,
  part: Part,
): Disagreement[] {
  const c = new Comparison(records, specShapes, part);
  c.walk(evidence, spec, '', undefined);
  return c.out;
}

/** One comparison: its differences, and the record pairs already compared (a record that nests itself stops). */
class Comparison {
  readonly out: Disagreement[] = [];
  private readonly seen = new Set<string>();
  private readonly params: boolean;

  constructor(
    private readonly records: Record<string, Shape>,
    private readonly specShapes: SpecShapes,
    private readonly part: Part,
  ) {
    this.params = part === 'params';
  }

  private push(d: Disagreement, at: Place): void {
    this.out.push(at ? { ...d, ...at } : d);
  }

  walk(a: Shape, b: Shape, path: string, at: Place): void {
    if (a.types.includes('any')) return;
    if (b.types.includes('any')) return this.push({ path, kind: 'types', evidence: describe(a), spec: 'untyped' }, at);
    this.scalars(a, b, path, at);
    if (a.ref && b.ref) {
      const key = `${a.ref}→${b.ref}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    const ra = a.ref ? this.records[a.ref] : a;
    const rb = b.ref ? this.specShapes.resolve(b.ref) : b;
    if (!ra) throw new Error(`evidence: unknown record ${a.ref}`);
    if (ra.fields || rb.fields) this.fields(ra, rb, path, b.ref);
    this.containers(ra, rb, path, at);
  }

  /** JSON types and enumerations. */
  private scalars(a: Shape, b: Shape, path: string, at: Place): void {
    const ta = norm(a.types);
    const tb = norm(b.types);
    // In params the spec may take more JSON types (a decimal as a number too, null), never fewer.
    const typesOk = this.params ? ta.every((t) => tb.includes(t)) : ta.join() === tb.join();
    if (!typesOk) this.push({ path, kind: 'types', evidence: ta.join('|'), spec: tb.join('|') }, at);
    const ea = a.enum ? [...new Set(a.enum.map(String))].sort() : null;
    const eb = b.enum ? [...new Set(b.enum.map(String))].sort() : null;
    // In params the spec's enumeration may hold more values than the client sends, or be open.
    const enumOk = this.params && (eb === null || (ea !== null && ea.every((v) => eb.includes(v))));
    if (!enumOk && ea?.join() !== eb?.join()) {
      this.push({ path, kind: 'enum', evidence: ea ? ea.join('|') : 'open', spec: eb ? eb.join('|') : 'open' }, at);
    }
  }

  /** Map values, array items, tuples and alternatives. */
  private containers(ra: Shape, rb: Shape, path: string, at: Place): void {
    const shape = (evidence: string, spec: string) => this.push({ path, kind: 'shape', evidence, spec }, at);
    if (ra.values || rb.values) {
      if (ra.values && rb.values) this.walk(ra.values, rb.values, `${path}{}`, undefined);
      // A client that sends no fields and a spec that declares none: the same empty params.
      else if (this.params && !ra.fields?.length && !rb.fields?.length) return;
      else if (!ra.fields?.length || !rb.fields?.length)
        shape(ra.values ? 'map' : 'record', rb.values ? 'map' : 'record');
    }
    if (ra.items || rb.items) {
      if (ra.items && rb.items) this.walk(ra.items, rb.items, `${path}[]`, undefined);
      else shape(describe(ra), describe(rb));
    }
    if (ra.tuple || rb.tuple) {
      if (ra.tuple && rb.tuple && ra.tuple.length === rb.tuple.length)
        ra.tuple.forEach((t, i) => this.walk(t, rb.tuple![i]!, `${path}[${i}]`, undefined));
      else if (!(ra.items || rb.items)) shape(describe(ra), describe(rb));
    }
    if (ra.anyOf || rb.anyOf) {
      const la = ra.anyOf ?? [ra];
      const lb = rb.anyOf ?? [rb];
      const same = (x: Shape, y: Shape) => compareShapes(x, y, this.records, this.specShapes, this.part).length === 0;
      if (!la.every((x) => lb.some((y) => same(x, y))) || la.length !== lb.length)
        shape(`${la.length} alternatives`, `${lb.length} alternatives`);
    }
  }

  /** A record's fields, by name. */
  private fields(a: Shape, b: Shape, path: string, record: string | undefined): void {
    const at = (field: string): Place => (record ? { record, field } : undefined);
    const fb = new Map((b.fields ?? []).map((f) => [f.name, f]));
    for (const f of a.fields ?? []) {
      const g = fb.get(f.name);
      const p = join(path, f.name);
      if (!g) {
        this.push({ path: p, kind: 'missing', evidence: describe(f), spec: 'absent' }, at(f.name));
        continue;
      }
      fb.delete(f.name);
      // In params the spec may let a field be left out that this client always sends.
      if (f.required !== g.required && !(this.params && f.required)) {
        const word = (r: boolean) => (r ? 'required' : 'optional');
        this.push({ path: p, kind: 'required', evidence: word(f.required), spec: word(g.required) }, at(f.name));
      }
      this.walk(f, g, p, at(f.name));
    }
    // In params a field the spec accepts and this client never sends is no conflict, unless the spec requires it.
    for (const g of fb.values()) {
      if (this.params && !g.required) continue;
      this.push({ path: join(path, g.name), kind: 'extra', evidence: 'absent', spec: describe(g) }, at(g.name));
    }
  }
}

/** A shape in a few words, for a report line. */
export function describe(s: Shape): string {
  if (s.ref) return s.ref;
  if (s.items) return `array of ${describe(s.items)}`;
  if (s.tuple) return `[${s.tuple.map(describe).join(', ')}]`;
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join('|');
  if (s.fields) return `{${s.fields.map((f) => f.name).join(', ')}}`;
  return s.types.join('|');
}

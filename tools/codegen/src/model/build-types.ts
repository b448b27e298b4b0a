/** The named schemas described for people: each one's kind, fields (merged over allOf), values and markers. */
import { isObj, type Obj } from '../load/spec-types';
import { cleanSchema, describeType, isNullable, refName, refsOf } from './schema-tools';
import { marker, withMarkers } from './markers';
import { obj, str } from './read-values';
import type { FieldModel, TypeKind, TypeModel } from './types';

/** The type of the named schema `name` (raw, x- keys kept); `all` are the named schemas, for allOf. */
export function buildType(name: string, s: Obj, all: Obj): TypeModel {
  const kind = kindOf(s);
  const t: TypeModel = {
    name,
    kind,
    description: str(s.description),
    refs: refsOf(cleanSchema(s)),
    examples: Array.isArray(s.examples) ? s.examples : [],
  };
  if (kind === 'enum') t.values = s.enum as Array<string | number>;
  if (kind === 'record') {
    t.fields = fieldsOf(s, all);
    t.open = s.additionalProperties !== false;
  }
  return withMarkers(t, s);
}

function kindOf(s: Obj): TypeKind {
  if (Array.isArray(s.enum)) return 'enum';
  if (Array.isArray(s.allOf)) return 'record';
  if (isObj(s.properties)) return 'record';
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return 'union';
  const types = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null') : [s.type];
  if (types.length === 1 && types[0] === 'array') return 'array';
  if (types.length >= 1 && types.every((t) => ['string', 'integer', 'number', 'boolean'].includes(t as string)))
    return 'scalar';
  return 'open';
}

function fieldsOf(s: Obj, all: Obj): FieldModel[] {
  if (Array.isArray(s.allOf)) {
    const merged: FieldModel[] = [];
    for (const part of s.allOf) {
      const name = refName(part);
      const target = name ? obj(all[name]) : obj(part);
      for (const f of fieldsOf(target, all)) if (!merged.some((m) => m.name === f.name)) merged.push(f);
    }
    return merged;
  }
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  return Object.entries(obj(s.properties)).map(([name, raw]) => {
    const p = obj(raw);
    const clean = cleanSchema(p);
    const field: FieldModel = {
      name,
      required: required.has(name),
      nullable: isNullable(clean),
      type: describeType(clean),
      refs: refsOf(clean),
      description: str(p.description),
    };
    if (p.default !== undefined) field.default = p.default;
    const notShown = marker(p, 'x-not-shown') ?? (isObj(p.items) ? marker(p.items, 'x-not-shown') : undefined);
    if (notShown) field.notShown = notShown;
    return field;
  });
}

/**
 * Changes to the named schemas: each pair (old, new) of a name compared by one walk (schema-walk.ts),
 * with the direction its data flows; a schema that changed kind is one change.
 */
import type { ApiModel, JsonSchema, TypeModel } from '../model/types';
import { tsName } from '../model/naming';
import { change, type Change } from './change';
import { flowsIn, flowsOf } from './flows';
import type { Flow } from './rules';
import { pointerOf, variantsOf } from './schema-shapes';
import { Walk } from './schema-walk';

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

/** A union whose only other branch is null is the branch, made nullable: not a change of kind. */
const nullableOnly = (kind: string, schema: JsonSchema) => kind === 'union' && variantsOf(schema, '').length <= 1;

function compareType(old: TypeModel, now: TypeModel, before: ApiModel, after: ApiModel, flows: Flow[]): Change[] {
  let a = before.schemas[old.name] ?? {};
  const b = after.schemas[now.name] ?? {};
  const head: Change[] = [];
  const subject = `${now.kind} ${now.name}`;
  // A shape stated where none was (open), or one branch of a union kept: the data narrows, it does not change kind.
  if (old.kind === 'open' && now.kind !== 'open')
    return [change('type.shape-stated', subject, `open → ${now.kind}`, { flows, names: [tsName(now.name)] })];
  const kept = old.kind === 'union' && now.kind !== 'union' ? keptBranch(a, b) : undefined;
  if (kept) {
    head.push(change('type.union-narrowed', subject, `union → ${now.kind}`, { flows, names: [tsName(now.name)] }));
    a = kept;
  } else if (old.kind !== now.kind && !nullableOnly(old.kind, a) && !nullableOnly(now.kind, b))
    return [
      change('type.kind-changed', `${now.kind} ${now.name}`, `${old.kind} → ${now.kind}`, {
        names: [tsName(now.name)],
      }),
    ];
  const ts = tsName(now.name);
  // A change at a first property names the generated property (`Order.amount`), deeper ones too; above it, the type.
  const place = {
    head: `${now.kind} ${now.name}`,
    names: (field: string | null) => [field !== null ? `${ts}.${field}` : ts],
  };
  const walk = new Walk(place, flows, before, after);
  walk.pair(a, b, { path: '', field: null, pa: pointerOf(before, old.name), pb: pointerOf(after, now.name) });
  return [...head, ...walk.out];
}

/** The branch of union `a` of the same JSON type as `b` (the one a union narrowed to), when exactly one is. */
function keptBranch(a: JsonSchema, b: JsonSchema): JsonSchema | undefined {
  const typeOf = (s: JsonSchema) => (s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined)) as unknown;
  const same = variantsOf(a, '').filter((v) => JSON.stringify(typeOf(v.schema)) === JSON.stringify(typeOf(b)));
  return same.length === 1 && typeOf(b) !== undefined ? same[0]!.schema : undefined;
}

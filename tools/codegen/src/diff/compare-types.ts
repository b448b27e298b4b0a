/** Changes to the named schemas: records and their fields, enumerations, scalars. */
import type { ApiModel, FieldModel, JsonSchema, TypeModel } from '../model/types';
import { tsName } from '../emit/naming';
import { change, listDelta, show, type Change } from './change';
import { constraintMoves, inlineEnum, overall, type ConstraintMove } from './constraints';
import { flowsIn, flowsOf } from './flows';
import type { Flow } from './rules';

type Props = Record<string, JsonSchema>;
const propsOf = (schema: JsonSchema | undefined): Props => ((schema?.properties ?? {}) as Props);

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
    changes.push(...compareType(old, now, before.schemas[old.name] ?? {}, after.schemas[now.name] ?? {}, flows));
  }
  for (const t of after.types) if (!beforeNames.has(t.name)) changes.push(change('type.added', `${t.kind} ${t.name}`, 'added'));
  return changes;
}

function compareType(old: TypeModel, now: TypeModel, oldSchema: JsonSchema, newSchema: JsonSchema, flows: Flow[]): Change[] {
  const subject = `${now.kind} ${now.name}`;
  const name = tsName(now.name);
  if (old.kind !== now.kind) return [change('type.kind-changed', subject, `${old.kind} → ${now.kind}`, { names: [name] })];
  const changes: Change[] = [];
  if (old.values || now.values) changes.push(...enumChanges(subject, old.values ?? [], now.values ?? [], flows, [name]));
  if (old.kind === 'record') {
    changes.push(...fieldChanges(old, now, oldSchema, newSchema, flows));
    if (Boolean(old.open) !== Boolean(now.open))
      changes.push(change(now.open ? 'record.opened' : 'record.closed', subject, now.open ? 'now accepts fields beyond those listed' : 'no longer accepts fields beyond those listed', { flows, names: [name] }));
  } else if (old.kind === 'scalar' || old.kind === 'array') {
    if (JSON.stringify(oldSchema.type) !== JSON.stringify(newSchema.type))
      changes.push(change('field.type-changed', subject, `type ${show(oldSchema.type)} → ${show(newSchema.type)}`, { flows, names: [name] }));
    changes.push(...constraintChange(subject, constraintMoves(oldSchema, newSchema), flows, [name]));
  }
  return changes;
}

function enumChanges(subject: string, before: Array<string | number>, after: Array<string | number>, flows: Flow[], names: string[]): Change[] {
  const { added, removed } = listDelta(before, after);
  const out: Change[] = [];
  if (added.length) out.push(change('enum.value-added', subject, `values added: ${added.map((v) => show(v)).join(', ')}`, { flows }));
  if (removed.length) out.push(change('enum.value-removed', subject, `values removed: ${removed.map((v) => show(v)).join(', ')}`, { flows, names }));
  return out;
}

function constraintChange(subject: string, moves: ConstraintMove[], flows: Flow[], names: string[]): Change[] {
  if (moves.length === 0) return [];
  const movement = overall(moves);
  return [change(`constraint.${movement}`, subject, moves.map((m) => m.text).join('; '), { flows, names: movement === 'changed' ? names : [] })];
}

function fieldChanges(old: TypeModel, now: TypeModel, oldSchema: JsonSchema, newSchema: JsonSchema, flows: Flow[]): Change[] {
  const record = tsName(now.name);
  const oldFields = new Map((old.fields ?? []).map((f) => [f.name, f]));
  const newFields = new Map((now.fields ?? []).map((f) => [f.name, f]));
  const changes: Change[] = [];
  for (const [fieldName, f] of oldFields) {
    const subject = `record ${now.name}, field ${fieldName}`;
    const g = newFields.get(fieldName);
    if (!g) {
      changes.push(change('field.removed', subject, `removed (was ${f.required ? 'required' : 'optional'} ${f.type})`, { flows, names: [`${record}.${fieldName}`] }));
      continue;
    }
    changes.push(...fieldChange(subject, f, g, propsOf(oldSchema)[fieldName] ?? {}, propsOf(newSchema)[fieldName] ?? {}, flows, `${record}.${fieldName}`));
  }
  for (const [fieldName, g] of newFields) {
    if (oldFields.has(fieldName)) continue;
    const rule = g.required ? 'field.added-required' : 'field.added-optional';
    changes.push(change(rule, `record ${now.name}, field ${fieldName}`, `added, ${g.required ? 'required' : 'optional'} ${g.type}`, { flows }));
  }
  return changes;
}

function fieldChange(subject: string, f: FieldModel, g: FieldModel, a: JsonSchema, b: JsonSchema, flows: Flow[], name: string): Change[] {
  const out: Change[] = [];
  if (f.type !== g.type && !(inlineEnum(a) && inlineEnum(b))) out.push(change('field.type-changed', subject, `${f.type} → ${g.type}`, { flows, names: [name] }));
  if (f.required !== g.required) out.push(change(g.required ? 'field.made-required' : 'field.made-optional', subject, g.required ? 'now required' : 'now optional', { flows, names: [name] }));
  if (f.nullable !== g.nullable) out.push(change(g.nullable ? 'field.made-nullable' : 'field.made-non-nullable', subject, g.nullable ? 'may now be null' : 'may no longer be null', { flows, names: [name] }));
  const ea = inlineEnum(a);
  const eb = inlineEnum(b);
  if (ea || eb) out.push(...enumChanges(subject, ea ?? [], eb ?? [], flows, [name]));
  out.push(...constraintChange(subject, constraintMoves(a, b), flows, [name]));
  return out;
}

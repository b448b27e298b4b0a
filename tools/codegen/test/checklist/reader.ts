/** Reading the spec for the checklist: through the project's own loader and model, plus the raw YAML. */
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import {
  buildModel,
  loadSpec,
  type ApiModel,
  type FieldModel,
  type LoadedSpec,
  type TypeModel,
} from '@exchange-api/codegen';
import { RECORDS } from './document-records';
import { ENUMS } from './document-tables';

// SPEC_CHECKLIST_FILE points the checklist at another copy of the spec (e.g. to see that a mutated copy fails).
const SPEC_FILE =
  process.env.SPEC_CHECKLIST_FILE ?? fileURLToPath(new URL('../../../../spec/asyncapi.yaml', import.meta.url));

export let spec: LoadedSpec;
export let model: ApiModel;
export let ajv: Ajv;

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Read the spec once per test file (call from beforeAll); the exports above are then set. */
export async function loadChecklist(): Promise<void> {
  spec = await loadSpec(SPEC_FILE);
  model = buildModel(spec);
  ajv = new Ajv({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
  ajv.addSchema({ $id: 'spec', definitions: model.schemas }, 'spec');
}

/** The raw YAML node at a path (keys of objects, indices of arrays). */
export function raw(...path: Array<string | number>): unknown {
  let node: unknown = spec.data;
  for (const key of path) node = isObj(node) ? node[String(key)] : Array.isArray(node) ? node[Number(key)] : undefined;
  return node;
}
export function type(name: string): TypeModel {
  const t = model.types.find((x) => x.name === name);
  if (!t) throw new Error(`the spec has no schema named ${name}`);
  return t;
}
export function field(record: string, name: string): FieldModel {
  const f = (type(record).fields ?? []).find((x) => x.name === name);
  if (!f) throw new Error(`${record} has no field ${name}`);
  return f;
}
export function validator(name: string): ValidateFunction {
  const v = ajv.getSchema(`spec#/definitions/${name}`);
  if (!v) throw new Error(`no schema ${name} to validate with`);
  return v;
}
/** The field's type as the spec expresses it, without its null member. */
export function baseType(f: FieldModel): string {
  return f.type
    .split(' | ')
    .filter((t) => t !== 'null')
    .join(' | ');
}
/**
 * Whether a raw property schema admits null the way the conventions say: anyOf with {type:'null'} or a type
 * list with 'null'.
 */
export function rawNullable(p: unknown): boolean {
  if (!isObj(p)) return false;
  if (Array.isArray(p.type) && p.type.includes('null')) return true;
  return Array.isArray(p.anyOf) && p.anyOf.some((s) => isObj(s) && s.type === 'null');
}
export function channelByAddress(address: string) {
  const c = model.channels.find((x) => x.address === address);
  if (!c) throw new Error(`the spec has no channel with address ${address}`);
  return c;
}
export function methodByName(name: string) {
  const m = model.methods.find((x) => x.name === name);
  if (!m) throw new Error(`the spec has no operation with x-method ${name}`);
  return m;
}
/**
 * The spec's method for a name the document gives. The document names the order-flow methods only in
 * its rate-limit tables, by their class keys (`order`, `cancel_all`); the spec's wire name may carry a
 * prefix (`private/order`) and keeps the document's name as x-rate-limit-key.
 */
export function methodByDocumentName(name: string) {
  const m = model.methods.find((x) => x.rateLimitKey === name);
  if (!m) throw new Error(`the spec has no method whose rate-limit key (or name) is ${name}`);
  return m;
}
/** Methods and channels the document names: those not marked `x-source: clients`. */
export const fromDocument = (kind: 'operations' | 'channels', id: string): boolean =>
  raw(kind, id, 'x-source') !== 'clients';

export const FIELD_ROWS = Object.entries(RECORDS).flatMap(([record, fields]) => fields.map((f) => ({ record, ...f })));
export const ENUM_ROWS = Object.entries(ENUMS).map(([name, values]) => ({ name, values }));

/**
 * The checks of our conventions (spec/README.md) that the AsyncAPI parser cannot make: the value of
 * every x- extension, cross-references between them, local $refs, and enum values of the declared type.
 */
import { toPointer, fromPointer } from './spec-error';

type Path = Array<string | number>;
type Report = (path: Path, message: string, severity?: 'error' | 'warning') => void;
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '...' : s;
};

export const ACCESS = ['public', 'private'] as const;
export const TRANSPORTS = ['ws', 'http'] as const;
export const AUTH = ['none', 'login'] as const;
/** `x-view` values: whose side the operations are written from (model/plain-spec.ts, viewOf). */
export const VIEWS = ['client', 'server'] as const;
export const LIMIT_KINDS = ['window', 'connections', 'bucket', 'size'] as const;
export const ERROR_KINDS = ['rate-limit', 'connection-limit', 'request', 'auth', 'order', 'server'] as const;
/** `x-role` values: on a named schema, the frame or object it describes; on an operation, what the method does. */
export const SCHEMA_ROLES = ['notification', 'request', 'response', 'error'] as const;
export const OPERATION_ROLES = ['subscribe'] as const;

function oneOf(allowed: readonly string[]) {
  return (v: unknown) =>
    isStr(v) && allowed.includes(v) ? null : `must be one of ${allowed.join(', ')} (got ${show(v)})`;
}
const aString = (v: unknown) => (isStr(v) && v.length > 0 ? null : `must be a non-empty string (got ${show(v)})`);
const aBoolean = (v: unknown) => (typeof v === 'boolean' ? null : `must be a boolean (got ${show(v)})`);

/** Where each extension may stand ('schema' = anywhere inside a schema) and what its value must be. */
const EXTENSIONS: Record<string, { where: string[]; check: (v: unknown) => string | null }> = {
  'x-access': { where: ['channel'], check: oneOf(ACCESS) },
  'x-method': { where: ['operation'], check: aString },
  'x-transports': {
    where: ['operation'],
    check: (v) =>
      Array.isArray(v) && v.length > 0 && v.every((t) => TRANSPORTS.includes(t as never))
        ? null
        : `must be a non-empty list of ${TRANSPORTS.join(', ')} (got ${show(v)})`,
  },
  'x-transport': { where: ['server'], check: oneOf(TRANSPORTS) },
  'x-http-path': {
    where: ['operation'],
    check: (v) => (isStr(v) && v.startsWith('/') ? null : `must be a path starting with / (got ${show(v)})`),
  },
  'x-auth': { where: ['operation'], check: oneOf(AUTH) },
  'x-rate-limit-class': { where: ['operation'], check: aString },
  'x-rate-limit-budget': { where: ['operation'], check: aString },
  'x-rate-limit-rule': {
    where: ['operation'],
    check: (v) =>
      isObj(v) &&
      ((v.decrement === 'none' && Object.keys(v).length === 1) || (isStr(v.singleInstrument) && isStr(v.otherwise)))
        ? null
        : `must be {decrement: none} or {singleInstrument: <budget>, otherwise: <budget>} (got ${show(v)})`,
  },
  'x-order-flow': { where: ['operation'], check: aBoolean },
  'x-role': { where: ['schema', 'operation'], check: oneOf([...SCHEMA_ROLES, ...OPERATION_ROLES]) },
  'x-assumed-params': { where: ['operation'], check: aString },
  'x-assumed-result': { where: ['operation'], check: aString },
  'x-not-shown': {
    where: ['any'],
    check: (v) =>
      aString(v) === null || (isStrList(v) && v.length > 0)
        ? null
        : `must be a sentence or a list of sentences (got ${show(v)})`,
  },
  'x-assumption': { where: ['any'], check: aString },
  'x-address': { where: ['any'], check: aString },
  'x-login': { where: ['root'], check: (v) => (isObj(v) ? null : 'must be an object') },
  'x-rate-limit-classes': { where: ['root'], check: (v) => (Array.isArray(v) ? null : 'must be a list') },
  'x-limits': { where: ['root'], check: (v) => (Array.isArray(v) ? null : 'must be a list') },
  'x-errors': { where: ['root'], check: (v) => (isObj(v) ? null : 'must be an object') },
  'x-action-signature': { where: ['root'], check: (v) => (isObj(v) ? null : 'must be an object') },
  'x-assumptions': { where: ['root'], check: (v) => (Array.isArray(v) ? null : 'must be a list') },
  'x-view': { where: ['root'], check: oneOf(VIEWS) },
};

/** What the cross-reference checks of the extensions need: the ids and names declared elsewhere in the spec. */
interface Declared {
  assumptionIds: Set<string>;
  limitIds: Set<string>;
  classNames: Set<string>;
  schemaNames: Set<string>;
  /** Where each x-role was first given. */
  roleAt: Map<string, Path>;
}

/** Which kind of object stands at a path, for the `where` rule of an extension. */
function kindAt(path: Path): string {
  if (path.length === 0) return 'root';
  if (path.length === 2 && path[0] === 'channels') return 'channel';
  if (path.length === 2 && path[0] === 'operations') return 'operation';
  if (path.length === 2 && path[0] === 'servers') return 'server';
  if (path.length === 3 && path[0] === 'components' && path[1] === 'schemas') return 'schema';
  return 'other';
}

/** Check every convention of spec/README.md that the AsyncAPI parser cannot; report each breach at its path. */
export function checkConventions(data: unknown, report: Report): void {
  if (!isObj(data)) {
    report([], 'the spec must be a YAML or JSON object');
    return;
  }
  const declared: Declared = {
    assumptionIds: new Set(),
    limitIds: new Set(),
    classNames: new Set(),
    schemaNames: new Set(),
    roleAt: new Map(),
  };
  checkRootTables(data, report, declared.assumptionIds, declared.limitIds, declared.classNames);
  for (const name of Object.keys(
    (isObj(data.components) && isObj(data.components.schemas) && data.components.schemas) || {},
  ))
    declared.schemaNames.add(name);

  const walk = (node: unknown, path: Path): void => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => walk(v, [...path, i]));
      return;
    }
    if (!isObj(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const here = [...path, key];
      if (key === '$ref') {
        checkRef(data, value, here, report);
        continue;
      }
      if (key.startsWith('x-') && !key.startsWith('x-parser-')) {
        checkExtension(key, value, path, report, declared);
        // Root tables are checked above and may hold nested markers; do not descend into them twice.
        if (path.length === 0) continue;
      }
      walk(value, here);
    }
    checkEnumTypes(node, path, report);
  };
  walk(data, []);
  checkRequiredExtensions(data, report);
}

/** One x- extension: known, in a place it belongs, with a good value that names what exists. */
function checkExtension(key: string, value: unknown, path: Path, report: Report, declared: Declared): void {
  const here = [...path, key];
  const rule = EXTENSIONS[key];
  if (!rule)
    return report(
      here,
      `unknown extension ${key}, ignored (the exchange-api vocabulary is in spec/README.md of the exchange-api repository)`,
      'warning',
    );
  if (!rule.where.includes('any') && !rule.where.includes(kindAt(path)))
    return report(here, `${key} does not belong here (allowed on: ${rule.where.join(', ')})`);
  const problem = rule.check(value);
  if (problem) return report(here, `${key} ${problem}`);
  crossCheck(key, value, here, report, declared);
}

/** The references an extension makes (to assumptions, schemas, classes, budgets, roles) must resolve. */
function crossCheck(key: string, value: unknown, here: Path, report: Report, d: Declared): void {
  if (key === 'x-role') {
    const onSchema = here[0] === 'components';
    if (onSchema !== SCHEMA_ROLES.includes(value as never))
      report(
        here,
        `x-role ${show(value)} belongs on ${onSchema ? 'an operation' : 'a named schema'} (schemas: ${SCHEMA_ROLES.join(', ')}; operations: ${OPERATION_ROLES.join(', ')})`,
      );
    const first = d.roleAt.get(value as string);
    if (first) report(here, `x-role ${show(value)} is already given at ${toPointer(first)}; each role names one place`);
    else d.roleAt.set(value as string, here);
  }
  if (key === 'x-assumption' && !d.assumptionIds.has(value as string))
    report(here, `x-assumption names "${value}", which is not an id in x-assumptions`);
  if ((key === 'x-assumed-params' || key === 'x-assumed-result') && !d.schemaNames.has(value as string))
    report(here, `${key} names "${value}", which is not in components.schemas`);
  if (key === 'x-rate-limit-class' && d.classNames.size > 0 && !d.classNames.has(value as string))
    report(here, `x-rate-limit-class must be one of ${[...d.classNames].join(', ')} (got ${show(value)})`);
  if (key === 'x-rate-limit-budget' && !d.limitIds.has(value as string))
    report(here, `x-rate-limit-budget names "${value}", which is not an id in x-limits`);
  if (key === 'x-rate-limit-rule' && isObj(value)) {
    for (const k of ['singleInstrument', 'otherwise'] as const) {
      const budget = value[k];
      if (isStr(budget) && !d.limitIds.has(budget))
        report([...here, k], `names budget "${budget}", which is not an id in x-limits`);
    }
  }
}

/**
 * What an absent extension cannot default: an operation marked as a method (x-method) needs a reply,
 * and one served over http needs its path. Every other absent extension has a stated default
 * (model/plain-spec.ts), noted by the generator, not an error.
 */
function checkRequiredExtensions(data: Obj, report: Report): void {
  if (!isObj(data.operations)) return;
  for (const [id, op] of Object.entries(data.operations)) {
    if (!isObj(op)) continue;
    if (op['x-method'] !== undefined && !isObj(op.reply))
      report(['operations', id], 'a method operation (x-method) must have a reply');
    const transports = op['x-transports'];
    if (Array.isArray(transports) && transports.includes('http') && op['x-http-path'] === undefined)
      report(['operations', id], 'an operation served over http needs x-http-path');
  }
}

function checkRootTables(
  data: Obj,
  report: Report,
  assumptionIds: Set<string>,
  limitIds: Set<string>,
  classNames: Set<string>,
) {
  const list = (key: string) => (Array.isArray(data[key]) ? (data[key] as unknown[]) : []);
  list('x-assumptions').forEach((a, i) => {
    const at: Path = ['x-assumptions', i];
    if (!isObj(a)) return report(at, 'an assumption must be an object with id, title, choice and reason');
    for (const k of ['id', 'title', 'choice', 'reason'])
      if (!isStr(a[k])) report([...at, k], `an assumption needs ${k} (a string)`);
    if (isStr(a.id)) {
      if (assumptionIds.has(a.id)) report([...at, 'id'], `duplicate assumption id "${a.id}"`);
      assumptionIds.add(a.id);
    }
  });
  list('x-limits').forEach((l, i) => {
    const at: Path = ['x-limits', i];
    if (!isObj(l)) return report(at, 'a limit must be an object');
    if (!isStr(l.id)) report([...at, 'id'], 'a limit needs an id');
    else limitIds.add(l.id);
    if (!LIMIT_KINDS.includes(l.kind as never))
      report([...at, 'kind'], `kind must be one of ${LIMIT_KINDS.join(', ')} (got ${show(l.kind)})`);
    const num = (k: string) => {
      if (typeof l[k] !== 'number' || (l[k] as number) < 0)
        report([...at, k], `${k} must be a non-negative number (got ${show(l[k])})`);
    };
    if (l.kind === 'window') ['tps', 'windowMs', 'points'].forEach(num);
    if (l.kind === 'connections') num('max');
    if (l.kind === 'bucket') ['refillPerSecond', 'capacity'].forEach(num);
    if (l.kind === 'size') num('maxBytes');
    checkMarkers(l, at, report, assumptionIds);
  });
  list('x-rate-limit-classes').forEach((c, i) => {
    const at: Path = ['x-rate-limit-classes', i];
    if (!isObj(c) || !isStr(c.name)) return report(at, 'a rate-limit class needs a name');
    classNames.add(c.name);
  });
  const errors = data['x-errors'];
  if (isObj(errors)) {
    const codes = Array.isArray(errors.codes) ? errors.codes : [];
    codes.forEach((e, i) => {
      const at: Path = ['x-errors', 'codes', i];
      if (!isObj(e)) return report(at, 'an error must be an object');
      if (!Number.isInteger(e.code)) report([...at, 'code'], `code must be an integer (got ${show(e.code)})`);
      if (!isStr(e.message)) report([...at, 'message'], 'an error needs a message');
      if (e.name !== undefined && !(isStr(e.name) && /^[A-Z][A-Z0-9_]*$/.test(e.name)))
        report([...at, 'name'], `name must be an UPPER_SNAKE stable code (got ${show(e.name)})`);
      if (
        e.httpStatus !== undefined &&
        !(Number.isInteger(e.httpStatus) && (e.httpStatus as number) >= 400 && (e.httpStatus as number) <= 599)
      )
        report(
          [...at, 'httpStatus'],
          `httpStatus must be an HTTP error status, 400 to 599 (got ${show(e.httpStatus)})`,
        );
      if (e.kind !== undefined && !ERROR_KINDS.includes(e.kind as never))
        report([...at, 'kind'], `kind must be one of ${ERROR_KINDS.join(', ')} (got ${show(e.kind)})`);
      checkMarkers(e, at, report, assumptionIds);
    });
  }
  for (const key of ['x-login', 'x-action-signature']) {
    const v = data[key];
    if (isObj(v)) {
      checkMarkers(v, [key], report, assumptionIds);
      for (const [k, inner] of Object.entries(v))
        if (isObj(inner)) checkMarkers(inner, [key, k], report, assumptionIds);
    }
  }
}

function checkMarkers(o: Obj, at: Path, report: Report, assumptionIds: Set<string>) {
  const a = o['x-assumption'];
  if (a !== undefined && (!isStr(a) || !assumptionIds.has(a)))
    report([...at, 'x-assumption'], `x-assumption names ${show(a)}, which is not an id in x-assumptions`);
  const n = o['x-not-shown'];
  if (n !== undefined && !isStr(n)) report([...at, 'x-not-shown'], 'x-not-shown must be a sentence');
}

function checkRef(data: unknown, ref: unknown, path: Path, report: Report) {
  if (!isStr(ref)) return report(path, `$ref must be a string (got ${show(ref)})`);
  if (!ref.startsWith('#'))
    return report(path, `$ref "${ref}" points outside this file; these conventions take local refs only`);
  let node: unknown = data;
  for (const key of fromPointer(ref)) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObj(node)) node = node[key];
    else node = undefined;
    if (node === undefined) return report(path, `$ref "${ref}" does not resolve (no "${key}")`);
  }
}

const TYPE_TESTS: Record<string, (v: unknown) => boolean> = {
  string: isStr,
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  object: isObj,
  array: Array.isArray,
};

function checkEnumTypes(node: Obj, path: Path, report: Report) {
  if (!Array.isArray(node.enum)) return;
  const types = Array.isArray(node.type) ? node.type : isStr(node.type) ? [node.type] : null;
  // Channel parameters have no type: AsyncAPI says their enum values are strings.
  const isParameter = path.length === 4 && path[0] === 'channels' && path[2] === 'parameters';
  const allowed = isParameter ? ['string'] : types;
  if (!allowed) return;
  node.enum.forEach((v, i) => {
    if (!allowed.some((t) => TYPE_TESTS[t as string]?.(v)))
      report([...path, 'enum', i], `enum value ${show(v)} is not of the declared type ${allowed.join(' or ')}`);
  });
}

export { toPointer };

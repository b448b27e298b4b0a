/**
 * The checks of our conventions (spec/README.md) that the AsyncAPI parser cannot make: the value of
 * every x- extension, cross-references between them, local $refs, and enum values of the declared type.
 */
import { toPointer, fromPointer } from './spec-error';
import {
  ACCESS,
  AUTH,
  OPERATION_ROLES,
  SCHEMA_ROLES,
  SOURCES,
  TRANSPORTS,
  VIEWS,
  FRAMINGS,
  isObj,
  type Obj,
  type SpecDocument,
} from './spec-types';
import { isStr, show, type Path, type Report } from './convention-report';
import { checkRootTables, type RootIds } from './root-tables';

const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);

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
  'x-action-module': { where: ['operation'], check: aString },
  'x-action-data': {
    where: ['operation'],
    check: (v) =>
      aString(v) === null || (isStrList(v) && v.length > 0)
        ? null
        : `must be a layout name or a list of them (got ${show(v)})`,
  },
  'x-rate-limit-key': { where: ['operation'], check: aString },
  'x-source': { where: ['operation', 'channel', 'schema'], check: oneOf(SOURCES) },
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
  'x-framing': { where: ['root'], check: oneOf(FRAMINGS) },
};

/** What the cross-reference checks of the extensions need: the ids and names declared elsewhere in the spec. */
interface Declared extends RootIds {
  schemaNames: Set<string>;
  /** The modules of x-action-signature, which x-action-module names. */
  actionModules: Set<string>;
  /** Where each x-role was first given. */
  roleAt: Map<string, Path>;
}

/** The modules of the spec's x-action-signature (none when it has no such table). */
function actionModulesOf(data: Obj): Obj {
  const sig = data['x-action-signature'];
  return isObj(sig) && isObj(sig.modules) ? sig.modules : {};
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

/**
 * Check every convention of spec/README.md that the AsyncAPI parser cannot; report each breach at
 * its path. Returns the spec as its typed view (spec-types.ts) when no error was reported, else null:
 * what the view says of our vocabulary holds only then (and of the AsyncAPI structure once the parser
 * has accepted the document too).
 */
export function checkConventions(data: unknown, report: Report): SpecDocument | null {
  let errors = 0;
  const count: Report = (...args) => {
    if ((args[2] ?? 'error') === 'error') errors++;
    report(...args);
  };
  if (!isObj(data)) {
    count([], 'the spec must be a YAML or JSON object');
    return null;
  }
  checkSpec(data, count);
  return errors === 0 ? (data as SpecDocument) : null;
}

/** The root tables first (they declare what the extensions elsewhere name), then every node. */
function checkSpec(data: Obj, report: Report): void {
  const declared: Declared = {
    assumptionIds: new Set(),
    limitIds: new Set(),
    classNames: new Set(),
    schemaNames: new Set(),
    actionModules: new Set(Object.keys(actionModulesOf(data))),
    roleAt: new Map(),
  };
  checkRootTables(data, report, declared);
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
    checkActionData(data, node, path, report);
  };
  walk(data, []);
  checkRequiredExtensions(data, report);
}

/**
 * x-action-data names layouts of the operation's own x-action-module (the named entries of its data):
 * a module with several layouts (rfq, vault) needs it to say which one a method signs.
 */
function checkActionData(data: Obj, node: Obj, path: Path, report: Report): void {
  const value = node['x-action-data'];
  if (kindAt(path) !== 'operation') return;
  const module = node['x-action-module'];
  const entries = isStr(module) ? actionModulesOf(data)[module] : undefined;
  const layouts = isObj(entries) && Array.isArray(entries.data) ? entries.data : [];
  const names = new Set(layouts.map((e) => (isObj(e) && isStr(e.name) ? e.name : '')));
  const several = layouts.length > 1 && layouts.every((e) => isObj(e) && isStr(e.type) && e.type.startsWith('('));
  const here = [...path, 'x-action-data'];
  if (value === undefined) {
    if (isStr(module) && several)
      return report([...path, 'x-action-module'], `module ${module} has several layouts; x-action-data must name one`);
    return;
  }
  if (!isStr(module)) return report(here, 'x-action-data needs x-action-module on the same operation');
  for (const name of isStr(value) ? [value] : isStrList(value) ? value : [])
    if (!names.has(name))
      report(
        here,
        `x-action-data names "${name}", which is not a layout of module ${module} (x-action-signature.modules)`,
      );
}

/** One x- extension: known, in a place it belongs, with a good value that names what exists. */
function checkExtension(key: string, value: unknown, path: Path, report: Report, declared: Declared): void {
  const here = [...path, key];
  const rule = EXTENSIONS[key];
  if (!rule)
    return report(
      here,
      `unknown extension ${key}, ignored (the exchange-api vocabulary is in spec/README.md ` +
        `of the exchange-api repository)`,
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
        `x-role ${show(value)} belongs on ${onSchema ? 'an operation' : 'a named schema'}` +
          ` (schemas: ${SCHEMA_ROLES.join(', ')}; operations: ${OPERATION_ROLES.join(', ')})`,
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
  if (key === 'x-action-module' && !d.actionModules.has(value as string))
    report(here, `x-action-module names "${value}", which is not a module of x-action-signature.modules`);
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

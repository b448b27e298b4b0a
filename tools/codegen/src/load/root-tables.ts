/**
 * The checks of the root tables of our vocabulary (x-assumptions, x-limits, x-rate-limit-classes,
 * x-errors, and the markers inside x-login and x-action-signature), and the ids they declare, which
 * the extensions elsewhere must name.
 */
import { ERROR_KINDS, LIMIT_KINDS, isObj, type Obj } from './spec-types';
import { isStr, show, type Path, type Report } from './convention-report';

/** The ids and names the root tables declare. */
export interface RootIds {
  assumptionIds: Set<string>;
  limitIds: Set<string>;
  classNames: Set<string>;
}

/**
 * Check the root tables, in this order (assumptions first: the others' markers name them), adding what they declare to
 * `ids`.
 */
export function checkRootTables(data: Obj, report: Report, ids: RootIds): void {
  const list = (key: string) => (Array.isArray(data[key]) ? (data[key] as unknown[]) : []);
  list('x-assumptions').forEach((a, i) => checkAssumption(a, ['x-assumptions', i], report, ids));
  list('x-limits').forEach((l, i) => checkLimit(l, ['x-limits', i], report, ids));
  list('x-rate-limit-classes').forEach((c, i) => {
    const at: Path = ['x-rate-limit-classes', i];
    if (!isObj(c) || !isStr(c.name)) return report(at, 'a rate-limit class needs a name');
    ids.classNames.add(c.name);
  });
  const errors = data['x-errors'];
  if (isObj(errors)) {
    const codes = Array.isArray(errors.codes) ? errors.codes : [];
    codes.forEach((e, i) => checkErrorCode(e, ['x-errors', 'codes', i], report, ids));
  }
  for (const key of ['x-login', 'x-action-signature']) {
    const v = data[key];
    if (isObj(v)) {
      checkMarkers(v, [key], report, ids);
      for (const [k, inner] of Object.entries(v)) if (isObj(inner)) checkMarkers(inner, [key, k], report, ids);
    }
  }
}

function checkAssumption(a: unknown, at: Path, report: Report, ids: RootIds): void {
  if (!isObj(a)) return report(at, 'an assumption must be an object with id, title, choice and reason');
  for (const k of ['id', 'title', 'choice', 'reason'])
    if (!isStr(a[k])) report([...at, k], `an assumption needs ${k} (a string)`);
  if (isStr(a.id)) {
    if (ids.assumptionIds.has(a.id)) report([...at, 'id'], `duplicate assumption id "${a.id}"`);
    ids.assumptionIds.add(a.id);
  }
}

/** A limit: an id, a kind, and the non-negative numbers of its kind. */
function checkLimit(l: unknown, at: Path, report: Report, ids: RootIds): void {
  if (!isObj(l)) return report(at, 'a limit must be an object');
  if (!isStr(l.id)) report([...at, 'id'], 'a limit needs an id');
  else ids.limitIds.add(l.id);
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
  checkMarkers(l, at, report, ids);
}

/**
 * An error of x-errors.codes: an integer code, a message, and, when given, a stable name, an HTTP status and a kind.
 */
function checkErrorCode(e: unknown, at: Path, report: Report, ids: RootIds): void {
  if (!isObj(e)) return report(at, 'an error must be an object');
  if (!Number.isInteger(e.code)) report([...at, 'code'], `code must be an integer (got ${show(e.code)})`);
  if (!isStr(e.message)) report([...at, 'message'], 'an error needs a message');
  if (e.name !== undefined && !(isStr(e.name) && /^[A-Z][A-Z0-9_]*$/.test(e.name)))
    report([...at, 'name'], `name must be an UPPER_SNAKE stable code (got ${show(e.name)})`);
  if (
    e.httpStatus !== undefined &&
    !(Number.isInteger(e.httpStatus) && (e.httpStatus as number) >= 400 && (e.httpStatus as number) <= 599)
  )
    report([...at, 'httpStatus'], `httpStatus must be an HTTP error status, 400 to 599 (got ${show(e.httpStatus)})`);
  if (e.kind !== undefined && !ERROR_KINDS.includes(e.kind as never))
    report([...at, 'kind'], `kind must be one of ${ERROR_KINDS.join(', ')} (got ${show(e.kind)})`);
  checkMarkers(e, at, report, ids);
}

/** The markers of a table's entry: an x-assumption that names an assumption, an x-not-shown sentence. */
function checkMarkers(o: Obj, at: Path, report: Report, ids: RootIds): void {
  const a = o['x-assumption'];
  if (a !== undefined && (!isStr(a) || !ids.assumptionIds.has(a)))
    report([...at, 'x-assumption'], `x-assumption names ${show(a)}, which is not an id in x-assumptions`);
  const n = o['x-not-shown'];
  if (n !== undefined && !isStr(n)) report([...at, 'x-not-shown'], 'x-not-shown must be a sentence');
}

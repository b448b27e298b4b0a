/**
 * The raw change list of @asyncapi/diff (JSON paths of the two documents, with its own verdicts), and
 * from it the changes our model does not compare, so that nothing that changed goes unreported.
 */
import { diff as asyncapiDiff } from '@asyncapi/diff';
import type { ApiModel } from '../model/types';
import { change, show, type Change } from './change';

/** One entry of @asyncapi/diff's list. */
export interface RawChange {
  action: string;
  path: string;
  /** @asyncapi/diff's own verdict: breaking, non-breaking or unclassified. */
  type: string;
}

/** @asyncapi/diff's change list of two documents (plain data, as read from YAML or JSON). */
export function rawChanges(before: unknown, after: unknown): RawChange[] {
  const output = asyncapiDiff(before as never, after as never, {}).getOutput() as {
    changes: Array<{ action: string; path: string; type: string }>;
  };
  return output.changes.map(({ action, path, type }) => ({ action, path, type }));
}

/** Keys that only document: a change under them changes no behaviour. */
const DOCUMENTATION = new Set([
  'description',
  'reason',
  'summary',
  'title',
  'examples',
  'example',
  'externalDocs',
  'tags',
  'x-not-shown',
  'x-assumption',
  'x-address',
  'contact',
  'license',
  'termsOfService',
]);

const TYPE_KINDS = new Set(['record', 'enum', 'scalar', 'array', 'open', 'union']);

/**
 * What a model change is about, as an anchor: `type Order`, `channel trades`, `method public/login`, `error 14000`,
 * `login`.
 */
export function anchorOf(c: Change): string {
  const head = c.subject.split(',')[0]!;
  const [first, ...rest] = head.split(' ');
  if (TYPE_KINDS.has(first!)) return `type ${rest.join(' ')}`;
  if (first === 'error') return `error ${rest[0]}`;
  return head;
}

/** What the models and both documents know, to tell what a raw change at a path is about. */
export interface RawContext {
  changes: readonly Change[];
  models: readonly ApiModel[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/**
 * The anchors a raw change at `path` belongs to (any of them reported explains it): the named schema
 * whose place holds the path (components or an inline payload), the channel, the method (by its
 * operation), the error code, limit, class or assumption at an index of a root table, login, the action
 * signature. None: nothing of the model is there.
 */
function anchorsOfPath(path: string, docs: readonly unknown[], models: readonly ApiModel[]): string[] {
  const tokens = path.split('/').slice(1).map(unescape);
  const anchors = new Set<string>();
  let best: { name: string; length: number } | null = null;
  for (const m of models)
    for (const [name, origin] of Object.entries(m.schemaOrigins ?? {}))
      if (
        origin.length <= tokens.length &&
        origin.every((t, i) => t === tokens[i]) &&
        (best === null || origin.length > best.length)
      )
        best = { name, length: origin.length };
  if (best) anchors.add(`type ${best.name}`);
  const [top, key, index] = tokens;
  const methodsOf = (opId: string) =>
    models.flatMap((m) => m.methods.filter((x) => x.id === opId).map((x) => `method ${x.name}`));
  const opsOnChannel = (channel: string) =>
    docs.flatMap((d) =>
      Object.entries(obj(obj(d).operations))
        .filter(([, op]) => obj(obj(op).channel).$ref === `#/channels/${channel}`)
        .map(([id]) => id),
    );
  if (top === 'components' && key === 'schemas' && index) anchors.add(`type ${index}`);
  if (top === 'channels' && key) {
    anchors.add(`channel ${key}`);
    for (const id of opsOnChannel(key)) for (const a of methodsOf(id)) anchors.add(a);
  }
  if (top === 'operations' && key) {
    for (const a of methodsOf(key)) anchors.add(a);
    for (const d of docs) {
      const ref = obj(obj(obj(obj(d).operations)[key]).channel).$ref;
      if (typeof ref === 'string') anchors.add(`channel ${ref.split('/').pop()}`);
    }
  }
  if (top === 'components' && key === 'messages' && index) {
    // A message belongs to the channels that carry it and the methods that send or answer it.
    for (const d of docs)
      for (const [ch, c] of Object.entries(obj(obj(d).channels))) {
        if (!JSON.stringify(c).includes(`"#/components/messages/${index}"`)) continue;
        anchors.add(`channel ${ch}`);
        for (const id of opsOnChannel(ch)) for (const a of methodsOf(id)) anchors.add(a);
      }
  }
  const item = (table: string, field: string) =>
    docs.map((d) => obj((obj(d)[table] as unknown[] | undefined)?.[Number(key)])[field]).filter((v) => v !== undefined);
  if (top === 'x-errors' && key === 'codes' && index !== undefined)
    for (const d of docs) {
      const code = obj((obj(obj(d)['x-errors']).codes as unknown[] | undefined)?.[Number(index)]).code;
      if (code !== undefined) anchors.add(`error ${code}`);
    }
  if (top === 'x-limits') for (const id of item('x-limits', 'id')) anchors.add(`limit ${id}`);
  if (top === 'x-rate-limit-classes')
    for (const name of item('x-rate-limit-classes', 'name')) anchors.add(`rate-limit class ${name}`);
  if (top === 'x-assumptions') for (const id of item('x-assumptions', 'id')) anchors.add(`assumption ${id}`);
  if (top === 'x-login') anchors.add('login');
  if (top === 'x-action-signature') anchors.add('action signature');
  return [...anchors];
}

/**
 * The raw changes no model change explains, as `other.changed` (plus the version label): a raw change
 * is explained when a model change is about the named schema, channel, method or table entry at its
 * path. Documentation (descriptions, titles, examples) is left out. So nothing that changed is lost.
 */
export function unmodelled(
  raw: readonly RawChange[],
  before: unknown,
  after: unknown,
  context: RawContext = { changes: [], models: [] },
): Change[] {
  const changes: Change[] = [];
  const reported = new Set(context.changes.map(anchorOf));
  for (const r of raw) {
    if (r.path === '/info/version') {
      changes.push(
        change('info.version-changed', 'info.version', `${show(at(before, r.path))} → ${show(at(after, r.path))}`),
      );
      continue;
    }
    if (r.path === '/info/title') {
      changes.push(
        change(
          'other.changed',
          r.path,
          `${show(at(before, r.path))} → ${show(at(after, r.path))} (a generated SDK's ` +
            `default package name comes from it)`,
        ),
      );
      continue;
    }
    const keys = r.path.split('/').slice(1);
    if (keys.some((k) => DOCUMENTATION.has(unescape(k)))) continue;
    const anchors = anchorsOfPath(r.path, [before, after], context.models);
    if (anchors.some((a) => reported.has(a)) || onlyShifted(r.path, before, after)) continue;
    changes.push(
      change(
        'other.changed',
        r.path,
        `${r.action}: ${show(at(before, r.path) ?? null)} → ${show(at(after, r.path) ?? null)}`,
      ),
    );
  }
  return changes;
}

/** Root tables whose entries the model matches by a key, not by place (compare-tables.ts). */
const KEYED_TABLES: ReadonlyArray<{ path: readonly string[]; key: string }> = [
  { path: ['x-assumptions'], key: 'id' },
  { path: ['x-limits'], key: 'id' },
  { path: ['x-rate-limit-classes'], key: 'name' },
  { path: ['x-errors', 'codes'], key: 'code' },
];

/** A value without its documentation keys, at any depth, as JSON: what behaviour depends on. */
const behaviour = (value: unknown): string =>
  JSON.stringify(value, (k, v: unknown) => (DOCUMENTATION.has(k) ? undefined : v));

/**
 * Whether a raw change at an index of a keyed table is only a shift: @asyncapi/diff compares lists by
 * place, so one entry added before others shows as an edit of every later place. It is, when every
 * entry at that place (in either document) is the same, documentation aside, in both documents.
 */
function onlyShifted(path: string, before: unknown, after: unknown): boolean {
  const tokens = path.split('/').slice(1).map(unescape);
  const table = KEYED_TABLES.find((t) => t.path.every((p, i) => tokens[i] === p));
  const index = table ? tokens[table.path.length] : undefined;
  if (!table || index === undefined || !/^\d+$/.test(index)) return false;
  const entries = (doc: unknown): unknown[] => {
    const list = at(doc, `/${table.path.join('/')}`);
    return Array.isArray(list) ? list : [];
  };
  const byKey = (doc: unknown, key: unknown) => entries(doc).find((e) => obj(e)[table.key] === key);
  const keys = [before, after].map((d) => obj(entries(d)[Number(index)])[table.key]).filter((k) => k !== undefined);
  return (
    keys.length > 0 &&
    keys.every((k) => byKey(before, k) !== undefined && behaviour(byKey(before, k)) === behaviour(byKey(after, k)))
  );
}

const unescape = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The value at a JSON pointer, or undefined. */
function at(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const token of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[unescape(token)];
  }
  return node;
}

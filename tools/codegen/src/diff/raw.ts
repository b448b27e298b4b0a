/**
 * The raw change list of @asyncapi/diff (JSON paths of the two documents, with its own verdicts), and
 * from it the changes our model does not compare, so that nothing that changed goes unreported.
 */
import { diff as asyncapiDiff } from '@asyncapi/diff';
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
  const output = asyncapiDiff(before as never, after as never, {}).getOutput() as { changes: Array<{ action: string; path: string; type: string }> };
  return output.changes.map(({ action, path, type }) => ({ action, path, type }));
}

/** Places the model compares itself (a change there is classified by a rule of its own). */
const MODELLED = /^\/(channels|operations|components\/(schemas|messages|parameters)|x-[a-z-]+)(\/|$)/;
/** Keys that only document: a change under them changes no behaviour. */
const DOCUMENTATION = new Set(['description', 'summary', 'title', 'examples', 'example', 'externalDocs', 'tags', 'x-not-shown', 'x-assumption', 'x-address', 'contact', 'license', 'termsOfService']);

/** The raw changes outside the modelled places and outside documentation, as `other.changed` (plus the version label). */
export function unmodelled(raw: readonly RawChange[], before: unknown, after: unknown): Change[] {
  const changes: Change[] = [];
  for (const r of raw) {
    if (r.path === '/info/version') {
      changes.push(change('info.version-changed', 'info.version', `${show(at(before, r.path))} → ${show(at(after, r.path))}`));
      continue;
    }
    if (r.path === '/info/title') {
      changes.push(change('other.changed', r.path, `${show(at(before, r.path))} → ${show(at(after, r.path))} (a generated SDK's default package name comes from it)`));
      continue;
    }
    if (MODELLED.test(r.path)) continue;
    const keys = r.path.split('/').slice(1);
    if (keys.some((k) => DOCUMENTATION.has(unescape(k)))) continue;
    changes.push(change('other.changed', r.path, `${r.action}: ${show(at(before, r.path) ?? null)} → ${show(at(after, r.path) ?? null)}`));
  }
  return changes;
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

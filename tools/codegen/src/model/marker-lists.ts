/**
 * Every x-not-shown and x-assumption of the spec, listed with where it stands: the "Not shown and
 * assumptions" page of the docs and the assumptions each place cites.
 */
import { isObj, type SpecDocument } from '../load/spec-types';
import { toPointer } from '../load/spec-error';
import { str } from './read-values';
import type { AssumptionModel, NotShownModel } from './types';

/** A short human name of a place in the spec, for lists of markers. */
function placeName(path: string[]): string {
  const [top, id, ...rest] = path;
  const tail = rest.filter((k) => !['properties', 'items', 'payload'].includes(k)).join('.');
  const named = (kind: string) => `${kind} ${id}${tail ? '.' + tail : ''}`;
  if (top === 'components' && id === 'schemas')
    return `schema ${rest[0]}${
      rest.length > 1
        ? '.' +
          rest
            .slice(1)
            .filter((k) => !['properties', 'items'].includes(k))
            .join('.')
        : ''
    }`.replace(/\.$/, '');
  if (top === 'channels') return named('channel');
  if (top === 'operations') return named('operation');
  if (top === 'info') return 'the interface as a whole';
  if (top === 'x-limits') return `limit ${id}`;
  if (top === 'x-action-signature') return 'the EIP-712 action signature';
  return path.join('.');
}

/** Every x-not-shown, with its place named for people. */
export function collectNotShown(data: SpecDocument): NotShownModel[] {
  const out: NotShownModel[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, String(i)]));
    if (!isObj(node)) return;
    const m = node['x-not-shown'];
    const texts = typeof m === 'string' ? [m] : Array.isArray(m) ? m.map(String) : [];
    const where =
      path[0] === 'x-limits' && isObj(node) && typeof node.id === 'string' ? `limit ${node.id}` : placeName(path);
    for (const text of texts) out.push({ pointer: toPointer([...path, 'x-not-shown']), where, text: text.trim() });
    for (const [k, v] of Object.entries(node)) if (k !== 'x-not-shown') walk(v, [...path, k]);
  };
  walk(data, []);
  return out;
}

/** Every assumption of x-assumptions, with the places whose x-assumption cites it. */
export function collectAssumptions(data: SpecDocument): AssumptionModel[] {
  const list: AssumptionModel[] = (data['x-assumptions'] ?? []).map((a) => ({
    id: str(a.id),
    title: str(a.title),
    choice: str(a.choice),
    reason: str(a.reason),
    citedAt: [],
  }));
  const byId = new Map(list.map((a) => [a.id, a]));
  const walk = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, String(i)]));
    if (!isObj(node)) return;
    const id = node['x-assumption'];
    if (typeof id === 'string') byId.get(id)?.citedAt.push(toPointer(path));
    for (const [k, v] of Object.entries(node)) if (k !== 'x-assumptions' || path.length > 0) walk(v, [...path, k]);
  };
  walk(data, []);
  return list;
}

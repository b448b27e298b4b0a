/**
 * The search index: every channel, method, named type, field (`Record.field`), enumeration value
 * (`Enum.value`), error code, limit and assumption, with the href of its anchor. Shipped as a script
 * that sets a global, because a .js file loads from file:// where fetching a .json file does not.
 */
import type { ApiModel } from '../../model/types';
import { hrefFrom } from './render-html';
import type { Ref } from './ir';
import type { SiteMap } from './site';

/** Kinds in ranking order: on equal match quality, earlier kinds come first. */
export const SEARCH_KINDS = [
  'channel',
  'method',
  'record',
  'enum',
  'field',
  'value',
  'type',
  'error',
  'limit',
  'assumption',
  'example',
] as const;
type Kind = (typeof SEARCH_KINDS)[number];

/** One entry: kind index, label, href from the site root, detail. */
export type SearchEntry = [number, string, string, string];

/**
 * The index as a script assigning `window.DOCS_SEARCH`, one row per line so diffs stay readable.
 * Hrefs are stored as a page number and an anchor, the anchor left empty when it equals the label,
 * which halves the file (most anchors are `Record.field`); `#` stands for no anchor. The fields of a
 * record (and the values of an enumeration) whose anchors are their labels share one row,
 * `["Record", kind, page, name, detail, name, detail, ...]`, each detail the number of a string in
 * `details`, which search.js expands: a third of the index, room the site's 300 kB budget needs.
 */
export function searchScript(entries: SearchEntry[]): string {
  const pages: string[] = [];
  const rows: unknown[][] = [];
  // A member's detail (a field's type) by its number in one list: the same few types recur hundreds of times.
  const details: string[] = [];
  let group: unknown[] | null = null;
  for (const [kind, label, href, detail] of entries) {
    const [page = '', anchor] = href.split('#');
    if (!pages.includes(page)) pages.push(page);
    const p = pages.indexOf(page);
    const dot = label.indexOf('.');
    const member =
      (kind === SEARCH_KINDS.indexOf('field') || kind === SEARCH_KINDS.indexOf('value')) && anchor === label && dot > 0;
    if (member) {
      const owner = label.slice(0, dot);
      if (!group || group[0] !== owner || group[1] !== kind || group[2] !== p) rows.push((group = [owner, kind, p]));
      let d = details.indexOf(detail);
      if (d < 0) d = details.push(detail) - 1;
      group.push(label.slice(dot + 1), d);
      continue;
    }
    group = null;
    rows.push([kind, label, p, anchor === undefined ? '#' : anchor === label ? '' : anchor, detail]);
  }
  return (
    `window.DOCS_SEARCH = {\n"kinds": ${JSON.stringify(SEARCH_KINDS)},\n"pages": ` +
    `${JSON.stringify(pages)},\n"details": ${JSON.stringify(details)},\n"entries": ` +
    `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]};\n`
  );
}

/** A detail on one line, cut after a whole word near 60 characters (a name, which has no spaces, whole). */
function shortDetail(detail: string): string {
  const flat = detail.replace(/\s+/g, ' ').trim();
  if (flat.length <= 60) return flat;
  const end = flat.lastIndexOf(' ', 60);
  return end < 30 ? flat : `${flat.slice(0, end).replace(/[,.;:]$/, '')}…`;
}

export function searchEntries(model: ApiModel, site: SiteMap): SearchEntry[] {
  const out: SearchEntry[] = [];
  const add = (kind: Kind, label: string, ref: Ref, detail: string) =>
    out.push([SEARCH_KINDS.indexOf(kind), label, hrefFrom('index', ref), shortDetail(detail)]);
  for (const c of model.channels) add('channel', c.address, site.channel(c), c.title);
  for (const m of model.methods) add('method', m.name, site.method(m), m.summary);
  for (const t of model.types) {
    add(
      t.kind === 'record' ? 'record' : t.kind === 'enum' ? 'enum' : 'type',
      t.name,
      site.typeRef(t.name)!,
      t.kind === 'record' ? `${t.fields?.length ?? 0} fields` : t.kind,
    );
    for (const f of t.fields ?? []) add('field', `${t.name}.${f.name}`, site.fieldRef(t.name, f.name), f.type);
    for (const v of t.values ?? [])
      add('value', `${t.name}.${site.valueText(t.name, v)}`, site.valueRef(t.name, v), '');
  }
  for (const e of model.errors.codes) {
    add('error', String(e.code), site.errorRef(e.code), e.name ? `${e.name}: ${e.message}` : e.message);
    // Programs match on the stable name, so a reader searches by it too.
    if (e.name) add('error', e.name, site.errorRef(e.code), `${e.code} ${e.message}`);
  }
  // Examples by the names the spec gives them, each leading to its channel's or method's example.
  // Each hit lands on its own example; a method's are labelled params or result (one name may be both).
  for (const c of model.channels)
    (c.exampleInfo ?? []).forEach(
      (info, i) => info.name && add('example', info.name, site.example(c, 'payload', i), c.address),
    );
  for (const m of model.methods)
    for (const [side, infos] of [
      ['params', m.paramsExampleInfo],
      ['result', m.resultExampleInfo],
    ] as const)
      (infos ?? []).forEach(
        (info, i) => info.name && add('example', `${info.name} (${side})`, site.example(m, side, i), m.name),
      );
  for (const l of model.limits) add('limit', l.id, site.limitRef(l.id)!, l.title);
  for (const a of model.assumptions) add('assumption', a.id, site.assumptionRef(a.id), a.title);
  return out;
}

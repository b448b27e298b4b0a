/**
 * How the site splits by group (a channel's or method's `group`: its operation's first AsyncAPI tag).
 * With two groups or more, each group has its own channels page and methods page (`methods-orders`),
 * and `channels`/`methods` become index pages listing the groups; each record is on the records page
 * of the one group whose channels and methods use it (directly or through other records), and the
 * records several groups share (or none uses) stay on the common `records` page with the other named
 * types. The untagged form one group, "Other", last. A spec without tags keeps one page of each, so
 * no page of a large API has to carry all of it: the site's budget is per page.
 */
import type { ApiModel, ChannelModel, MethodModel, TypeModel } from '../../model/types';
import { refsOf } from '../../model/schema-tools';

/** One group's page of channels, methods or records. */
export interface Group<T> {
  /** The tag's name; null for the untagged. */
  name: string | null;
  title: string;
  /** The page's path, e.g. `methods-orders`. */
  page: string;
  items: T[];
}

export interface Layout {
  /** The channel groups, in the spec's order (the untagged last); empty when all channels share one page. */
  channels: Array<Group<ChannelModel>>;
  methods: Array<Group<MethodModel>>;
  /** The groups' own records pages (a group no record belongs to alone has none); empty when not split. */
  records: Array<Group<TypeModel>>;
  /** The page of each record that is on a group's records page. */
  recordPage: Map<string, string>;
}

/** The title of the untagged group, where there are others. */
export const OTHER_GROUP = 'Other';

/** A page-name part of a group: lower case, letters and digits, words joined by `-`. */
const slugOf = (name: string | null): string =>
  (name ?? OTHER_GROUP)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'group';

/** Each group in order of first appearance, the untagged last. */
function groupNames(items: Array<{ group?: string }>): Array<string | null> {
  const names: Array<string | null> = [];
  for (const it of items) if (it.group !== undefined && !names.includes(it.group)) names.push(it.group);
  if (items.some((it) => it.group === undefined)) names.push(null);
  return names;
}

/** The named types a payload refers to, directly and through other named types. */
function reach(byName: Map<string, TypeModel>, roots: Iterable<string>, into: Set<string>): void {
  const stack = [...roots];
  while (stack.length > 0) {
    const name = stack.pop()!;
    const t = byName.get(name);
    if (!t || into.has(name)) continue;
    into.add(name);
    stack.push(...t.refs);
  }
}

/** The site's split by group. */
export function layoutOf(model: ApiModel): Layout {
  const channelNames = groupNames(model.channels);
  const methodNames = groupNames(model.methods);
  // One page part per group name, the same for its channels, methods and records pages.
  const all = [...channelNames, ...methodNames.filter((n) => !channelNames.includes(n))];
  const ordered = [...all.filter((n) => n !== null), ...all.filter((n) => n === null)];
  const slugs = new Map<string | null, string>();
  const taken = new Set<string>();
  for (const name of ordered) {
    const base = slugOf(name);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    slugs.set(name, slug);
  }
  const title = (name: string | null) => name ?? OTHER_GROUP;
  const split = <T extends { group?: string }>(kind: string, items: T[], names: Array<string | null>) =>
    names.length < 2
      ? []
      : names.map((name) => ({
          name,
          title: title(name),
          page: `${kind}-${slugs.get(name)!}`,
          items: items.filter((it) => (it.group ?? null) === name),
        }));
  const layout: Layout = {
    channels: split('channels', model.channels, channelNames),
    methods: split('methods', model.methods, methodNames),
    records: [],
    recordPage: new Map(),
  };
  if (ordered.length < 2) return layout;
  // Which groups use each named type.
  const users = new Map<string, Set<string | null>>();
  const byName = new Map(model.types.map((t) => [t.name, t]));
  const use = (group: string | null, roots: Array<string | null>, schemas: unknown[]) => {
    const found = new Set<string>();
    reach(byName, [...roots.filter((r): r is string => r !== null), ...schemas.flatMap((s) => refsOf(s))], found);
    for (const name of found) users.set(name, (users.get(name) ?? new Set()).add(group));
  };
  for (const c of model.channels) use(c.group ?? null, [c.payload.record], [c.payload.schema]);
  for (const m of model.methods)
    use(
      m.group ?? null,
      [m.params.record, m.result.record, m.assumedParams, m.assumedResult],
      [m.params.schema, m.result.schema],
    );
  for (const name of ordered) {
    const items = model.types.filter(
      (t) => t.kind === 'record' && users.get(t.name)?.size === 1 && users.get(t.name)!.has(name),
    );
    if (items.length === 0) continue;
    const page = `records-${slugs.get(name)!}`;
    layout.records.push({ name, title: title(name), page, items });
    for (const t of items) layout.recordPage.set(t.name, page);
  }
  return layout;
}

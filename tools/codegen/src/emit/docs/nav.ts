/**
 * The sidebar of every page: the overview, the channels and methods (their entries, or their groups'
 * pages where the site splits by group, groups.ts), the groups' records pages and the reference pages.
 * One list for the whole site, apart from the pages (pages.ts) that it links to.
 */
import type { ApiModel } from '../../model/types';
import type { Layout, Group } from './groups';
import { CHANGES_PAGE } from './page-changes';
import type { NavGroup, NavItem } from './render-html';
import { PAGES, hasPage, type SiteMap } from './site';

/**
 * The sidebar. Channels and methods list their entries on their own page; where the site splits by
 * group they list their groups' pages on every page instead (each with its entries under it on that
 * page), and the records pages of the groups get a group of their own.
 */
export function navGroups(model: ApiModel, site: SiteMap, withChanges: boolean): NavGroup[] {
  const { layout } = site;
  const channelItems = model.channels.map((c) => ({
    key: `channel:${c.id}`,
    label: [c.address],
    ref: site.channel(c),
  }));
  const methodItems = model.methods.map((m) => ({ key: `method:${m.id}`, label: [m.name], ref: site.method(m) }));
  const channelOf = new Map(model.channels.map((c, i) => [c, channelItems[i]!]));
  const methodOf = new Map(model.methods.map((m, i) => [m, methodItems[i]!]));
  return [
    { title: 'Overview', ref: { page: PAGES.index }, key: 'index', items: [] },
    {
      title: 'Channels',
      ref: { page: PAGES.channels },
      key: 'channels',
      ...byGroup(layout.channels, channelItems, (c) => channelOf.get(c)!),
    },
    {
      title: 'Methods',
      ref: { page: PAGES.methods },
      key: 'methods',
      ...byGroup(layout.methods, methodItems, (m) => methodOf.get(m)!),
    },
    ...(layout.records.length
      ? [
          {
            title: 'Records',
            ref: { page: PAGES.records },
            key: 'records',
            pages: true,
            items: layout.records.map((g) => ({ key: g.page, label: [g.title], ref: { page: g.page } })),
          },
        ]
      : []),
    referenceGroup(model, layout, withChanges),
  ];
}

/** A channels or methods group's items: its entries on one page, or its groups' pages with the entries under each. */
function byGroup<T>(groups: Array<Group<T>>, items: NavItem[], of: (x: T) => NavItem): Omit<NavGroup, 'title'> {
  return groups.length === 0
    ? { mono: true, items }
    : {
        pages: true,
        items: groups.map((g) => ({
          key: g.page,
          label: [g.title],
          ref: { page: g.page },
          children: g.items.map(of),
        })),
      };
}

/** The reference pages the model has (records here only while they are not split by group). */
function referenceGroup(model: ApiModel, layout: Layout, withChanges: boolean): NavGroup {
  return {
    title: 'Reference',
    items: [
      ...(layout.records.length
        ? []
        : [{ key: 'records', label: ['Records and types'], ref: { page: PAGES.records } }]),
      { key: 'enums', label: ['Enumerations'], ref: { page: PAGES.enums } },
      { key: 'errors', label: ['Errors'], ref: { page: PAGES.errors } },
      { key: 'limits', label: ['Limits'], ref: { page: PAGES.limits } },
      { key: 'login', label: ['Login'], ref: { page: PAGES.login } },
      { key: 'open', label: ['Not shown and assumptions'], ref: { page: PAGES.open } },
      ...(withChanges ? [{ key: 'changes', label: ['Changes'], ref: { page: CHANGES_PAGE } }] : []),
    ].filter((item) => hasPage(model, item.ref.page)),
  };
}

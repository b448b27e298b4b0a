/**
 * The documentation emitter: `emitDocs(model)` turns the API model into a static HTML site (works from
 * file:// and any static host) plus the same pages as Markdown. It knows the model and our x-
 * vocabulary only, never this API's names: where it needs a meaning (which method subscribes, which
 * schema frames a notification), it reads the model's roles.
 */
import type { ApiModel } from '../../model/types';
import type { EmittedFile } from '../emitted-file';
import { compactCss, compactJs, SEARCH_JS, SITE_CSS } from './assets';
import { collectExamples } from './examples';
import { sitePages } from './pages';
import { renderHtml, type NavGroup, type NavItem } from './render-html';
import type { Group } from './groups';
import { renderMarkdown } from './render-md';
import { searchEntries, searchScript } from './search';
import { PAGES, SiteMap, hasPage } from './site';
import { changesPage, CHANGES_PAGE, type DocsChanges } from './page-changes';

export { collectExamples, exampleAddress, type Examples, type ChannelExample, type MethodExample } from './examples';
export { SiteMap, safeId } from './site';
export { searchEntries, SEARCH_KINDS, type SearchEntry } from './search';
export type { DocsChanges } from './page-changes';

/**
 * The sidebar. Channels and methods list their entries on their own page; where the site splits by
 * group they list their groups' pages on every page instead (each with its entries under it on that
 * page), and the records pages of the groups get a group of their own.
 */
function navGroups(model: ApiModel, site: SiteMap, withChanges: boolean): NavGroup[] {
  const { layout } = site;
  const channelItems = model.channels.map((c) => ({
    key: `channel:${c.id}`,
    label: [c.address],
    ref: site.channel(c),
  }));
  const methodItems = model.methods.map((m) => ({ key: `method:${m.id}`, label: [m.name], ref: site.method(m) }));
  const byGroup = <T>(groups: Array<Group<T>>, items: NavItem[], of: (x: T) => NavItem) =>
    groups.length === 0
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
    {
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
    },
  ];
}

/**
 * The documentation site of a model: `index.html`, `channels.html` and `methods.html` with one section
 * (and anchor) per channel and per method (or one page per group, groups.ts), reference pages,
 * `assets/`, and the same pages as Markdown under `md/`.
 * With `options.changes` (`docs --since`), a Changes page too. Pure and deterministic; throws an Error
 * naming the place when an example does not validate.
 */
export function emitDocs(model: ApiModel, options: { changes?: DocsChanges } = {}): EmittedFile[] {
  const examples = collectExamples(model);
  const site = new SiteMap(model);
  const pages = [
    ...sitePages(model, site, examples),
    ...(options.changes ? [changesPage(options.changes, model.version)] : []),
  ];
  const groups = navGroups(model, site, options.changes !== undefined);
  const api = { title: model.title, version: model.version };
  const files: EmittedFile[] = [];
  for (const page of pages) {
    files.push({ slot: 'docs', path: `${page.path}.html`, content: renderHtml(page, groups, api) });
    files.push({ slot: 'docs', path: `md/${page.path}.md`, content: renderMarkdown(page) });
  }
  files.push({ slot: 'docs', path: 'assets/site.css', content: compactCss(SITE_CSS) });
  files.push({ slot: 'docs', path: 'assets/search.js', content: compactJs(SEARCH_JS) });
  files.push({ slot: 'docs', path: 'assets/search-index.js', content: searchScript(searchEntries(model, site)) });
  return files;
}

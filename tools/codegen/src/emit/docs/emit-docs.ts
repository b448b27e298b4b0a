/**
 * The documentation emitter: `emitDocs(model)` turns the API model into a static HTML site (works from
 * file:// and any static host) plus the same pages as Markdown. It knows the model and our x-
 * vocabulary only, never this API's names: where it needs a meaning (which method subscribes, which
 * schema frames a notification), it reads the model's roles.
 */
import type { ApiModel } from '../../model/types';
import type { EmittedFile } from '../emitted-file';
import { compactCss, compactJs, SEARCH_JS, siteCss } from './assets';
import { collectExamples } from './examples';
import { sitePages } from './pages';
import { renderHtml } from './render-html';
import { navGroups } from './nav';
import { renderMarkdown } from './render-md';
import { searchEntries, searchScript } from './search';
import { SiteMap } from './site';
import { changesPage, type DocsChanges } from './page-changes';

export { collectExamples, exampleAddress, type Examples, type ChannelExample, type MethodExample } from './examples';
export { SiteMap, safeId } from './site';
export { searchEntries, SEARCH_KINDS, type SearchEntry } from './search';
export type { DocsChanges } from './page-changes';

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
  files.push({ slot: 'docs', path: 'assets/site.css', content: compactCss(siteCss()) });
  files.push({ slot: 'docs', path: 'assets/search.js', content: compactJs(SEARCH_JS) });
  files.push({ slot: 'docs', path: 'assets/search-index.js', content: searchScript(searchEntries(model, site)) });
  return files;
}

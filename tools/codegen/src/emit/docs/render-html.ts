/**
 * Document trees → static HTML pages. Links are relative, so the site works from file:// and from any
 * static host; everything is readable without JavaScript (the search box is added by the script, search.js).
 */
import type { Block, Inline, Page, Ref } from './ir';

/** One entry of the sidebar. */
export interface NavItem {
  key: string;
  label: Inline[];
  ref: Ref;
  /** The entries of a group's own page (its methods), listed under it on that page only. */
  children?: NavItem[];
}

/** A titled group of the sidebar. */
export interface NavGroup {
  title: string;
  /** The page the group's title links to, and its nav key. */
  ref?: Ref;
  key?: string;
  /** Labels are names (addresses, method names): set in monospace. */
  mono?: boolean;
  /** The items are pages (a group's own pages): listed on every page, so every sidebar reaches them. */
  pages?: boolean;
  items: NavItem[];
}

/** Escapes text content (quotes stay: they are frequent in JSON and harmless outside attributes). */
/** Inline rendering in the sidebar, where names are long and the column is narrow. */
const NAV = '\u0000nav';

export const esc = (s: string): string =>
  s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
/** Escapes an attribute value. */
export const attr = (s: string): string => esc(s).replace(/"/g, '&quot;');

/** `../` once per folder of the page's path. */
export const rootOf = (path: string): string => '../'.repeat(path.split('/').length - 1);

/** A relative href from one page to a place, with `.html` (or another extension). */
export function hrefFrom(from: string, ref: Ref, ext = '.html'): string {
  const anchor = ref.anchor ? `#${ref.anchor}` : '';
  if (ref.page === from && anchor) return anchor;
  return rootOf(from) + ref.page + ext + anchor;
}

/** Escaped text with break opportunities after `.` and `/` in long names, so tables need not squeeze them. */
function breakable(s: string): string {
  // Names and paths only: a pattern breaks badly anywhere, and its hints would only add weight.
  return s.length > 24 && /^[\w./{}#~-]+$/.test(s) ? esc(s).replace(/([./])(?=.)/g, '$1<wbr>') : esc(s);
}

function inline(xs: Inline[], from: string): string {
  return xs
    .map((x) => {
      if (typeof x === 'string') return from === NAV ? breakable(x) : esc(x);
      if ('code' in x) return `<code>${breakable(x.code)}</code>`;
      if ('link' in x) {
        // A linked tag is one element: the link wears the tag's classes.
        const only = x.text.length === 1 ? x.text[0]! : null;
        if (only && typeof only === 'object' && 'tag' in only)
          return `<a class="t ${only.tone}" href="${attr(hrefFrom(from, x.link))}">${esc(only.tag)}</a>`;
        return `<a href="${attr(hrefFrom(from, x.link))}">${inline(x.text, from)}</a>`;
      }
      if ('strong' in x) return `<strong>${inline(x.strong, from)}</strong>`;
      if ('mono' in x) return `<code>${inline(x.mono, from)}</code>`;
      return `<span class="t ${x.tone}">${esc(x.tag)}</span>`;
    })
    .join('');
}

/**
 * Inlines without code spans, for places monospace by style (chips, lists of names): a tenth of those pages'
 * weight.
 */
const plain = (xs: Inline[]): Inline[] =>
  xs.flatMap((x): Inline[] =>
    typeof x === 'string'
      ? [x]
      : 'code' in x
        ? [x.code]
        : 'mono' in x
          ? plain(x.mono)
          : 'link' in x
            ? [{ ...x, text: plain(x.text) }]
            : [x],
  );

/** One row of a facts list: its name and its value. */
const fact = (k: string, v: Inline[], from: string) => `<dt>${esc(k)}</dt><dd>${inline(v, from)}</dd>`;

function block(b: Block, from: string): string {
  switch (b.kind) {
    case 'h': {
      const tags = b.tags?.length ? ` <span class="tg">${inline(b.tags, from)}</span>` : '';
      return `<h${b.level}${b.id ? ` id="${attr(b.id)}"` : ''}>${inline(b.text, from)}${tags}</h${b.level}>`;
    }
    case 'p':
      return b.names ? `<p class="nm">${inline(plain(b.text), from)}</p>` : `<p>${inline(b.text, from)}</p>`;
    case 'note':
      return `<p class="n ${b.tone}">${inline(b.text, from)}</p>`;
    case 'table': {
      // The end tags of cells and rows, and the tags of the body, are optional in HTML and left out
      // (the browser builds the same tbody): a tenth of the site's weight, which its 300 kB budget needs.
      const head = `<thead><tr>${b.head.map((h) => `<th>${esc(h)}`).join('')}</thead>`;
      const rows = b.rows
        .map((r) => {
          // Name columns are monospace by style, so their code spans need no tags of their own.
          const mono = (i: number) => i < (b.mono ?? 0) || (b.monoLast === true && i === b.head.length - 1);
          const cells = r.cells.map((c, i) => `<td>${inline(mono(i) ? plain(c) : c, from)}`);
          return `<tr${r.id ? ` id="${attr(r.id)}"` : ''}>${cells.join('')}`;
        })
        .join('\n');
      const cls = [b.mono ? `m${b.mono}` : '', b.monoLast ? 'ml' : ''].filter(Boolean).join(' ');
      return `<div class="tw"><table${cls ? ` class="${cls}"` : ''}>${head}\n${rows}\n</table></div>`;
    }
    case 'facts':
      return `<dl class="facts">${b.rows.map(([k, v]) => fact(k, v, from)).join('')}</dl>`;
    case 'code': {
      const caption = b.caption ? `<figcaption>${inline(b.caption, from)}</figcaption>` : '';
      return `<figure${b.id ? ` id="${attr(b.id)}"` : ''}>${caption}<pre><code>${esc(b.text)}</code></pre></figure>`;
    }
    case 'list': {
      // Optional end tags left out, as in tables.
      // A chip is monospace by style: its code spans need no tags of their own.
      const items = b.items
        .map((it) => `<li${it.id ? ` id="${attr(it.id)}"` : ''}>${inline(b.chips ? plain(it.text) : it.text, from)}`)
        .join('');
      return `<ul${b.chips ? ' class="chips"' : ''}>${items}</ul>`;
    }
  }
}

/** Sidebar entries; the current page's marked, and its children (names, in monospace) listed under it. */
function navItems(items: NavItem[], page: Page, mono: boolean): string {
  return items
    .map((it) => {
      const here = it.key === page.nav;
      const children = here && it.children?.length ? `<ul class="mono">${navItems(it.children, page, true)}</ul>` : '';
      return (
        `<li><a href="${attr(hrefFrom(page.path, it.ref))}"${here ? ' aria-current="page"' : ''}` +
        `>${inline(it.label, mono ? NAV : page.path)}</a>${children}`
      );
    })
    .join('');
}

function nav(groups: NavGroup[], page: Page): string {
  return groups
    .map((g) => {
      // A group's entries are listed on its own page only; elsewhere its title links there. Every
      // page repeats the sidebar, so listing all of them everywhere cost a tenth of the site's weight.
      // A group without a page of its own (Reference), or whose entries are pages, always lists its
      // entries: they are its only links to those pages.
      const here = !g.ref || g.pages === true || g.key === page.nav || g.items.some((it) => it.key === page.nav);
      const items = here ? navItems(g.items, page, g.mono === true) : '';
      const title = g.ref
        ? `<a href="${attr(hrefFrom(page.path, g.ref))}"${g.key === page.nav ? ' aria-current="page"' : ''}` +
          `>${esc(g.title)}</a>`
        : esc(g.title);
      return `<h2>${title}</h2>${items ? `<ul${g.mono ? ' class="mono"' : ''}>${items}</ul>` : ''}`;
    })
    .join('\n');
}

/** One complete HTML page. */
export function renderHtml(page: Page, groups: NavGroup[], api: { title: string; version: string }): string {
  const root = rootOf(page.path);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)} · ${esc(api.title)} ${esc(api.version)}</title>
<link rel="stylesheet" href="${root}assets/site.css">
<script src="${root}assets/search-index.js" defer></script>
<script src="${root}assets/search.js" defer></script>
</head>
<body data-root="${attr(root)}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="${root}index.html">${esc(api.title)}</a> <span class="version">${esc(api.version)}</span>
</header>
<div class="layout">
<nav class="side" aria-label="Contents">
${nav(groups, page)}
</nav>
<main id="main">
${page.blocks.map((b) => block(b, page.path)).join('\n')}
</main>
</div>
</body>
</html>
`;
}

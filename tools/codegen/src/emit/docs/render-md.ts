/**
 * Document trees → Markdown: the same pages and anchors as the HTML site, under `md/`, for reading in
 * a repository browser or pasting into other documents. Every text, code span, code block and table
 * cell goes through emit/markdown-escape.ts, so no spec text becomes markup or HTML.
 */
import type { Block, Inline, Page } from './ir';
import { hrefFrom, rootOf } from './render-html';
import { mdAttr, mdCell, mdCodeFence, mdCodeSpan, mdText } from '../../text/markdown-escape';

function inline(xs: Inline[], from: string): string {
  return xs
    .map((x) => {
      if (typeof x === 'string') return mdText(x);
      if ('code' in x) return mdCodeSpan(x.code);
      if ('link' in x)
        return `[${inline(x.text, from)}](${hrefFrom(from, x.link, '.md').replace(/[()<>\s]/g, encodeURIComponent)})`;
      if ('strong' in x) return `**${inline(x.strong, from).trim()}**`;
      if ('mono' in x) return inline(x.mono, from);
      return `*${mdText(x.tag)}*`;
    })
    .join('');
}

const anchor = (id: string | undefined) => (id ? `<a id="${mdAttr(id)}"></a>` : '');

function table(b: Extract<Block, { kind: 'table' }>, from: string): string {
  return [
    `| ${b.head.map((h) => mdCell(mdText(h))).join(' | ')} |`,
    `|${b.head.map(() => ' --- |').join('')}`,
    ...b.rows.map(
      (r) => `| ${r.cells.map((c, i) => mdCell((i === 0 ? anchor(r.id) : '') + inline(c, from))).join(' | ')} |`,
    ),
  ].join('\n');
}

function block(b: Block, from: string): string {
  switch (b.kind) {
    case 'h':
      return (
        `${'#'.repeat(b.level)} ${anchor(b.id)}${inline(b.text, from)}` +
        (b.tags?.length ? ' ' + inline(b.tags, from) : '')
      );
    case 'p':
      return inline(b.text, from);
    case 'note':
      return `> ${inline(b.text, from)}`;
    case 'table':
      return table(b, from);
    case 'facts':
      return b.rows.map(([k, v]) => `- **${mdText(k)}:** ${inline(v, from)}`).join('\n');
    case 'code': {
      const lang = /^[[{]/.test(b.text) ? 'json' : 'text';
      const caption = b.caption ? `*${inline(b.caption, from)}*\n\n` : b.id ? '\n\n' : '';
      return `${anchor(b.id)}${caption}${mdCodeFence(b.text, lang)}`;
    }
    case 'list':
      return b.chips
        ? b.items.map((it) => anchor(it.id) + inline(it.text, from)).join(' · ')
        : b.items.map((it) => `- ${anchor(it.id)}${inline(it.text, from)}`).join('\n');
  }
}

/** One Markdown page; every page but the overview starts with a link back to it. */
export function renderMarkdown(page: Page): string {
  const back = page.path === 'index' ? '' : `[← Overview](${rootOf(page.path)}index.md)\n\n`;
  return back + page.blocks.map((b) => block(b, page.path)).join('\n\n') + '\n';
}

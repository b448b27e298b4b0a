/**
 * Document trees → Markdown: the same pages and anchors as the HTML site, under `md/`, for reading in
 * a repository browser or pasting into other documents.
 */
import type { Block, Inline, Page } from './ir';
import { hrefFrom, rootOf } from './render-html';

const escText = (s: string) => s.replace(/([\\*[\]<>])/g, '\\$1');

function codeSpan(s: string): string {
  const fence = s.includes('`') ? '``' : '`';
  return `${fence}${s.startsWith('`') ? ' ' : ''}${s}${s.endsWith('`') ? ' ' : ''}${fence}`;
}

function inline(xs: Inline[], from: string): string {
  return xs
    .map((x) => {
      if (typeof x === 'string') return escText(x);
      if ('code' in x) return codeSpan(x.code);
      if ('link' in x) return `[${inline(x.text, from)}](${hrefFrom(from, x.link, '.md')})`;
      if ('strong' in x) return `**${inline(x.strong, from).trim()}**`;
      if ('mono' in x) return inline(x.mono, from);
      return `*${escText(x.tag)}*`;
    })
    .join('');
}

const cell = (xs: Inline[], from: string) => inline(xs, from).replace(/\|/g, '\\|') || ' ';
const anchor = (id: string | undefined) => (id ? `<a id="${id}"></a>` : '');

function block(b: Block, from: string): string {
  switch (b.kind) {
    case 'h':
      return `${'#'.repeat(b.level)} ${anchor(b.id)}${inline(b.text, from)}${b.tags?.length ? ' ' + inline(b.tags, from) : ''}`;
    case 'p':
      return inline(b.text, from);
    case 'note':
      return `> ${inline(b.text, from)}`;
    case 'table':
      return [
        `| ${b.head.join(' | ')} |`,
        `|${b.head.map(() => ' --- |').join('')}`,
        ...b.rows.map((r) => `| ${r.cells.map((c, i) => (i === 0 ? anchor(r.id) : '') + cell(c, from)).join(' | ')} |`),
      ].join('\n');
    case 'facts':
      return b.rows.map(([k, v]) => `- **${k}:** ${inline(v, from)}`).join('\n');
    case 'code': {
      const lang = /^[[{]/.test(b.text) ? 'json' : 'text';
      return `${anchor(b.id)}${b.caption ? `*${inline(b.caption, from)}*\n\n` : b.id ? '\n\n' : ''}\`\`\`${lang}\n${b.text}\n\`\`\``;
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

/**
 * Spec text in the Markdown we write (issue 23, item 9): the docs' md/ pages, an SDK's README and
 * `diff --report markdown:`, each rendered by a renderer that allows HTML (marked, as GitHub's would
 * before its sanitiser): no script or image element appears, and the hostile text reads as written.
 * Then the helpers of emit/markdown-escape.ts one by one.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { diffSpecFiles, emitDocs, emitSdk, markdownReport, modelFromSpec } from '../src/index';
import { mdCell, mdCodeFence, mdCodeSpan, mdText } from '../src/text/markdown-escape';
import { scratchDir } from './helpers';
import { ENUM_VALUE, HTTP_PATH, METHOD, SCRIPT, TITLE, markdownHostileSpec } from './markdown-hostile-spec';

const dir = scratchDir('md-hostile-');
const before = join(dir, 'before.json');
const after = join(dir, 'after.json');
writeFileSync(before, markdownHostileSpec());
writeFileSync(after, markdownHostileSpec([`new ${'`'}${ENUM_VALUE}`, `x ${SCRIPT}`]));

/** The HTML a renderer that passes HTML through makes of `md`. */
const html = (md: string) => marked.parse(md, { gfm: true, async: false }) as string;

/** The elements that would run: any script or image tag, any on… attribute inside a tag. */
function running(md: string): string[] {
  return html(md).match(/<(script|img|iframe|svg)\b[^>]*>|<[a-z][^>]*\son\w+=/gi) ?? [];
}

/** The text of the rendered HTML, entities read back. */
const textOf = (md: string) =>
  html(md)
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('Markdown outputs hold hostile spec text as text', () => {
  it('the docs md/ pages: an enum value in a code span, an x-http-path in a code fence, titles in tables', async () => {
    const files = emitDocs(await modelFromSpec(before)).filter((f) => f.path.endsWith('.md'));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect(running(f.content), f.path).toEqual([]);
    const all = files.map((f) => textOf(f.content)).join('\n');
    expect(all).toContain(ENUM_VALUE);
    expect(all).toContain(HTTP_PATH.split('\n').at(-1));
    expect(all).toContain(METHOD);
  });

  it("the SDK's README", async () => {
    const sdk = await emitSdk(await modelFromSpec(before), { docs: false, specName: 's.json', regenerate: 'r' });
    const readme = sdk.files.find((f) => f.path === 'README.md')!.content;
    expect(running(readme)).toEqual([]);
    const text = textOf(readme);
    expect(text).toContain(METHOD);
    expect(text).toContain(TITLE.replace(/\s+/g, ' '));
  });

  it('diff --report markdown:', async () => {
    const report = markdownReport(await diffSpecFiles(before, after), ['client', 'server']);
    expect(report).toContain('new ');
    expect(running(report)).toEqual([]);
    expect(textOf(report)).toContain(ENUM_VALUE);
    expect(textOf(report)).toContain(`x ${SCRIPT}`);
  });
});

describe('the escapes', () => {
  it('text: markup and HTML as themselves, on one line', () => {
    const s = '<b>*x*</b> [l](u) `c` &amp; _y_ ~z~ !\n# h';
    expect(textOf(mdText(s)).trim()).toBe(s.replace('\n', ' '));
    expect(mdText('# title')).toBe('\\# title');
    expect(mdText('1. one')).toBe('1\\. one');
    // An underscore between letters never emphasises: left as written; one at a word's edge escaped.
    expect(mdText('subaccount_id')).toBe('subaccount_id');
    expect(mdText('_a_ b__c')).toBe('\\_a\\_ b\\_\\_c');
    expect(textOf(mdText('_a_ b__c_')).trim()).toBe('_a_ b__c_');
    expect(html(mdText('- item'))).not.toContain('<li>');
  });

  it('code span: a fence longer than any backtick run, padded where the text starts or ends with one', () => {
    expect(mdCodeSpan('a')).toBe('`a`');
    expect(mdCodeSpan('a`b')).toBe('``a`b``');
    expect(mdCodeSpan('``x')).toBe('``` ``x ```');
    expect(mdCodeSpan('a\nb')).toBe('`a b`');
    for (const s of ['`', 'a``b`', ' `<img src=x onerror=alert(1)>` ', '<script>x</script>'])
      expect(textOf(mdCodeSpan(s)).trim()).toBe(s.trim());
  });

  it('code fence: no line of the text ends it', () => {
    const body = '```\n<script>alert(1)</script>\n````';
    const md = mdCodeFence(body, 'json');
    expect(md.startsWith('`````json\n')).toBe(true);
    expect(running(md)).toEqual([]);
    expect(textOf(md).trim()).toBe(body);
    expect(mdCodeFence('x', 'js"><script>')).toBe('```jsscript\nx\n```');
  });

  it('table cell: a pipe, also in a code span, stays in its cell', () => {
    const table = (cell: string) => `| a | b |\n|---|---|\n| ${cell} | end |`;
    for (const cell of [mdCell(mdText('x|y')), mdCell(mdCodeSpan('x|y')), mdCell(mdText('x\\|y'))]) {
      const out = html(table(cell));
      expect(out.match(/<td>/g)).toHaveLength(2);
      expect(out).toContain('<td>end</td>');
    }
    expect(mdCell('')).toBe(' ');
  });
});

/**
 * The repository's Markdown links resolve: every relative link of the README, CONTRIBUTING.md, the pages
 * of docs/ and the READMEs of the spec and the packages names a file or folder that exists, and a link
 * to a heading of a Markdown file (`page.md#anchor`, `#anchor`) names a heading that is there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const inFolder = (folder: string) =>
  readdirSync(join(root, folder))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `${folder}/${f}`);

/** The Markdown read by people who browse the repository (a new page of docs/ joins by being there). */
const MARKDOWN = [
  'README.md',
  'CONTRIBUTING.md',
  ...inFolder('docs'),
  'spec/README.md',
  'tools/codegen/README.md',
  ...readdirSync(join(root, 'packages'))
    .sort()
    .map((p) => `packages/${p}/README.md`)
    .filter((f) => existsSync(join(root, f))),
];

/** The text outside fenced code blocks, with the insides of code spans emptied (their text is no link). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as dashes. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Every relative link of a file: its target as written, the file it names and the anchor, if any. */
function links(file: string): Array<{ target: string; path: string; anchor: string | undefined }> {
  const text = readFileSync(join(root, file), 'utf8');
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z]+:/i.test(t))
    .map((target) => {
      const [p, anchor] = target.split('#') as [string, string | undefined];
      return { target, path: p === '' ? file : relative(root, join(root, dirname(file), p)), anchor };
    });
}

describe('the Markdown links of the repository', () => {
  it('reads the README, CONTRIBUTING.md, every page of docs/ and the READMEs of the packages', () => {
    expect(MARKDOWN).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/diff.md']));
    expect(MARKDOWN.filter((f) => f.startsWith('packages/')).length).toBeGreaterThanOrEqual(8);
  });

  it('the README links every page of docs/', () => {
    const linked = new Set(links('README.md').map((l) => l.path));
    expect(inFolder('docs').filter((f) => !linked.has(f))).toEqual([]);
  });

  it.each(MARKDOWN)('%s: every relative link names a file that exists, and a heading that is there', (file) => {
    const broken: string[] = [];
    for (const { target, path, anchor } of links(file)) {
      if (!existsSync(join(root, path))) broken.push(`${target}: no ${path}`);
      else if (anchor !== undefined && path.endsWith('.md')) {
        if (!anchors(readFileSync(join(root, path), 'utf8')).has(anchor))
          broken.push(`${target}: ${path} has no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/**
 * The table of package entries (docs/packages.md, linked from the README's Install) says what each
 * package's `exports` map offers: every entry it lists is exported, and every export (but
 * ./package.json) is listed.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PUBLISHABLE } from '../consumer/project';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const page = readFileSync(join(root, 'docs', 'packages.md'), 'utf8');

/** The table's rows: package names → the entries (subpaths) the row lists. */
function table(): Map<string, string[]> {
  const body = /^\| package \| entries \|\n\|---\|---\|\n((?:\|.*\n)+)/m.exec(page);
  if (!body) throw new Error('docs/packages.md has no "| package | entries |" table');
  const rows = new Map<string, string[]>();
  for (const line of body[1]!.trim().split('\n')) {
    const [, names, entries] = line.split('|').map((c) => c.trim());
    const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    // An entry is a subpath (`.`, `./browser`, `site/`); other code in the cell (`siteDir`, `ws`) is prose.
    const subpaths = ticked(entries!)
      .filter((t) => t === '.' || t.startsWith('./') || t.endsWith('/'))
      .map((t) => (t === '.' || t.startsWith('./') ? t : `./${t}`));
    for (const name of ticked(names!)) rows.set(name, subpaths);
  }
  return rows;
}

describe('the package entries of docs/packages.md', () => {
  it('lists every publishable package with exactly the subpaths its exports map has', () => {
    const rows = table();
    expect([...rows.keys()].sort()).toEqual(Object.keys(PUBLISHABLE).sort());
    for (const [name, folder] of Object.entries(PUBLISHABLE)) {
      const pkg = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
      const exported = Object.keys(pkg.exports).filter((k) => k !== './package.json');
      expect([name, [...rows.get(name)!].sort()]).toEqual([name, exported.sort()]);
    }
  });
});

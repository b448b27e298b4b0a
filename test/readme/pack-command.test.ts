/**
 * The command that packs our packages (docs/generating.md, linked from the README's Install; and the
 * consumer test's, PACK_WORKSPACES) packs every publishable workspace and none marked private:
 * `npm pack --workspaces` would pack tools/bench too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACK_WORKSPACES, PUBLISHABLE } from '../consumer/project';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const page = readFileSync(join(root, 'docs', 'generating.md'), 'utf8');

describe('the npm pack command of docs/generating.md', () => {
  it('is the consumer test’s, and selects exactly the workspaces that are not private', () => {
    const line = /^npm pack (--\S+.*) --pack-destination \S+$/m.exec(page);
    expect(line, 'docs/generating.md has an `npm pack … --pack-destination …` line').not.toBeNull();
    const args = line![1]!.split(/\s+/);
    expect(args).toEqual(PACK_WORKSPACES);
    // Which packages npm would pack, without building them (--ignore-scripts skips each prepack).
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(r.status, r.stderr).toBe(0);
    const packed = (JSON.parse(r.stdout) as Array<{ name: string }>).map((p) => p.name).sort();
    expect(packed).toEqual(Object.keys(PUBLISHABLE).sort());
    type Manifest = { name: string; private?: boolean };
    const workspaces = ['packages', 'tools'].flatMap((group) =>
      readdirSync(join(root, group)).map(
        (d) => JSON.parse(readFileSync(join(root, group, d, 'package.json'), 'utf8')) as Manifest,
      ),
    );
    expect(packed).toEqual(
      workspaces
        .filter((w) => !w.private)
        .map((w) => w.name)
        .sort(),
    );
  }, 150_000);

  it('makes its destination folder first: npm pack fails when it is missing (issue 32, item 21)', () => {
    const block = /^```shell\n([\s\S]*?)^```/m.exec(page.slice(page.indexOf('npm pack --workspace') - 400))![1]!;
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.startsWith('npm pack '));
    const dest = /--pack-destination (\S+)$/.exec(lines[at]!)![1]!;
    // The lines before it, as written, with a folder of this test's for the page's /tmp one.
    const fresh = join(mkdtempSync(join(tmpdir(), 'pack-dest-')), 'tarballs');
    const before = lines.slice(0, at).join('\n').replaceAll(dest, fresh);
    const r = spawnSync('sh', ['-c', before], { encoding: 'utf8', timeout: 10_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(fresh), `the lines before \`npm pack\` make ${dest}`).toBe(true);
    // And npm pack really needs it: one small package into a missing folder fails, into the made one works.
    const pack = (to: string) =>
      spawnSync('npm', ['pack', '--ignore-scripts', '--workspace', 'packages/types', '--pack-destination', to], {
        cwd: root,
        encoding: 'utf8',
        timeout: 120_000,
      });
    expect(pack(join(fresh, 'missing')).status).not.toBe(0);
    expect(pack(fresh).status).toBe(0);
    expect(readdirSync(fresh)).toEqual([expect.stringMatching(/^exchange-api-types-.*\.tgz$/)]);
  }, 150_000);
});

/**
 * The command that packs our packages (docs/generating.md, linked from the README's Install; and the
 * consumer test's, PACK_WORKSPACES) packs every publishable workspace and none marked private:
 * `npm pack --workspaces` would pack tools/bench too.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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
});

/**
 * `npm ci` ends without a list of skipped install scripts (issue 32, item 23): every dependency with an
 * install script is reviewed in package.json's `allowScripts` (npm 11's approval list), and
 * CONTRIBUTING.md says why each is denied. Nothing of ours needs them: the suite runs with them skipped.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; version?: string }>;
};

/** The name of a package-lock entry (`node_modules/a/node_modules/@b/c` → `@b/c`). */
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts of the dependencies', () => {
  const withScripts = [
    ...new Set(
      Object.entries(lock.packages)
        .filter(([path, p]) => path !== '' && p.hasInstallScript)
        .map(([path]) => nameOf(path)),
    ),
  ].sort();

  it('each one in package-lock.json is reviewed in allowScripts, and none is allowed', () => {
    expect(withScripts).toContain('@scarf/scarf');
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withScripts);
    expect(Object.values(pkg.allowScripts ?? {}).every((allowed) => allowed === false)).toBe(true);
  });

  it('CONTRIBUTING.md says why, package by package', () => {
    const text = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    const section = text.slice(text.indexOf('### Install scripts'));
    expect(section.length).toBeGreaterThan(20);
    for (const name of withScripts) expect(section, name).toContain(`\`${name}\``);
  });

  it('npm itself finds none left to review (where npm has `install-scripts`)', () => {
    const r = spawnSync('npm', ['install-scripts', 'ls'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0 && /Unknown command|not a valid command/i.test(`${r.stdout}${r.stderr}`)) return; // npm < 11
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/No packages with unreviewed install scripts/);
  });
});

/** scripts/versions.mjs: the spec's info.version is the one version; the check finds a drift and --write mends it. */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/versions.mjs', import.meta.url));
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A checkout in miniature: a spec at `specVersion`, two packages, one pinning the other. */
function checkout(specVersion: string, versions: { a: string; b: string; pin: string }) {
  dir = mkdtempSync(join(tmpdir(), 'exchange-api-versions-'));
  mkdirSync(join(dir, 'spec'));
  writeFileSync(join(dir, 'spec/asyncapi.yaml'), `asyncapi: 3.0.0\ninfo:\n  title: T\n  version: ${specVersion}\n`);
  for (const [name, version, deps] of [
    ['a', versions.a, {}],
    ['b', versions.b, { '@x/a': versions.pin, ws: '8.0.0' }],
  ] as const) {
    mkdirSync(join(dir, 'packages', name), { recursive: true });
    writeFileSync(
      join(dir, 'packages', name, 'package.json'),
      JSON.stringify({ name: `@x/${name}`, version, dependencies: deps }),
    );
  }
  mkdirSync(join(dir, 'tools'));
}
const run = (...args: string[]) =>
  spawnSync(process.execPath, [script, '--root', dir, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('versions', () => {
  it('passes when every package and pin is at the spec version', () => {
    checkout('1.2.3', { a: '1.2.3', b: '1.2.3', pin: '1.2.3' });
    const r = run();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("every package is at the spec's version 1.2.3");
  });

  it(
    'lists each package version and internal pin that differs, exit 1; --write ' +
      'mends them and leaves other pins alone',
    () => {
      checkout('1.3.0', { a: '1.2.3', b: '1.3.0', pin: '1.2.3' });
      const r = run();
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('packages/a/package.json: version 1.2.3');
      expect(r.stderr).toContain('packages/b/package.json: dependencies.@x/a 1.2.3');
      expect(run('--write').status).toBe(0);
      const b = JSON.parse(readFileSync(join(dir, 'packages/b/package.json'), 'utf8'));
      expect(b.dependencies).toEqual({ '@x/a': '1.3.0', ws: '8.0.0' });
      expect(run().status).toBe(0);
    },
  );

  it('a spec version that is not semver is a usage error, exit 2', () => {
    checkout('latest', { a: '1.0.0', b: '1.0.0', pin: '1.0.0' });
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('info.version is not a semver version (got "latest")');
  });
});

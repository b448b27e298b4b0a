/**
 * The Python and Go toolchains the models' tests run (Debian's python3, mypy and golang-go, offline),
 * as languages.test.ts uses them: a test that needs a missing tool skips, saying why, except under CI
 * (CI=true), where it fails.
 */
import { expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './helpers';

const CI = process.env.CI === 'true';
const installed = (command: string, args: string[]) =>
  spawnSync(command, args, { encoding: 'utf8', timeout: 20_000 }).status === 0;
const tools = {
  python3: installed('python3', ['--version']),
  mypy: installed('mypy', ['--version']),
  go: installed('go', ['version']),
};
const INSTALL = 'apt-get install -y golang-go mypy (as .ci/run does)';

/** Whether to skip (the tools missing, outside CI), why, and which are missing. */
export const needs = (...names: Array<keyof typeof tools>) => {
  const missing = names.filter((n) => !tools[n]);
  return {
    skip: missing.length > 0 && !CI,
    why: missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed; ${INSTALL})` : '',
    missing,
  };
};
export const requireTools = (missing: string[]) =>
  expect(missing, `CI=true and not installed: ${missing.join(', ')}; ${INSTALL}`).toEqual([]);

const fixtures = join(repoRoot, 'tools', 'codegen', 'test', 'fixtures', 'lang');

/** One JSON line of a round-trip program: how many values it checked and what failed. */
export const report = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1)!) as { checked: number; failures: string[] };

/** python3 fixtures/lang/roundtrip.py: imports `<dir>/python/models.py` and round-trips `<dir>/<cases>`. */
export const pythonRoundTrip = (dir: string, cases: string) =>
  spawnSync('python3', [join(fixtures, 'roundtrip.py'), join(dir, 'python', 'models.py'), join(dir, cases)], {
    encoding: 'utf8',
    timeout: 60_000,
  });

/**
 * mypy --strict over `<dir>/python/models.py`: its output and status. Its cache in `cache`: runs that
 * share one analyse the standard library's stubs once (each cached module is checked against its source).
 */
export const mypyStrict = (dir: string, cache = dir) =>
  spawnSync('mypy', ['--strict', '--cache-dir', join(cache, 'mypy-cache'), join(dir, 'python', 'models.py')], {
    encoding: 'utf8',
    timeout: 120_000,
  });

/** `go <args>` in a module of `<dir>/go/models.go` and fixtures/lang/roundtrip.go: offline, caches in `cache`. */
export function goIn(dir: string, cache: string, args: string[]) {
  const module = join(dir, 'go-roundtrip');
  mkdirSync(join(module, 'models'), { recursive: true });
  writeFileSync(join(module, 'go.mod'), 'module roundtrip\n\ngo 1.19\n');
  copyFileSync(join(dir, 'go', 'models.go'), join(module, 'models', 'models.go'));
  copyFileSync(join(fixtures, 'roundtrip.go'), join(module, 'main.go'));
  const env = {
    ...process.env,
    GOCACHE: join(cache, 'go-cache'),
    GOPATH: join(cache, 'go-path'),
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
    GO111MODULE: 'on',
  };
  return spawnSync('go', args, { cwd: module, env, encoding: 'utf8', timeout: 180_000 });
}

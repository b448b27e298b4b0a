/**
 * `npm test` written to a file, or run by CI, is plain text (issue 32, item 22): scripts/test.mjs gives
 * what it spawns the no-colour environment and flags of scripts/plain-output.mjs when stdout is not a
 * terminal or NO_COLOR or CI is set. vitest colours even into a pipe; under that environment it does not.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without declarations
import { NO_COLOR_FLAGS, plainEnv, plainOutput } from '../../scripts/plain-output.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// eslint-disable-next-line no-control-regex
const ESC = /\u001b\[/;

describe('plain output of npm test', () => {
  it('is plain off a terminal, or with NO_COLOR or CI set; coloured on a terminal otherwise', () => {
    expect(plainOutput({}, true)).toBe(false);
    expect(plainOutput({}, false)).toBe(true);
    expect(plainOutput({ NO_COLOR: '1' }, true)).toBe(true);
    expect(plainOutput({ CI: 'true' }, true)).toBe(true);
    expect(plainOutput({ NO_COLOR: '' }, true)).toBe(false); // no-color.org: set and not empty
    expect(plainOutput({ CI: 'false' }, true)).toBe(false);
    expect(plainEnv({ FORCE_COLOR: '1', PATH: 'p' })).toEqual({ FORCE_COLOR: '0', NO_COLOR: '1', PATH: 'p' });
  });

  it('scripts/test.mjs passes the no-colour environment and every tool’s flag on a plain run', () => {
    const script = readFileSync(join(root, 'scripts', 'test.mjs'), 'utf8');
    expect(script).toContain("from './plain-output.mjs'");
    expect(script).toMatch(/const env = plain \? plainEnv\(base\) : base;/);
    for (const tool of Object.keys(NO_COLOR_FLAGS)) expect(script).toContain(`flags('${tool}'`);
    // Both turbo runs: the build among the checks, and the tests.
    expect(script.match(/flags\('turbo'/g)).toHaveLength(2);
  });

  it('vitest into a pipe: colour codes in the environment it had, none in the plain one', () => {
    const vitest = (env: NodeJS.ProcessEnv) =>
      spawnSync('npx', ['vitest', 'run', 'test/scripts/versions.test.ts'], {
        cwd: root,
        // TURBO_HASH: as under npm test, no build first (this file needs none).
        env: { ...env, TURBO_HASH: 'plain-output-test' },
        encoding: 'utf8',
        timeout: 120_000,
      });
    const { NO_COLOR: _n, FORCE_COLOR: _f, CI: _c, ...before } = process.env;
    const coloured = vitest(before);
    expect(coloured.status, coloured.stderr).toBe(0);
    expect(`${coloured.stdout}${coloured.stderr}`).toMatch(ESC);
    const plain = vitest(plainEnv({ ...before, CI: '1' }));
    expect(plain.status, plain.stderr).toBe(0);
    expect(`${plain.stdout}${plain.stderr}`).toMatch(/Tests\s+\d+ passed/);
    expect(`${plain.stdout}${plain.stderr}`).not.toMatch(ESC);
  }, 250_000);
});

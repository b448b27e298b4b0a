/**
 * The spec a command reads without --spec: in a clone, the clone's; anywhere else, the one the installed
 * @exchange-api/types ships (packed by its prepack script). Run as a user outside any clone runs it: the
 * command in a fresh process whose folder is a new one under the system's temporary folder. And the
 * docs site's default folder is one the repository ignores, so a run leaves nothing untracked.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSpec, installedSpec } from '../src/default-spec';
import { withDefaultSpec } from '../src/commands/conformance';
import { root } from './run-cli';

const bin = join(root, 'packages', 'cli', 'bin', 'exchange-api.js');
const app = mkdtempSync(join(tmpdir(), 'default-spec-app-'));

/** `exchange-api ...args`, the built command (its test task builds it first), in `cwd`. */
function command(args: string[], cwd = app) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

beforeAll(() => {
  // What `npm pack` of @exchange-api/types does after its build.
  const r = spawnSync(process.execPath, [join(root, 'packages', 'types', 'scripts', 'ship-spec.mjs')], {
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
});
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('the default spec', () => {
  it('in a clone (any folder of it) is the clone’s spec/asyncapi.yaml', () => {
    expect(defaultSpec(join(root, 'packages', 'cli'))).toEqual({
      file: join(root, 'spec', 'asyncapi.yaml'),
      clone: resolve(root),
    });
  });

  it('outside a clone is the spec @exchange-api/types ships, a copy of the spec it was generated from', () => {
    expect(defaultSpec(app)).toEqual({ file: installedSpec(), clone: null });
    expect(readFileSync(installedSpec(), 'utf8')).toBe(readFileSync(join(root, 'spec', 'asyncapi.yaml'), 'utf8'));
  });

  // The installed command's docs and generate --out outside a clone are the consumer test's
  // (test/consumer: the packed packages, installed), which reads the same default; here the command from
  // this clone's build: the spec it finds and what generate alone says.
  it('outside a clone, spec reads it; generate alone says what to give', () => {
    const spec = command(['spec']);
    expect(spec.output).toContain(`spec ok: Exchange Streaming and Request API`);
    expect(spec.output).toContain(`(${installedSpec()})`);
    expect(spec.status).toBe(0);
    const bare = command(['generate']);
    expect(bare.status).toBe(2);
    expect(bare.output.trim()).toMatch(/^exchange-api generate: not in a clone of exchange-api .*give --out <dir>/);
  }, 600_000);

  it('outside a clone, conformance --generate reads the installed spec, found from the command, not the folder', () => {
    // The runner alone looked for @exchange-api/types from the current folder, and said "no spec found".
    const r = command(['conformance', '--generate', '--ws', 'ws://127.0.0.1:9', '--duration', '1']);
    expect(r.output).not.toMatch(/no spec found/);
    expect(r.output).toMatch(/server unreachable/);
    expect(r.status).toBe(2);
    expect(withDefaultSpec(['--generate', '--ws', 'ws://h'], app)).toEqual({
      argv: ['--generate', '--ws', 'ws://h', '--spec', installedSpec()],
    });
    // An explicit --spec, or no --generate, is passed on as it is.
    expect(withDefaultSpec(['--generate', '--spec=x.yaml'], app)).toEqual({ argv: ['--generate', '--spec=x.yaml'] });
    expect(withDefaultSpec(['--ws', 'ws://h'], app)).toEqual({ argv: ['--ws', 'ws://h'] });
  }, 300_000);

  it('with no spec to be found, the error names where --spec’s default was looked for', () => {
    const missing = join(app, 'no-such', 'asyncapi.yaml');
    const none = defaultSpec(app, () => missing);
    expect('error' in none && none.error).toMatch(
      new RegExp(
        `no spec/asyncapi\\.yaml with packages/types in ${app.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` +
          ` or any folder above it`,
      ),
    );
    expect('error' in none && none.error).toContain(`the installed @exchange-api/types ships no spec (${missing})`);
    expect('error' in none && none.error).toMatch(/pass --spec <file>$/);
    const uninstalled = defaultSpec(app, () => {
      throw new Error('Cannot find module');
    });
    expect('error' in uninstalled && uninstalled.error).toContain('@exchange-api/types is not installed');
    const given = withDefaultSpec(['--generate'], app);
    expect('error' in given || given.argv.includes('--spec')).toBe(true);
  });

  it('the docs site’s default folder is one this repository ignores', () => {
    const help = command(['docs', '--help']);
    const folder = /default: \.\/(\S+?),/.exec(help.output)?.[1];
    expect(folder, help.output).toBe('exchange-api-output/docs');
    const ignored = spawnSync('git', ['check-ignore', '-q', `${folder}/index.html`], { cwd: root });
    expect(ignored.status, `git check-ignore ${folder}/index.html`).toBe(0);
  });
});

/**
 * A reader that goes away (`exchange-api diff a b --fail-on breaking | head -1`) closes the pipe under
 * the command: it stops writing, prints no EPIPE stack trace, and still exits with the code of its run,
 * so a gate read under `pipefail` never passes because its reader stopped early.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { repoRoot } from '../../../test/support/cli';
import { withoutExamples } from '../../../test/support/spec-edits';
import { escapeSequences } from '../../../test/conformance/hostile';
import { built } from './run-cli';

/**
 * Run the built command with its stdout piped, and close the pipe on our side as a reader
 * that goes away does: at once, or (as `… | head -1`) once the first line has arrived, then calling
 * `closed`. Resolves with that line, the exit code and stderr.
 */
function readerLeaves(
  args: string[],
  after: 'at once' | 'the first line',
  closed: () => void = () => undefined,
): Promise<{ first: string; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...built, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let first: string | undefined;
    if (after === 'at once') child.stdout.destroy();
    else
      child.stdout.on('data', (d) => {
        out += d;
        if (first !== undefined || !out.includes('\n')) return;
        first = out.slice(0, out.indexOf('\n'));
        child.stdout.destroy();
        closed();
      });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // Only a hang reaches this bound: a loaded 2-core machine runs the command many times slower than a quiet one.
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`exchange-api ${args.join(' ')} did not end within 240 s`));
    }, 240_000);
    child.on('exit', (code) => {
      clearTimeout(bound);
      resolve({ first: first ?? '', code, stderr });
    });
  });
}

describe('a closed pipe', () => {
  // The spec command on a small spec (the weather fixture's): the pipe is the subject, and ours cost the
  // command seconds of CPU to load (ten more where its parser's verdict is not yet kept).
  it.each([['--help'], ['spec', '--spec', 'test/sdk/fixtures/weather.asyncapi.yaml']])(
    'exchange-api %s with its reader gone ends with exit 0 and nothing on stderr',
    async (...args) => {
      const { code, stderr } = await readerLeaves(args, 'at once');
      expect(stderr).not.toMatch(/EPIPE|at .*\(/);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
    300_000,
  );

  it('a failing diff gate whose reader leaves after the first line exits 1, not 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exchange-api-pipe-'));
    // A small spec (the weather fixture's): the gate's behaviour is the subject, and the parser took 15 s
    // of CPU on our spec, once for each text.
    const weather = join(repoRoot, 'test', 'sdk', 'fixtures', 'weather.asyncapi.yaml');
    const s = withoutExamples(parse(readFileSync(weather, 'utf8'), { intAsBigInt: true }));
    const before = join(dir, 'old.yaml');
    const after = join(dir, 'new.yaml');
    writeFileSync(before, stringify(s));
    // 100 required fields on a pushed record: breaking for servers, and, named in 1,200 characters each, a
    // report of over 1 MB, far more than the pipe holds (64 kB) and one read takes, so the command meets
    // the closed pipe. (1,500 short names made a long report too, and cost the parser 45 s more of CPU.)
    for (let i = 0; i < 100; i++) {
      const name = `extra_${i}_${'x'.repeat(1200)}`;
      s.components.schemas.Reading.properties[name] = { type: 'string' };
      s.components.schemas.Reading.required.push(name);
    }
    writeFileSync(after, stringify(s));
    const r = await readerLeaves(['diff', before, after, '--fail-on', 'breaking'], 'the first line');
    expect(r.first).toMatch(/^diff .*server: 100 breaking/);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
  }, 300_000);

  it(
    'a conformance run whose reader leaves after the first line exits with its ' +
      'own code: 1 against a failing server',
    async () => {
      // The server answers the checks only once the pipe is closed: every progress line comes after it.
      let release!: () => void;
      const server = await escapeSequences(new Promise<void>((r) => (release = r)));
      try {
        const r = await readerLeaves(
          ['conformance', '--ws', server.wsUrl, '--only', 'framing'],
          'the first line',
          release,
        );
        expect(r.first).toMatch(/^exchange-api conformance: .* 9 checks;/);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(1);
      } finally {
        release();
        await server.close();
      }
    },
    300_000,
  );
});

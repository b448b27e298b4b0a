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
import { fromSources } from './run-cli';

/**
 * Run the command from its sources with its stdout piped, and close the pipe on our side as a reader
 * that goes away does: at once, or (as `… | head -1`) once the first line has arrived, then calling
 * `closed`. Resolves with that line, the exit code and stderr.
 */
function readerLeaves(
  args: string[],
  after: 'at once' | 'the first line',
  closed: () => void = () => undefined,
): Promise<{ first: string; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...fromSources, ...args], {
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
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`exchange-api ${args.join(' ')} did not end within 90 s`));
    }, 90_000);
    child.on('exit', (code) => {
      clearTimeout(bound);
      resolve({ first: first ?? '', code, stderr });
    });
  });
}

describe('a closed pipe', () => {
  it.each([['--help'], ['spec']])(
    'exchange-api %s with its reader gone ends with exit 0 and nothing on stderr',
    async (...args) => {
      const { code, stderr } = await readerLeaves(args, 'at once');
      expect(stderr).not.toMatch(/EPIPE|at .*\(/);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
    40_000,
  );

  it('a failing diff gate whose reader leaves after the first line exits 1, not 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exchange-api-pipe-'));
    const s = withoutExamples(
      parse(readFileSync(join(repoRoot, 'spec', 'asyncapi.yaml'), 'utf8'), { intAsBigInt: true }),
    );
    const before = join(dir, 'old.yaml');
    const after = join(dir, 'new.yaml');
    writeFileSync(before, stringify(s));
    // 1,500 required fields on a pushed record: breaking for servers, and a report of some 350 kB, far
    // more than the pipe holds (64 kB) and one read takes, so the command meets the closed pipe.
    for (let i = 0; i < 1500; i++) {
      s.components.schemas.Order.properties[`extra_${i}`] = { type: 'string' };
      s.components.schemas.Order.required.push(`extra_${i}`);
    }
    writeFileSync(after, stringify(s));
    const r = await readerLeaves(['diff', before, after, '--fail-on', 'breaking'], 'the first line');
    expect(r.first).toMatch(/^diff .*server: 1500 breaking/);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
  }, 120_000);

  it('a conformance run whose reader leaves after the first line exits with its own code: 1 against a failing server', async () => {
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
  }, 120_000);
});

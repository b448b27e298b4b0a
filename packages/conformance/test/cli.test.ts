/** The command line's one-line refusals (exit 2) before any run: selections, numbers, report paths, replay files. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli, runCli } from '../src/cli';

/** Run the command with captured output; nothing listens on port 1, so a run that starts says "unreachable". */
async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['--ws', 'ws://127.0.0.1:1/v3/ws', ...argv],
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    {},
  );
  return { code, out, err };
}

describe('the command line refuses before running', () => {
  it('--only that matches no check: exit 2 with one line naming the pattern', async () => {
    const r = await cli('--only', 'login.no-such-check');
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/--only "login\.no-such-check" matches no check/);
    expect(r.err[0]).not.toMatch(/unreachable/);
    // One pattern of a list that matches nothing is named too; --skip that removes every selected check as well.
    expect(parseCli(['--ws', 'ws://h/v3/ws', '--only', 'login,lgoin'], {})).toEqual({
      error: expect.stringContaining('"lgoin" matches no check'),
    });
    expect(parseCli(['--ws', 'ws://h/v3/ws', '--only', 'login', '--skip', 'login'], {})).toEqual({
      error: '--only and --skip leave no check to run',
    });
  });

  it('bad numbers: one line naming the flag and what it takes', async () => {
    for (const [flag, value] of [
      ['--check-timeout', '-5'],
      ['--check-timeout', '1.5'],
      ['--check-timeout', '0'],
      ['--sample-window', 'abc'],
      ['--sample-window', '-1'],
      ['--sample-window', '1e3'],
      ['--check-timeout', '99999999999'],
    ]) {
      const r = await cli(flag!, value!);
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toContain(`${flag} takes`);
      expect(r.err[0]).toMatch(/a whole number from \d+ to \d+/);
      expect(r.err[0]).toContain(JSON.stringify(value));
    }
    expect(parseCli(['--ws', 'ws://h/v3/ws', '--check-timeout', '2000', '--sample-window=3000'], {})).toMatchObject({
      checkTimeoutMs: 2000,
      sampleWindowMs: 3000,
    });
    // A value starting with a dash reaches the flag's own check instead of "argument is ambiguous".
    const dash = parseCli(['--ws', '-5'], {});
    expect(dash).toEqual({ error: expect.stringContaining('--ws "-5" is not a URL') });
  });

  it('a report path that cannot be written: one line and exit 2, before the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const cases: [string, RegExp][] = [
      [`json:${join(dir, 'no-such-folder', 'r.json')}`, /does not exist/],
      [`html:${dir}`, /is a folder/],
      [`junit:${join(file, 'r.xml')}`, /is not a folder/],
      // access() says yes to /proc; a file cannot be made there, nor written into one that exists.
      ...(process.platform === 'linux'
        ? ([
            ['json:/proc/x.json', /\/proc is on a kernel filesystem/],
            ['json:/proc/self/status', /is on a kernel filesystem/],
          ] as [string, RegExp][])
        : []),
    ];
    for (const [target, why] of cases) {
      const r = await cli('--report', target);
      expect(r.code, target).toBe(2);
      expect(r.err).toEqual([
        expect.stringMatching(
          new RegExp(
            `^exchange-api conformance: --report ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` +
              ` cannot be written: .*${why.source}`,
          ),
        ),
      ]);
      // Checked before the run: the (unreachable) server was never tried.
      expect(r.out).toEqual([]);
    }
    const twice = await cli('--report', `json:${join(dir, 'r.json')}`, '--report', `json:${join(dir, 'r.json')}`);
    expect(twice.err[0]).toMatch(/another --report writes there too/);
  });

  it('the check of a report path leaves nothing behind: no new file, an old report untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
    const old = join(dir, 'old.json');
    writeFileSync(old, '{"the":"last run"}');
    const r = await cli('--report', `json:${join(dir, 'new.json')}`, '--report', `junit:${old}`);
    // Both were checked (by opening them) before the run, which then found nothing listening.
    expect(r.err).toEqual([expect.stringMatching(/server unreachable/)]);
    expect(r.code).toBe(2);
    expect(readdirSync(dir)).toEqual(['old.json']);
    expect(readFileSync(old, 'utf8')).toBe('{"the":"last run"}');
  });

  it('a replay file that does not fit its schema: exit 2, one line naming the file and the JSON pointer', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cli-replay-')), 'edited.json');
    const verdict = { status: 'failing', ruleId: 'envelope', rule: 'r', expected: 'e', got: 'g' };
    const file = {
      format: 'exchange-api-conformance-replay',
      formatVersion: 1,
      seed: 1,
      spec: { file: '/nowhere.yaml', title: 't', version: '1' },
      target: { ws: 'ws://127.0.0.1:1/v3/ws', http: null },
      kind: 'method',
      method: 'public/get_time',
      transport: 'ws',
      auth: 'none',
      expect: 'valid',
      why: 'w',
      call: { params: '{}', sent: '{}', received: [], verdict },
      shrinkSteps: 0,
    };
    writeFileSync(path, JSON.stringify(file));
    const r = await cli('--replay', path);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual([
      `exchange-api conformance: the replay file ${path} is not a replay file of format version 1: ` +
        'at /call/verdict/status: must be one of "pass", "fail", "inconclusive", "note"',
    ]);
  });
});

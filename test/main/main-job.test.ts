import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMain } from '../support/run-main';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // As `npm start` runs it (package.json): the sources, through the source condition and tsx.
    const child = spawn(
      process.execPath,
      [
        '--conditions=@exchange-api/source',
        '--import',
        'tsx',
        join(root, 'packages', 'cli', 'bin', 'exchange-api.js'),
        ...args,
      ],
      { cwd: root, env: { ...process.env, SCARF_ANALYTICS: 'false' } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // The job must end by itself; this bound only stops a hang (how long it takes is a benchmark's
    // business: tools/bench/src/main-job.ts), so it is far above a loaded machine's time.
    const guard = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

describe('the main job (npm start)', () => {
  it(
    'regenerates or confirms, runs the sandbox, the conformance suite and the ' +
      'client, writes the reports, exits 0 and leaves nothing listening',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'main-job-'));
      // The reports' folder went unremoved: one more in the temporary directory per run.
      onTestFinished(() => rmSync(out, { recursive: true, force: true }));
      // 5 s of streaming: longer than the 2 s of silence after which a step says what it is doing.
      const r = await run(['start', '--out', out, '--seconds', '5']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);

      // Progress step by step, in order.
      const steps = [...r.stdout.matchAll(/^\[(\d)\/5\] /gm)].map((m) => m[1]);
      expect(steps).toEqual(['1', '2', '3', '4', '5']);
      // The first step says at once what it does (the generators may hold the heartbeat's timer).
      expect(r.stdout).toMatch(/^\[1\/5\] [^\n]*\n {2}checking every generated file against the spec/m);
      expect(r.stdout).toMatch(/generated types, validators, tables and docs are current|regenerated \d+ file/);
      const listening = /sandbox listening ws:\/\/127\.0\.0\.1:(\d+)\/v3\/ws http:\/\/127\.0\.0\.1:(\d+)/.exec(
        r.stdout,
      );
      expect(listening).not.toBeNull();

      // The conformance summary, all passing on our own sandbox.
      expect(r.stdout).toMatch(/OK: \d+ passed, 0 failed/);

      // The live table: one row per perp with a best bid and ask.
      expect(r.stdout).toMatch(/instrument\s+best bid\s+best ask\s+books\s+trades\s+last trade/);
      expect(r.stdout).toMatch(/^\s+ETH-PERP\s+\d+(\.\d+)? x \d/m);
      expect(r.stdout).toMatch(/\(0 invalid\)/);
      // A silent step says what it is still doing (issue 32, item 24; the timing:
      // packages/cli/test/start-progress.test.ts).
      expect(r.stdout).toMatch(/^ {2}… streaming: \d+ order book\(s\) and \d+ trade\(s\) so far \(\d+ s\)$/m);
      for (const line of r.stdout.split('\n').filter((l) => l.startsWith('  … ')))
        expect(line).toMatch(/^ {2}… (checking|regenerating|starting|running|streaming)[^\n]* \(\d+ s\)$/);

      // The files it says it wrote.
      const html = join(out, 'conformance.html');
      const json = join(out, 'conformance.json');
      expect(r.stdout).toContain('conformance.html');
      expect(existsSync(html)).toBe(true);
      expect(readFileSync(html, 'utf8')).toMatch(/<html/i);
      const report = JSON.parse(readFileSync(json, 'utf8'));
      expect(report.format).toBe('exchange-api-conformance-report');
      expect(report.summary.failed).toBe(0);
      expect(report.summary.passed).toBeGreaterThan(40);
      expect(existsSync(join(root, 'packages', 'docs', 'site', 'index.html'))).toBe(true);

      // Nothing left behind: the sandbox's port is closed once the job has exited.
      expect(await portOpen(Number(listening![1]))).toBe(false);
    },
    330_000,
  );

  it('refuses a bad flag with one line and exit 2', async () => {
    const r = await runMain(['start', '--seconds', 'soon']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--seconds must be a number/);
  });
});

/**
 * `exchange-api conformance --spec FILE --ws URL` for the five public WebSocket specs that speak their own
 * messages (test/sdk/fixtures/public/): the server written from each spec passes (exit 0, checks passed),
 * and each broken variant fails with its finding: a reply without its correlation id, a message of no
 * receive operation, a wrong type in a payload, no reply at all. `exchange-api mock` of each spec passes.
 * Each server is on a port of its own and a run is mostly waiting (windows, bounds): the runs in this
 * process go side by side.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { bin, repoRoot } from '../support/cli';
import { check, removeFolders, specFile } from './message-cli';
import { FAULTS, SPECS, serveSpec, type Fault } from './message-servers';

afterAll(removeFolders);

const RULE: Record<Exclude<Fault, 'none'>, string> = {
  uncorrelated: 'messages.reply-correlated',
  unknown: 'messages.no-unasked-message',
  'wrong-type': 'messages.push-conforms',
  silent: 'messages.reply-within-bound',
  closes: 'messages.connection-kept',
};

describe.concurrent('conformance --spec: a server written from each public spec', () => {
  for (const name of SPECS) {
    it(`${name}: passes (exit 0, checks passed, none failed)`, async ({ expect }) => {
      const server = await serveSpec(name);
      try {
        // A window of a second: what is pushed on connect has arrived on the most loaded machine.
        const { code, out, report } = await check(name, server.url, ['--sample-window', '1000']);
        expect(
          report.checks.filter((c) => c.status === 'fail').map((c) => c.findings),
          out,
        ).toEqual([]);
        expect(report.summary.passed).toBeGreaterThan(0);
        expect(code).toBe(0);
        expect(out.split('\n')[0]).toMatch(
          new RegExp(`^exchange-api conformance: ${server.url} — \\d+ checks; spec .*own messages`),
        );
      } finally {
        await server.close();
      }
    });
  }
});

describe.concurrent('conformance --spec: broken variants fail with the right finding', () => {
  for (const name of SPECS)
    for (const fault of FAULTS[name])
      it(`${name}, ${fault}: exit 1 with ${RULE[fault as Exclude<Fault, 'none'>]}`, async ({ expect }) => {
        const server = await serveSpec(name, fault);
        try {
          // A reply that never comes is waited for only a second here.
          const { code, out, report } = await check(name, server.url, ['--check-timeout', '1000']);
          const rules = report.checks.flatMap((c) => c.findings.map((f) => f.ruleId));
          expect(rules, out).toContain(RULE[fault as Exclude<Fault, 'none'>]);
          // Kraken's broken status is a reply: judged by the reply's schema.
          if (fault === 'wrong-type' && name.startsWith('kraken')) expect(rules).toContain('messages.reply-conforms');
          expect(code).toBe(1);
        } finally {
          await server.close();
        }
      });
});

describe.concurrent('conformance --spec: exchange-api mock of each spec passes', () => {
  for (const name of SPECS)
    it(`${name}: the mock passes (exit 0)`, async ({ expect }) => {
      const { lenientModelFromSpec } = await import('@exchange-api/codegen');
      const { startMock } = await import('@exchange-api/mock');
      const { model } = await lenientModelFromSpec(specFile(name));
      const mock = await startMock({ model, seed: 3, pushIntervalMs: 50 });
      try {
        const { code, out, report } = await check(name, mock.url, ['--sample-window', '1000']);
        expect(
          report.checks.filter((c) => c.status === 'fail').map((c) => c.findings),
          out,
        ).toEqual([]);
        expect(report.summary.passed).toBeGreaterThan(0);
        expect(code).toBe(0);
      } finally {
        await mock.close();
      }
    });
});

describe('conformance --spec: the exchange-api mock command, in its own process', () => {
  it('kraken-message-filter: the URL it prints first passes the runner', async () => {
    const child = spawn(process.execPath, [bin, 'mock', '--spec', specFile('kraken-message-filter'), '--seed', '5'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const first = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.on('close', () => reject(new Error(`exited before its first line: ${out}`)));
      });
      // Its pushes come once a second: the window spans at least one.
      const { code, out } = await check('kraken-message-filter', first.replace(/^mock listening /, ''), [
        '--sample-window',
        '1500',
      ]);
      expect(code, out).toBe(0);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 120_000);
});

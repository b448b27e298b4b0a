/**
 * The default suite against a default sandbox: everything passes or is skipped with a reason. How long
 * it takes is the main-job benchmark's business (tools/bench), not a test's: a busy machine is slow.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { startSandbox } from '@exchange-api/sandbox';
import { registry, runConformance, runCli, type Report } from '@exchange-api/conformance';

function problems(report: Report): string[] {
  return report.checks
    .filter((c) => c.status === 'fail' || c.status === 'inconclusive' || (c.status === 'skip' && !c.reason))
    .map((c) => `${c.id}: ${c.status} ${c.reason ?? ''} ${JSON.stringify(c.findings.slice(0, 2))}`);
}

// The two runs side by side: each has a sandbox of its own on port 0, and most of a run's time is its
// checks waiting out windows (samples, budgets), not CPU.
describe.concurrent('conformance runner against the sandbox', () => {
  it('default suite: every check passes or is skipped with a reason', async ({ expect }) => {
    const session = Wallet.createRandom();
    const owner = Wallet.createRandom();
    const sandbox = await startSandbox({ port: 0, sessionKeys: [{ address: session.address, wallet: owner.address }] });
    try {
      const started = Date.now();
      // The key is the session key's wallet, so the wallet-shared check covers session keys too.
      const report = await runConformance({
        ws: sandbox.wsUrl,
        http: sandbox.httpUrl,
        key: owner.privateKey,
        sessionKey: session.privateKey,
        wallet: owner.address,
      });
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `default suite against the sandbox: ${report.summary.passed} passed, ${report.summary.skipped}` +
          ` skipped of ${report.summary.total} in ${seconds.toFixed(1)} s`,
      );
      expect(problems(report)).toEqual([]);
      expect(report.checks.length).toBe(registry.length);
      expect(report.exitCode).toBe(0);
      // private/get_subaccounts on WebSocket (an assumption of the spec) is observed after the wallet login.
      const overWs = report.assumptions.find((a) => a.id === 'get-subaccounts-ws');
      expect(overWs?.observations.map((o) => [o.check, o.conforms])).toEqual([['login.wallet', true]]);
      // Without --allow-order-flow nothing trades: every order-flow check is skipped, saying why.
      for (const c of report.checks.filter((x) => x.needs.includes('order-flow')))
        expect(c.reason).toMatch(/allow-order-flow/);
    } finally {
      await sandbox.close();
    }
  }, 300_000);

  it('with --allow-order-flow: the whole suite, the order-flow checks run and pass too', async ({ expect }) => {
    const session = Wallet.createRandom();
    const owner = Wallet.createRandom();
    const sandbox = await startSandbox({ port: 0, sessionKeys: [{ address: session.address, wallet: owner.address }] });
    try {
      const started = Date.now();
      const report = await runConformance({
        ws: sandbox.wsUrl,
        http: sandbox.httpUrl,
        key: owner.privateKey,
        sessionKey: session.privateKey,
        wallet: owner.address,
        allowOrderFlow: true,
      });
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `suite with --allow-order-flow against the sandbox: ${report.summary.passed}` +
          ` passed, ${report.summary.skipped} skipped of ${report.summary.total} in ` +
          `${seconds.toFixed(1)} s`,
      );
      expect(problems(report)).toEqual([]);
      expect(report.checks.length).toBe(registry.length);
      const orderFlow = [
        'orderflow.order-accepted',
        'orderflow.cancel',
        'orderflow.action-signature',
        'ratelimit.matching-shared',
        'ratelimit.cancel-all-budget',
        'ratelimit.cancel-by-label-budget',
        'ratelimit.instrument-bucket',
        'observe.private-trade',
      ];
      expect(report.checks.filter((c) => c.status === 'pass').map((c) => c.id)).toEqual(
        expect.arrayContaining(orderFlow),
      );
      const trade = report.checks.find((c) => c.id === 'observe.private-trade')!;
      expect(trade.observations[0]?.schema).toBeTruthy();
      // The bucket is not reported by getRateLimits: what the runner saw of it is an observation.
      const bucket = report.checks.find((c) => c.id === 'ratelimit.instrument-bucket')!;
      expect(bucket.observations.map((o) => o.text).join('\n')).toMatch(/capacity about \d+/);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});

describe('conformance command line against the sandbox', () => {
  it('the command line: exit 0 with reports written, 2 for usage errors and an unreachable server', async () => {
    const sandbox = await startSandbox({ port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'conformance-'));
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(`ERR ${l}`) };
    try {
      const code = await runCli(
        [
          '--ws',
          sandbox.wsUrl,
          '--http',
          sandbox.httpUrl,
          '--only',
          'framing',
          '--report',
          'console',
          '--report',
          `json:${join(dir, 'r.json')}`,
          '--report',
          `junit:${join(dir, 'r.xml')}`,
          '--report',
          `html:${join(dir, 'r.html')}`,
        ],
        io,
        {},
      );
      expect(code).toBe(0);
      const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Report;
      expect(json.format).toBe('exchange-api-conformance-report');
      expect(json.checks.every((c) => c.area === 'framing')).toBe(true);
      expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toContain(
        '<testcase classname="conformance.framing" name="framing.id-echo-null"',
      );
      expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain('id="filter"');
      expect(lines.some((l) => /^\[1\/9\] PASS +framing\.id-echo-string/.test(l))).toBe(true);
      expect(lines.join('\n')).toMatch(/area\s+passed\s+failed\s+skipped\s+inconclusive\s+total/);
    } finally {
      await sandbox.close();
    }
    lines.length = 0;
    expect(await runCli(['--ws', 'ws://127.0.0.1:1/v3/ws'], io, {})).toBe(2);
    expect(lines.at(-1)).toMatch(/unreachable/);
    expect(await runCli(['--ws'], io, {})).toBe(2);
    expect(await runCli(['--ws', 'ws://x/v3/ws', '--frobnicate'], io, {})).toBe(2);
    expect(await runCli(['--ws', 'ws://x/v3/ws', '--report', 'pdf:x'], io, {})).toBe(2);
    expect(await runCli(['--ws', 'ws://x/v3/ws', '--key', 'nothex'], io, {})).toBe(2);
    expect(await runCli(['--help'], io, {})).toBe(0);
  }, 180_000);
});

/**
 * The deployment checks (`--ws URL1,URL2`): against two sandboxes on one redis-server of the test's own
 * (one exchange) every one passes; against two sandboxes without Redis (two exchanges) the sharing
 * checks fail, and their findings say what each endpoint showed. Skipped only without redis-server.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { startSandbox, type Sandbox, type SandboxOptions } from '@exchange-api/sandbox';
import { runCli, runConformance, type CheckResult, type Report } from '@exchange-api/conformance';
import { startProxy } from './proxy';
import { hasRedisServer, NO_REDIS, startRedis, type RedisServer } from '../../packages/sandbox/test/redis-server';

// Generous order budgets so the order checks are not slowed by waiting out the matching window.
const options: SandboxOptions = {
  port: 0,
  limits: { matching: { points: 100 }, bucket_perp_spot: { capacity: 100 } },
};

let redis: RedisServer | null = null;
const started: Sandbox[] = [];
beforeEach(async () => {
  if (hasRedisServer) redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
  await redis?.stop();
  redis = null;
});

async function two(extra: SandboxOptions = {}): Promise<[Sandbox, Sandbox]> {
  const a = await startSandbox({ ...options, ...extra });
  started.push(a);
  const b = await startSandbox({ ...options, ...extra });
  started.push(b);
  return [a, b];
}

/** The deployment checks of a run against A and B, by id. */
async function run(a: Sandbox, b: Sandbox): Promise<{ report: Report; byId: Record<string, CheckResult> }> {
  const report = await runConformance({
    ws: a.wsUrl,
    http: a.httpUrl,
    otherEndpoints: [{ ws: b.wsUrl, http: b.httpUrl }],
    key: Wallet.createRandom().privateKey,
    allowOrderFlow: true,
    only: ['deployment'],
    sampleWindowMs: 1500,
  });
  return { report, byId: Object.fromEntries(report.checks.map((c) => [c.id, c])) };
}

const ids = [
  'deployment.rate-limits-agree',
  'deployment.nonce-once',
  'deployment.push-across',
  'deployment.wallet-budget',
  'deployment.connection-limit',
];

const summary = (c: CheckResult) => `${c.id}: ${c.status} ${c.reason ?? ''} ${JSON.stringify(c.findings.slice(0, 2))}`;

describe.skipIf(!hasRedisServer)(`the deployment checks${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  it('two sandboxes on one Redis are one exchange: every deployment check passes', async () => {
    const [a, b] = await two({ redis: redis!.url });
    const { report, byId } = await run(a, b);
    expect(Object.keys(byId).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(byId[id]!.status, summary(byId[id]!)).toBe('pass');
    expect(report.target.endpoints).toEqual([
      { ws: a.wsUrl, http: a.httpUrl },
      { ws: b.wsUrl, http: b.httpUrl },
    ]);
  }, 120_000);

  it(
    'two sandboxes without Redis are two exchanges: the sharing checks fail, ' + 'saying what each endpoint showed',
    async () => {
      const [a, b] = await two();
      const { byId } = await run(a, b);
      for (const id of ids) expect(byId[id]!.status, summary(byId[id]!)).toBe('fail');
      const text = (id: string) => JSON.stringify(byId[id]!.findings);
      // Each finding names what A and B showed.
      expect(text('deployment.wallet-budget')).toMatch(
        /B's budget did not count the \d+ requests the wallet spent on A/,
      );
      expect(text('deployment.wallet-budget')).toMatch(/B served a request past the wallet's budget/);
      expect(text('deployment.wallet-budget')).toMatch(/A: consumedPoints 1, remainingPoints \d+ before spending/);
      expect(text('deployment.rate-limits-agree')).toMatch(/B did not count the reading A had just counted/);
      expect(text('deployment.rate-limits-agree')).toMatch(/count this IP's connections apart \(A 1, B 1, A 1\)/);
      expect(text('deployment.connection-limit')).toMatch(/connection 5 of this IP was served by A/);
      expect(text('deployment.connection-limit')).toMatch(
        new RegExp(
          /A holds 3 of them and reports consumedPoints 3, remainingPoints 1; /.source +
            /B holds 2 of them and reports consumedPoints [23]/.source,
        ),
      );
      expect(text('deployment.nonce-once')).toMatch(/B accepted an order whose nonce A had already used/);
      expect(text('deployment.push-across')).toMatch(/pushed on A but not to the subscriber on B/);
    },
    120_000,
  );
});

describe.skipIf(!hasRedisServer)(
  'the connection limit while a count still holds closing connections' +
    (hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`),
  () => {
    /**
     * deployment.connection-limit against a proxy of A (which refuses a connection when `refuse` says so,
     * given how many other connections it holds) and B.
     */
    async function limitThroughProxy(refuse: (open: number) => boolean): Promise<CheckResult> {
      const [a, b] = await two({ redis: redis!.url });
      const proxy = await startProxy(a, { refuse });
      try {
        const report = await runConformance({
          ws: proxy.wsUrl,
          http: proxy.httpUrl,
          otherEndpoints: [{ ws: b.wsUrl, http: b.httpUrl }],
          key: Wallet.createRandom().privateKey,
          only: ['deployment.connection-limit'],
        });
        return report.checks[0]!;
      } finally {
        await proxy.close();
      }
    }
    const events = (r: CheckResult) =>
      r.transcript
        .filter((t) => t.dir === 'event')
        .map((t) => `${t.conn} ${t.data}`)
        .join('\n');

    it('a connection refused once within the budget is opened again once the count settles: pass', async () => {
      let refused = 0;
      // A#2, opened while A#1 is held: refused once, as by a count that still held a closing connection.
      const r = await limitThroughProxy((open) => open === 1 && refused === 0 && ++refused > 0);
      expect(refused).toBe(1);
      expect(r.status, summary(r)).toBe('pass');
      expect(events(r)).toMatch(/A#2 was refused within the budget: waiting/);
    }, 60_000);

    it(
      'refused each time within the budget: inconclusive, never failed (the count ' +
        "is connections.limit's to judge)",
      async () => {
        const r = await limitThroughProxy((open) => open >= 1);
        expect(r.status, summary(r)).toBe('inconclusive');
        expect(r.reason).toMatch(/A#2 was refused within the budget 4 times, after the count had settled each time/);
      },
      60_000,
    );
  },
);

describe('the deployment checks with one endpoint', () => {
  it(
    'are skipped, saying they need two or more endpoints; the console report ' +
      'names the endpoints when there are two',
    async () => {
      const a = await startSandbox({ port: 0 });
      started.push(a);
      const one = await runConformance({ ws: a.wsUrl, only: ['deployment'] });
      expect(one.checks.map((c) => [c.status, c.reason])).toEqual(
        ids.map(() => ['skip', expect.stringMatching(/^needs two or more endpoints/)]),
      );
      expect(one.target).toEqual({ ws: a.wsUrl, http: null });
    },
    60_000,
  );

  it('a second endpoint that accepts no connection: server unreachable, naming it, exit 2', async () => {
    const a = await startSandbox({ port: 0 });
    started.push(a);
    const err: string[] = [];
    const code = await runCli(
      ['--ws', `${a.wsUrl},ws://127.0.0.1:1/v3/ws`, '--only', 'deployment'],
      { out: () => undefined, err: (l) => err.push(l) },
      {},
    );
    expect(code).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(
        /^exchange-api conformance: server unreachable: endpoint B \(ws:\/\/127\.0\.0\.1:1\/v3\/ws\): /,
      ),
    ]);
  }, 60_000);
});

describe.skipIf(!hasRedisServer)(
  `the command line with two endpoints${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`,
  () => {
    it('names both endpoints in the console and JSON reports', async () => {
      const [a, b] = await two({ redis: redis!.url });
      const json = join(mkdtempSync(join(tmpdir(), 'deployment-')), 'report.json');
      const out: string[] = [];
      const code = await runCli(
        [
          '--ws',
          `${a.wsUrl},${b.wsUrl}`,
          '--http',
          `${a.httpUrl},${b.httpUrl}`,
          '--only',
          'deployment.connection-limit',
          '--report',
          'console',
          '--report',
          `json:${json}`,
        ],
        { out: (l) => out.push(l), err: (l) => out.push(l) },
        {},
      );
      const text = out.join('\n');
      expect(code, text).toBe(0);
      expect(text).toContain(`one deployment, A ${a.wsUrl} (${a.httpUrl}), B ${b.wsUrl} (${b.httpUrl})`);
      expect(text).toContain(`  A: ${a.wsUrl} and ${a.httpUrl}\n  B: ${b.wsUrl} and ${b.httpUrl}`);
      const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
      expect(report.target.endpoints?.map((e) => e.ws)).toEqual([a.wsUrl, b.wsUrl]);
      expect(report.checks.map((c) => [c.id, c.status])).toEqual([['deployment.connection-limit', 'pass']]);
    }, 60_000);
  },
);

/**
 * The whole `--generate` run against the sandbox: green, every case counted by target and verdict. The
 * sandbox is started with generous budgets, which the run reads from its getRateLimits and paces under
 * (under the spec's reference budgets the same run waits about three minutes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { runGenerated, type GenerateProgress } from '@exchange-api/conformance';
import { loadSpec } from '../support/spec-model';

type PaceBudget = Extract<GenerateProgress, { type: 'started' }>['pacing'][number];

let sandbox: Sandbox;
beforeAll(async () => {
  const generous = { points: 100_000 };
  sandbox = await startSandbox({
    port: 0,
    limits: {
      public: generous,
      non_matching: generous,
      matching: generous,
      cancel_all: generous,
      cancel_by_label: generous,
    },
  });
});
afterAll(async () => {
  await sandbox.close();
});

describe('conformance --generate against the sandbox', () => {
  it('against the sandbox: no failure; every case counted by target and verdict', async () => {
    const started = Date.now();
    const dir = mkdtempSync(join(tmpdir(), 'generate-'));
    const pacing: PaceBudget[] = [];
    const report = await runGenerated({
      loadSpec,
      ws: sandbox.wsUrl,
      http: sandbox.httpUrl,
      seed: 1,
      replayDir: dir,
      onProgress: (e) => void (e.type === 'started' && pacing.push(...e.pacing)),
    });
    const g = report.generated!;
    console.log(
      `--generate against the sandbox: ${g.cases} cases in ${((Date.now() - started) / 1000).toFixed(1)}` +
        ` s: ${JSON.stringify(g.totals)}`,
    );
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(g.totals.pass).toBeGreaterThan(500);
    // Every method the spec serves is a target on each of its transports; order flow only with the flag.
    expect(g.targets.find((t) => t.id === 'generated.public/get_ticker@http')?.pass).toBeGreaterThan(0);
    expect(g.targets.find((t) => t.id === 'generated.private/order@ws')?.skipped).toMatch(/allow-order-flow/);
    expect(g.targets.find((t) => t.id === 'generated.channel.orderbook')?.pass).toBeGreaterThan(0);
    expect(g.targets.find((t) => t.id === 'generated.invariants')?.pass).toBeGreaterThan(0);
    // Paced under the budgets the sandbox's getRateLimits reported, not the spec's reference ones.
    expect(pacing.filter((b) => ['public', 'non_matching', 'matching', 'cancel_all'].includes(b.id))).toEqual([
      { id: 'non_matching', points: 100_000, windowMs: 5000, source: 'server' },
      { id: 'matching', points: 100_000, windowMs: 5000, source: 'server' },
      { id: 'cancel_all', points: 100_000, windowMs: 5000, source: 'server' },
      { id: 'public', points: 100_000, windowMs: 5000, source: 'server' },
    ]);
  }, 600_000);
});

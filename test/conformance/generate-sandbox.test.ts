/**
 * The whole `--generate` run against the sandbox: green, every case counted by target and verdict. Its
 * own file: most of its three minutes is waiting under the spec's budgets, which runs beside the other
 * files rather than after generate.test.ts's cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { runGenerated } from '@exchange-api/conformance';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('conformance --generate against the sandbox', () => {
  it('against the sandbox: no failure; every case counted by target and verdict', async () => {
    const started = Date.now();
    const dir = mkdtempSync(join(tmpdir(), 'generate-'));
    const report = await runGenerated({ ws: sandbox.wsUrl, http: sandbox.httpUrl, seed: 1, replayDir: dir });
    const g = report.generated!;
    console.log(
      `--generate against the sandbox: ${g.cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(g.totals)}`,
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
  }, 600_000);
});

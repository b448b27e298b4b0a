/**
 * The deployment checks (`--ws URL1,URL2`) against two sandboxes on a Redis Cluster of the test's own
 * (three masters on loopback): one exchange, so every one passes, as on one Redis (deployment.test.ts).
 * Skipped only without redis-server and redis-cli.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { runConformance, type CheckResult } from '@exchange-api/conformance';
import {
  hasRedisCluster,
  NO_REDIS_CLUSTER,
  startRedisCluster,
  type RedisCluster,
} from '../../packages/sandbox/test/redis-cluster';

let cluster: RedisCluster | null = null;
const started: Sandbox[] = [];
beforeAll(async () => {
  if (hasRedisCluster) cluster = await startRedisCluster();
}, 60_000);
afterAll(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
  await cluster?.stop();
});

const summary = (c: CheckResult) => `${c.id}: ${c.status} ${c.reason ?? ''} ${JSON.stringify(c.findings.slice(0, 2))}`;

describe.skipIf(!hasRedisCluster)(
  `the deployment checks on a Redis Cluster${hasRedisCluster ? '' : ` (skipped: ${NO_REDIS_CLUSTER})`}`,
  () => {
    it('two sandboxes on one cluster are one exchange: every deployment check passes', async () => {
      // Generous order budgets so the order checks are not slowed by waiting out the matching window.
      const options = {
        port: 0,
        limits: { matching: { points: 100 }, bucket_perp_spot: { capacity: 100 } },
        redisCluster: cluster!.seeds,
      };
      const a = await startSandbox(options);
      started.push(a);
      const b = await startSandbox(options);
      started.push(b);
      const report = await runConformance({
        ws: a.wsUrl,
        http: a.httpUrl,
        otherEndpoints: [{ ws: b.wsUrl, http: b.httpUrl }],
        key: Wallet.createRandom().privateKey,
        allowOrderFlow: true,
        only: ['deployment'],
        sampleWindowMs: 1500,
      });
      const ids = report.checks.map((c) => c.id).sort();
      expect(ids).toEqual([
        'deployment.connection-limit',
        'deployment.nonce-once',
        'deployment.push-across',
        'deployment.rate-limits-agree',
        'deployment.wallet-budget',
      ]);
      for (const c of report.checks) expect(c.status, summary(c)).toBe('pass');
    }, 120_000);
  },
);

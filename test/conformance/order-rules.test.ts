/**
 * The order-rule checks (packages/conformance/src/checks/order-rules.ts) against the sandbox, where they
 * all pass, and against the sandbox behind a proxy that drops the trigger and reduce_only fields of
 * every order (they are not in the signed data, so the orders still verify): a server that ignores
 * them, which the two checks of those fields must catch.
 */
import { describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { startSandbox } from '@exchange-api/sandbox';
import { runConformance, type Report } from '@exchange-api/conformance';
import { editJson, startProxy, type ProxyHooks } from './proxy';

const IDS = [
  'orderrules.trigger-rests',
  'orderrules.reduce-only',
  'orderrules.max-fee',
  'orderrules.self-trade',
  'orderrules.session-key-scope',
];
const statuses = (r: Report) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));

/** Ignores trigger_type, trigger_price, trigger_price_type and reduce_only: the order goes on as a plain one. */
const ignoring: ProxyHooks = {
  toServer: (t) =>
    editJson(t, (m) => {
      if (m?.method !== 'private/order' || !m.params) return;
      for (const f of ['trigger_type', 'trigger_price', 'trigger_price_type', 'reduce_only']) delete m.params[f];
    }),
};

describe('order-rule checks', () => {
  it('pass against the sandbox', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const report = await runConformance({
        ws: sandbox.wsUrl,
        http: sandbox.httpUrl,
        key: Wallet.createRandom().privateKey,
        only: ['orderrules.*'],
        allowOrderFlow: true,
        sampleWindowMs: 1000,
      });
      const problems = report.checks
        .filter((c) => c.status !== 'pass')
        .map((c) => `${c.id}: ${c.status} ${c.reason ?? ''} ${JSON.stringify(c.findings.slice(0, 1))}`);
      expect(problems).toEqual([]);
      expect(report.checks.map((c) => c.id)).toEqual(IDS);
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it('catch a server that ignores trigger and reduce_only fields', async () => {
    const sandbox = await startSandbox({ port: 0 });
    const proxy = await startProxy(sandbox, ignoring);
    try {
      const report = await runConformance({
        ws: proxy.wsUrl,
        http: proxy.httpUrl,
        key: Wallet.createRandom().privateKey,
        only: ['orderrules.trigger-rests', 'orderrules.reduce-only'],
        allowOrderFlow: true,
        sampleWindowMs: 1000,
      });
      expect(statuses(report)).toEqual({ 'orderrules.trigger-rests': 'fail', 'orderrules.reduce-only': 'fail' });
      const trigger = report.checks.find((c) => c.id === 'orderrules.trigger-rests')!;
      expect(trigger.findings[0]!.message).toBe('a stop order far from its trigger filled at once');
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  }, 120_000);
});

/**
 * Servers broken on purpose: a frame-rewriting proxy in front of a fresh sandbox breaks one rule at a time,
 * and the runner must fail the check that enforces it. A passthrough proxy first shows the same checks pass.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { startSandbox } from '@exchange-api/sandbox';
import { runConformance, type Report } from '@exchange-api/conformance';
import { editJson, startProxy, type ProxyHooks } from './proxy';

type Case = { name: string; check: string; hooks: ProxyHooks };

const isPush = (m: any, prefix: string) => m?.method && typeof m.params?.channel === 'string' && m.params.channel.startsWith(prefix);

const cases: Case[] = [
  {
    name: 'a missing required field (order book without publish_id)',
    check: 'channels.payload.orderbook',
    hooks: { toClient: (t) => editJson(t, (m) => void (isPush(m, 'orderbook.') && delete m.params.data.publish_id)) },
  },
  {
    name: 'unsorted bids',
    check: 'orderbook.sorted',
    hooks: { toClient: (t) => editJson(t, (m) => void (isPush(m, 'orderbook.') && m.params.data.bids.reverse())) },
  },
  {
    name: 'decreasing publish_id',
    check: 'orderbook.publish-id',
    hooks: { toClient: (t) => editJson(t, (m) => void (isPush(m, 'orderbook.') && (m.params.data.publish_id = 1e9 - m.params.data.publish_id))) },
  },
  {
    name: 'a wrong rate-limit error code',
    check: 'ratelimit.exceeded',
    hooks: { toClient: (t) => editJson(t, (m) => void (m?.error?.code === -32000 && (m.error.code = -32099))) },
  },
  {
    name: 'a wrong hint format',
    check: 'ratelimit.retry-hint',
    hooks: { toClient: (t) => editJson(t, (m) => void (m?.error?.code === -32000 && (m.error.data = String(m.error.data).replace(/Retry after ([0-9]+) ms/, 'retry in $1ms')))) },
  },
  {
    name: 'a login accepted with a stale timestamp',
    check: 'login.stale-timestamp',
    hooks: {
      toServer: (t, s) =>
        editJson(t, (m) => {
          if (m?.method === 'public/login' && Date.now() - Number(m.params?.timestamp) > 60_000) s[`stale:${m.id}`] = true;
        }),
      toClient: (t, s) =>
        editJson(t, (m) => {
          if (m && s[`stale:${m.id}`] && m.error) {
            delete m.error;
            m.result = [1];
          }
        }),
    },
  },
  {
    name: 'a private channel served without login',
    check: 'access.private-before-login',
    hooks: {
      toServer: (t, s) =>
        editJson(t, (m) => {
          if (m?.method === 'public/login') s.loggingIn = true;
          if (m?.method === 'subscribe' && !s.loggingIn) s[`sub:${m.id}`] = m.params?.channels;
        }),
      toClient: (t, s) =>
        editJson(t, (m) => {
          const channels = m && (s[`sub:${m.id}`] as string[] | undefined);
          if (channels) {
            delete m.error;
            m.result = { status: Object.fromEntries(channels.map((c: string) => [c, "ok"])), current_subscriptions: channels };
          }
        }),
    },
  },
  { name: 'a fifth connection accepted', check: 'connections.limit', hooks: { acceptOverLimit: true } },
  {
    name: 'remaining_connections over HTTP',
    check: 'ratelimit.get-rate-limits-http',
    hooks: {
      http: (path, body, status) => {
        if (!path.includes('getRateLimits')) return { status, body };
        const m = JSON.parse(body);
        m.result.remaining_connections = { remainingPoints: 3, msBeforeNext: 0, consumedPoints: 1, isFirstInDuration: false };
        return { status, body: JSON.stringify(m) };
      },
    },
  },
  {
    name: 'an array channel pushing an object',
    check: 'channels.payload.trades',
    hooks: { toClient: (t) => editJson(t, (m) => void (isPush(m, 'trades.') && Array.isArray(m.params.data) && (m.params.data = m.params.data[0]))) },
  },
  {
    name: 'a response with both result and error',
    check: 'framing.result-xor-error',
    hooks: { toClient: (t) => editJson(t, (m) => void (m && 'result' in m && 'id' in m && (m.error = { code: -32603, message: 'Internal error' }))) },
  },
  {
    name: 'a push on an unsubscribed channel',
    check: 'subscriptions.only-subscribed',
    hooks: {
      toClient: (t) =>
        editJson(t, (m) => (isPush(m, 'orderbook.') ? [t, JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel: 'spot_feed.NEVER', data: {} } })] : undefined)),
    },
  },
  {
    name: '13 fractional digits',
    check: 'semantics.decimal-digits',
    hooks: {
      toClient: (t) =>
        editJson(t, (m) => {
          const level = isPush(m, 'orderbook.') && m.params.data.bids[0];
          if (level) level[1] = `${String(level[1]).split('.')[0]}.0000000000001`;
        }),
    },
  },
  {
    name: 'an unknown enum value',
    check: 'channels.payload.trades',
    hooks: { toClient: (t) => editJson(t, (m) => void (isPush(m, 'trades.') && Array.isArray(m.params.data) && m.params.data.forEach((x: any) => (x.direction = 'hold')))) },
  },
  {
    name: 'a wrong id echo',
    check: 'framing.id-echo-number',
    hooks: { toClient: (t) => editJson(t, (m) => void (typeof m?.id === 'number' && (m.id = String(m.id)))) },
  },
  {
    name: 'a reserved code for a non-rate-limit error',
    check: 'framing.reserved-codes',
    hooks: { toClient: (t) => editJson(t, (m) => void (m?.error?.code === -32601 && (m.error.code = -32001))) },
  },
  {
    name: 'pushes continue after unsubscribing everything',
    check: 'subscriptions.unsubscribe-all',
    hooks: { toServer: (t) => editJson(t, (m) => (m?.method === 'unsubscribe' && m.params && !m.params.channels ? [JSON.stringify({ ...m, method: 'public/getRateLimits', params: {} })] : undefined)) },
  },
];

async function run(hooks: ProxyHooks, only: string[]): Promise<Report> {
  const sandbox = await startSandbox({ port: 0 });
  const proxy = await startProxy(sandbox, hooks);
  try {
    return await runConformance({ ws: proxy.wsUrl, http: proxy.httpUrl, key: Wallet.createRandom().privateKey, only, sampleWindowMs: 4000 });
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

const outcome = (r: Report, id: string) => r.checks.find((c) => c.id === id);
let caught = 0;

describe('broken servers', () => {
  afterAll(() => {
    console.log(`broken servers caught: ${caught}/${cases.length}`);
  });

  it('a passthrough proxy changes nothing: every intended check passes through it', async () => {
    const ids = [...new Set(cases.map((c) => c.check))];
    const report = await run({}, ids);
    const notPassing = report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status} ${c.reason ?? ''}`);
    expect(notPassing).toEqual([]);
    expect(report.checks.map((c) => c.id).sort()).toEqual(ids.sort());
  }, 60_000);

  for (const c of cases) {
    it(`${c.name} fails ${c.check}`, async () => {
      const report = await run(c.hooks, [c.check]);
      const r = outcome(report, c.check);
      expect(r?.status, `${c.check}: ${r?.reason}`).toBe('fail');
      expect(r!.findings.length).toBeGreaterThan(0);
      expect(report.exitCode).toBe(1);
      caught++;
    }, 40_000);
  }
});

/**
 * The runner against hostile servers (test/conformance/hostile.ts, and two proxies in front of a sandbox
 * that drop answers): none of them gives positive evidence of anything, so none of the checks in the
 * table may pass. The checks listed are those a runner passes by mistake when it takes silence, echoes,
 * garbage, a blanket refusal (of every request, or of every HTTP request) or a dropped request for evidence.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { startSandbox } from '@exchange-api/sandbox';
import {
  matchesPattern,
  registry,
  runConformance,
  runCli,
  UnreachableError,
  type Report,
} from '@exchange-api/conformance';
import { errorTable, methodTable } from '@exchange-api/types';
import { blackHole, echoServer, garbageServer, refuser, silentPeer, upgradeRequired, type Hostile } from './hostile';
import { editJson, startProxy, type ProxyHooks } from './proxy';

const RATE_LIMITED = errorTable.codes.find((c) => c.kind === 'rate-limit')!.code;
const matchingMethods: string[] = methodTable.filter((m) => m.rateLimitClass === 'matching').map((m) => m.name);
const FRAMING_ERRORS = ['framing.error-codes', 'framing.reserved-codes', 'framing.error-shape', 'framing.malformed'];
const HTTP_LOGIN = [
  'login.http-without-headers',
  'login.http-stale',
  'login.http-headers',
  'login.http-params',
  'ratelimit.get-rate-limits-http',
];

/** Drops every rate-limit answer to a matching-class request: over-limit order flow vanishes without a word. */
const dropRefusals: ProxyHooks = {
  toServer: (t, s) => editJson(t, (m) => void (matchingMethods.includes(m?.method) && (s[`matching:${m.id}`] = true))),
  toClient: (t, s) => editJson(t, (m) => (m?.error?.code === RATE_LIMITED && s[`matching:${m.id}`] ? null : undefined)),
};

/**
 * One order bucket per wallet whose over-limit requests are dropped: after a refusal in one instrument,
 * order flow in the others gets no answer for a while (instead of the -32000 the document gives).
 */
const dropOtherInstruments: ProxyHooks = {
  toServer: (t, s) =>
    editJson(t, (m) => void (matchingMethods.includes(m?.method) && (s[`inst:${m.id}`] = m.params?.instrument_name))),
  toClient: (t, s) =>
    editJson(t, (m) => {
      const inst = m && (s[`inst:${m.id}`] as string | undefined);
      if (inst === undefined) return undefined;
      const last = s.lastRefusal as { at: number; inst: string } | undefined;
      if (m.error?.code === RATE_LIMITED) s.lastRefusal = { at: Date.now(), inst };
      else if (last && last.inst !== inst && Date.now() - last.at < 1500) return null;
      return undefined;
    }),
};

/** Answers every request of `method` with a well-formed error: a sandbox that refuses all of them. */
const refusing = (method: string): ProxyHooks => ({
  toServer: (t, s) => editJson(t, (m) => void (m?.method === method && (s[`refuse:${m.id}`] = true))),
  toClient: (t, s) =>
    editJson(t, (m) => {
      if (!m || !s[`refuse:${m.id}`]) return;
      delete m.result;
      m.error = { code: -32603, message: 'Internal error', data: 'refused' };
    }),
});

/** A target for the runner: where it points, and what to stop afterwards. */
type Target = { ws: string; http: string; close(): Promise<void> };

/** A hostile server on both transports. */
const alone = (start: () => Promise<Hostile>) => async (): Promise<Target> => {
  const h = await start();
  return { ws: h.wsUrl, http: h.httpUrl, close: () => h.close() };
};

/** A sandbox's WebSocket with a hostile HTTP server. */
const hostileHttp = (start: () => Promise<Hostile>) => async (): Promise<Target> => {
  const sandbox = await startSandbox({ port: 0 });
  const h = await start();
  return { ws: sandbox.wsUrl, http: h.httpUrl, close: async () => (await h.close(), await sandbox.close()) };
};

/** A sandbox behind a proxy that drops or rewrites answers. */
const dropping = (hooks: ProxyHooks) => async (): Promise<Target> => {
  const sandbox = await startSandbox({ port: 0 });
  const proxy = await startProxy(sandbox, hooks);
  return { ws: proxy.wsUrl, http: proxy.httpUrl, close: async () => (await proxy.close(), await sandbox.close()) };
};

/**
 * Hostile server → the checks that must not pass against it. `oneByOne`: a server that keeps no state
 * (each check against a fresh one proves what all against one does), whose every check waits out the
 * runner's window for an answer that never comes: each check runs against a server of its own, side by
 * side, rather than one window after another.
 */
const table: {
  name: string;
  start: () => Promise<Target>;
  mustNotPass: string[];
  orderFlow?: boolean;
  oneByOne?: boolean;
}[] = [
  {
    name: 'a WebSocket echo server',
    start: alone(echoServer),
    mustNotPass: ['framing.*', 'login.http-without-headers', 'login.http-stale'],
    oneByOne: true,
  },
  { name: 'a silent peer', start: alone(silentPeer), mustNotPass: FRAMING_ERRORS, oneByOne: true },
  {
    name: 'a garbage server',
    start: alone(garbageServer),
    mustNotPass: [...FRAMING_ERRORS, 'framing.id-echo-number', 'login.http-without-headers'],
    oneByOne: true,
  },
  {
    name: 'a server that refuses every request (a well-formed error for each)',
    start: alone(refuser),
    mustNotPass: [
      'login.stale-timestamp',
      'login.future-timestamp',
      'login.wrong-signature',
      'login.other-wallet-signature',
      'access.*',
      'login.http-without-headers',
      'login.http-stale',
      'framing.error-codes',
    ],
  },
  {
    name: 'a sandbox that refuses every subscribe',
    start: dropping(refusing('subscribe')),
    mustNotPass: [
      'subscriptions.parameter-enums-invalid',
      'access.private-before-login',
      'access.other-subaccount',
      'access.other-wallet',
    ],
  },
  {
    name: 'a sandbox that refuses every order',
    start: dropping(refusing('private/order')),
    orderFlow: true,
    mustNotPass: ['orderflow.action-signature', 'orderflow.order-accepted'],
  },
  {
    name: 'an HTTP server that answers 426 to everything',
    start: hostileHttp(upgradeRequired),
    mustNotPass: HTTP_LOGIN,
  },
  {
    name: 'a server that drops over-limit order requests silently',
    start: dropping(dropRefusals),
    orderFlow: true,
    mustNotPass: [
      'ratelimit.matching-shared',
      'ratelimit.cancel-all-budget',
      'ratelimit.cancel-by-label-budget',
      'ratelimit.instrument-bucket',
    ],
  },
  {
    name: 'a per-wallet order bucket that drops over-limit requests silently',
    start: dropping(dropOtherInstruments),
    orderFlow: true,
    mustNotPass: ['ratelimit.instrument-bucket'],
  },
];

const passed = (r: Report) => r.checks.filter((c) => c.status === 'pass').map((c) => c.id);
const seen: string[] = [];

// Concurrent: each row has its own servers on port 0, and most of a row's time is waiting out a
// hostile server's silence (the runner's per-answer bounds), not CPU.
describe.concurrent('hostile servers: no check passes without positive evidence', () => {
  afterAll(() => console.log(`hostile servers checked: ${seen.length}/${table.length + 2}`));

  /** The runner on a fresh target, only the checks `only` names. */
  async function runOn(row: (typeof table)[number], only: string[]): Promise<Report> {
    const target = await row.start();
    try {
      return await runConformance({
        ws: target.ws,
        http: target.http,
        key: Wallet.createRandom().privateKey,
        only,
        allowOrderFlow: row.orderFlow ?? false,
        sampleWindowMs: 1000,
      });
    } finally {
      await target.close();
    }
  }

  for (const row of table) {
    it(`${row.name}: ${row.mustNotPass.join(', ')} do not pass`, async ({ expect }) => {
      const ids = registry.map((c) => c.id).filter((id) => matchesPattern(id, row.mustNotPass));
      const reports = row.oneByOne
        ? await Promise.all(ids.map((id) => runOn(row, [id])))
        : [await runOn(row, row.mustNotPass)];
      const checks = reports.flatMap((r) => r.checks);
      expect(checks.map((c) => c.id).sort()).toEqual([...ids].sort());
      expect(reports.flatMap(passed)).toEqual([]);
      seen.push(row.name);
    }, 120_000);
  }

  it('an echo server: what came back is reported, not "nothing"', async () => {
    const echo = await echoServer();
    try {
      const report = await runConformance({ ws: echo.wsUrl, only: ['framing.id-echo-number'] });
      const got = report.checks[0]!.findings[0]!.got;
      expect(got).toMatch(/the request itself, echoed back: \{"jsonrpc":"2.0","id":4242/);
      expect(got).not.toMatch(/^nothing/);
    } finally {
      await echo.close();
    }
  }, 60_000);

  it(
    'a black hole (TCP accepted, no handshake) and a server refusing the upgrade ' + 'with 426: unreachable, exit 2',
    async () => {
      for (const start of [blackHole, upgradeRequired]) {
        const h = await start();
        try {
          // Given up on, not waited on: a runner that hangs here meets the test's own bound.
          await expect(runConformance({ ws: h.wsUrl, http: h.httpUrl })).rejects.toBeInstanceOf(UnreachableError);
          const err: string[] = [];
          expect(await runCli(['--ws', h.wsUrl], { out: () => undefined, err: (l) => err.push(l) }, {})).toBe(2);
          expect(err).toEqual([expect.stringMatching(/^exchange-api conformance: server unreachable: /)]);
          seen.push(start.name);
        } finally {
          await h.close();
        }
      }
    },
    60_000,
  );
});

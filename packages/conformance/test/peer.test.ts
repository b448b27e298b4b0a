/** The runner against small scripted loopback peers (no sandbox): id echo right and wrong, unreachable. */
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { runConformance, UnreachableError } from '../src/runner';
import { runCli } from '../src/cli';
import type { Check } from '../src/context';

let servers: WebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  servers = [];
});

/** A peer answering every request with an empty getRateLimits-like result; `mangle` may change the id. */
async function peer(mangle: (id: unknown) => unknown): Promise<string> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(wss);
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) =>
    ws.on('message', (raw) => {
      const m = JSON.parse(raw.toString()) as { id: unknown };
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: mangle(m.id), result: {} }));
    }),
  );
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v3/ws`;
}

/** A faithful peer that dies (drops every socket and stops listening) when its `dieAt`-th connection opens. */
async function dyingPeer(dieAt: number): Promise<string> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  let connections = 0;
  wss.on('connection', (ws) => {
    if (++connections >= dieAt) {
      for (const c of wss.clients) c.terminate();
      wss.close();
      return;
    }
    ws.on('message', (raw) => {
      const m = JSON.parse(raw.toString()) as { id: unknown };
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
    });
  });
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v3/ws`;
}

/**
 * A peer that answers only the discovery (getRateLimits, the instrument list) and never anything else,
 * recording when each connection opens and closes and how many were open at once.
 */
async function silentPeer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(wss);
  await new Promise((r) => wss.once('listening', r));
  const opened: number[] = [];
  let open = 0;
  let maxOpen = 0;
  wss.on('connection', (ws) => {
    opened.push(Date.now());
    maxOpen = Math.max(maxOpen, ++open);
    ws.on('close', () => open--);
    ws.on('message', (raw) => {
      const m = JSON.parse(raw.toString()) as { id: unknown; method: string };
      if (m.method === 'public/getRateLimits')
        ws.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            result: {
              remaining_connections: {
                remainingPoints: 1,
                consumedPoints: 1,
                msBeforeNext: 0,
                isFirstInDuration: false,
              },
            },
          }),
        );
      else if (m.method === 'public/get_all_live_instruments')
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: [] }));
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v3/ws`,
    opened,
    open: () => open,
    maxOpen: () => maxOpen,
  };
}

/** A check that keeps opening connections and waiting for answers that never come. */
const hanging = (id: string, stopped: { at: number | null }): Check => ({
  id,
  title: 'hangs',
  section: '-',
  level: 'MUST',
  needs: [],
  async run(ctx) {
    ctx.signal.addEventListener('abort', () => (stopped.at = Date.now()));
    for (;;) {
      const conn = await ctx.connect();
      await conn.request('conformance/never_answered', {}, { timeoutMs: 60_000 });
      // The sleep rejects once the run aborts; the next connect() then ends the check, which is what is timed.
      await ctx.sleep(50).catch(() => undefined);
    }
  },
});

describe('runner with scripted peers', () => {
  it(
    'stops a check at its time limit: no connection opens after it, the budget ' + 'holds, the next check runs after',
    async () => {
      const peer = await silentPeer();
      const first = { at: null as number | null };
      const second = { at: null as number | null };
      let secondStarted = 0;
      const report = await runConformance({
        ws: peer.url,
        checkTimeoutMs: 400,
        checks: [hanging('hang.first', first), hanging('hang.second', second)],
        onProgress: (e) => void (e.type === 'start' && e.index === 1 && (secondStarted = Date.now())),
      });
      expect(report.checks.map((c) => [c.id, c.status])).toEqual([
        ['hang.first', 'inconclusive'],
        ['hang.second', 'inconclusive'],
      ]);
      expect(report.checks[0]!.reason).toMatch(/did not finish within 400 ms/);
      expect(report.checks[0]!.findings).toEqual([]);
      expect(first.at).not.toBeNull();
      // Discovery, then one connection per check: none opened after a check was stopped but the next check's.
      await new Promise((r) => setTimeout(r, 300));
      // The second check's own connection may not have reached the peer before its 400 ms ran out on a
      // busy machine: two or three, never more.
      expect(peer.opened.length).toBeGreaterThanOrEqual(2);
      expect(peer.opened.length).toBeLessThanOrEqual(3);
      expect(secondStarted).toBeGreaterThanOrEqual(first.at!);
      expect(peer.opened.filter((t) => t >= first.at! && t < secondStarted)).toEqual([]);
      expect(peer.opened.filter((t) => t >= second.at!)).toEqual([]);
      // The per-IP budget the peer reported (2) was never exceeded, and everything is closed.
      expect(peer.maxOpen()).toBeLessThanOrEqual(2);
      expect(peer.open()).toBe(0);
    },
  );
});

describe('runner with scripted peers: id echo, needs, reachability', () => {
  it('passes id echo against a peer that echoes ids faithfully', async () => {
    const report = await runConformance({ ws: await peer((id) => id), only: ['framing.id-echo-*'] });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['framing.id-echo-string', 'pass'],
      ['framing.id-echo-number', 'pass'],
      ['framing.id-echo-null', 'pass'],
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('fails id echo with pointer, expected, got and a transcript when numbers come back as strings', async () => {
    const report = await runConformance({
      ws: await peer((id) => (typeof id === 'number' ? String(id) : id)),
      only: ['framing.id-echo-number'],
    });
    const c = report.checks[0]!;
    expect(c.status).toBe('fail');
    expect(c.findings[0]).toMatchObject({ pointer: '/id', expected: '4242 (number)', got: '"4242" (string)' });
    expect(c.transcript.some((e) => e.dir === 'sent' && e.data.includes('4242'))).toBe(true);
    expect(c.transcript.some((e) => e.dir === 'received' && e.data.includes('"4242"'))).toBe(true);
    expect(report.exitCode).toBe(1);
  });

  it('skips key-needing checks without a key, saying why', async () => {
    const report = await runConformance({ ws: await peer((id) => id), only: ['login.wallet', 'login.http-headers'] });
    expect(report.checks.map((c) => c.status)).toEqual(['skip', 'skip']);
    expect(report.checks[0]!.reason).toMatch(/--key/);
    expect(report.checks[1]!.reason).toMatch(/--http/);
  });

  it('a server that dies mid-run: reported as such, the later checks not run, exit 2', async () => {
    // Discovery is connection 1, the first check's is 2: the server dies as the second check connects.
    const report = await runConformance({ ws: await dyingPeer(3), only: ['framing.id-echo-*'] });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['framing.id-echo-string', 'pass'],
      ['framing.id-echo-number', 'inconclusive'],
      ['framing.id-echo-null', 'skip'],
    ]);
    expect(report.interrupted).toMatchObject({
      check: 'framing.id-echo-number',
      reason: expect.stringMatching(/cannot connect/),
    });
    expect(report.checks[1]!.reason).toMatch(/^the server stopped answering during this check/);
    expect(report.checks[2]!.reason).toBe('not run: the server stopped answering during framing.id-echo-number');
    expect(report.exitCode).toBe(2);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['--ws', await dyingPeer(3), '--only', 'framing.id-echo-*'],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      {},
    );
    expect(code).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(
        new RegExp(
          /^exchange-api conformance: the server stopped answering during /.source +
            /framing\.id-echo-number \(.+\); 1 check not run$/.source,
        ),
      ),
    ]);
  });

  it('throws UnreachableError when nothing listens', async () => {
    await expect(runConformance({ ws: 'ws://127.0.0.1:1/v3/ws' })).rejects.toBeInstanceOf(UnreachableError);
  });
});

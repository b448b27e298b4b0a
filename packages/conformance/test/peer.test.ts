/** The runner against small scripted loopback peers (no sandbox): id echo right and wrong, unreachable. */
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { runConformance, UnreachableError } from '../src/runner';

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

describe('runner with scripted peers', () => {
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
    const report = await runConformance({ ws: await peer((id) => (typeof id === 'number' ? String(id) : id)), only: ['framing.id-echo-number'] });
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

  it('throws UnreachableError when nothing listens', async () => {
    await expect(runConformance({ ws: 'ws://127.0.0.1:1/v3/ws' })).rejects.toBeInstanceOf(UnreachableError);
  });
});

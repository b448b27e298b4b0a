/**
 * A server that floods pushes for the life of every connection (issue 32, item 3: the runner once kept
 * every frame and died out of memory, 4.3 GB, with no report). A connection keeps only its latest frames
 * (a bounded count, the rest counted as dropped, said in its transcript), still sees the answer it waits
 * for, and a run against such a server finishes and writes its reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { WsConn } from '../src/connection';
import { FrameLog, MAX_KEPT_FRAMES } from '../src/frame-log';
import { Transcript } from '../src/transcript';
import { runCli } from '../src/cli';
import type { Report } from '../src/model';

const push = (n: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'subscription',
    params: { channel: 'flood', data: { n, pad: 'x'.repeat(200) } },
  });

/** Push without end, in batches, as fast as the socket drains (the server's own memory stays bounded). */
function flood(ws: WebSocket): void {
  let n = 0;
  const batch = () => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount < 256 * 1024) for (let i = 0; i < 200; i++) ws.send(push(n++));
    setImmediate(batch);
  };
  batch();
}

let wss: WebSocketServer;
let url = '';
beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (ws) => {
    ws.on('error', () => undefined);
    // Every request is answered (method not found), between the pushes.
    ws.on('message', (d) => {
      let id: unknown;
      try {
        id = (JSON.parse(String(d)) as { id?: unknown }).id ?? null;
      } catch {
        id = null;
      }
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }));
    });
    flood(ws);
  });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v3/ws`;
});
afterAll(async () => {
  for (const c of wss.clients) c.terminate();
  await new Promise<void>((r) => wss.close(() => r()));
});

describe('a server that floods pushes', () => {
  it('a connection keeps only its latest frames, counts the rest, and still sees the answer it waits for', async () => {
    const transcript = new Transcript(Date.now());
    const conn = await WsConn.open(url, transcript, 'flood#1');
    try {
      // Far more frames than are kept: wait for the one past three times the bound.
      const late = await conn.waitFor(() => true, 60_000, 3 * MAX_KEPT_FRAMES);
      expect(late?.index).toBeGreaterThanOrEqual(3 * MAX_KEPT_FRAMES);
      expect(conn.frames.keptCount).toBeLessThanOrEqual(MAX_KEPT_FRAMES);
      expect(conn.frames.dropped).toBeGreaterThanOrEqual(2 * MAX_KEPT_FRAMES);
      expect(conn.frames.first()!.index).toBe(conn.frames.dropped);
      const answer = await conn.request('public/get_time', {}, { timeoutMs: 30_000 });
      expect(answer?.response.error?.code).toBe(-32601);
      expect(conn.frames.keptCount).toBeLessThanOrEqual(MAX_KEPT_FRAMES);
    } finally {
      await conn.close();
    }
    expect(transcript.finish().map((e) => e.data)).toContainEqual(
      expect.stringMatching(/^received \d+ frames; the oldest \d+ were dropped from memory \(the last \d+ kept\)$/),
    );
  });

  it('a frame is looked for from a cursor on: none before it, none dropped', () => {
    const log = new FrameLog(3);
    for (let i = 0; i < 5; i++) log.push((index) => ({ index, t: 0, text: `f${i}`, json: i % 2, entry: null! }));
    expect(log.find(() => true)?.index).toBe(2);
    expect(log.find(() => true, 3)?.index).toBe(3);
    expect(log.find((f) => f.json === 0, 3)?.index).toBe(4);
    expect(log.find(() => true, 5)).toBeUndefined();
  });

  it('a run against it finishes and writes its reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flood-'));
    const json = join(dir, 'report.json');
    const io = { out: () => undefined, err: () => undefined };
    const argv = ['--ws', url, '--only', 'framing,subscriptions.subscribe', '--check-timeout', '5000'];
    const code = await runCli([...argv, '--report', `json:${json}`], io, {});
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.exitCode).toBe(code);
    expect(report.checks.length).toBeGreaterThanOrEqual(9);
    // Nothing it got passes for evidence it is not (a refusal of every method proves nothing).
    expect(report.checks.find((c) => c.id === 'subscriptions.subscribe')?.status).not.toBe('pass');
  });
});

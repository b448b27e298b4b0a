/**
 * `exchange-api mock` as a user runs it (from its sources, in its own process): the first line, the
 * channels served at their addresses, a stop on SIGTERM with exit 0, and the refusals (no --spec, a
 * JSON-RPC spec) with exit 2 (docs/mock.md).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { built, root, runBuilt } from './run-cli';

const kraken = join(root, 'test', 'sdk', 'fixtures', 'public', 'kraken-message-filter.asyncapi.yaml');

describe('exchange-api mock', () => {
  it('prints "mock listening ws://HOST:PORT" first, serves the spec, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [...built, 'mock', '--spec', kraken, '--seed', '3'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const first = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.on('close', () => reject(new Error(`exited before its first line: ${out}`)));
      });
      expect(first).toMatch(/^mock listening ws:\/\/127\.0\.0\.1:[0-9]+$/);
      const ws = new WebSocket(`${first.split(' ')[2]}/`);
      const frames: unknown[] = [];
      const pong = new Promise<unknown>((resolve) =>
        ws.on('message', (raw) => {
          const m = JSON.parse(String(raw)) as { event: string };
          frames.push(m);
          if (m.event === 'pong') resolve(m);
        }),
      );
      ws.on('open', () => ws.send(JSON.stringify({ event: 'ping', reqid: 41 })));
      expect(await pong).toMatchObject({ event: 'pong', reqid: 41 });
      // Pushed on connect: a heartbeat and a system status (the two receive operations).
      expect(frames.map((f) => (f as { event: string }).event)).toEqual(
        expect.arrayContaining(['heartbeat', 'systemStatus']),
      );
      ws.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('an AsyncAPI 2.6.0 spec: a line on stderr says it was converted, then it is served as 3.0.0', async () => {
    const gemini2 = join(root, 'test', 'sdk', 'fixtures', 'public', 'gemini-2.6.asyncapi.yaml');
    const child = spawn(process.execPath, [...built, 'mock', '--spec', gemini2], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      let out = '';
      let err = '';
      // Both lines, whichever pipe is read first.
      await new Promise<void>((resolve, reject) => {
        const check = () => out.includes('\n') && err.includes('\n') && resolve();
        child.stdout.on('data', (d) => ((out += d), check()));
        child.stderr.on('data', (d) => ((err += d), check()));
        child.on('close', () => reject(new Error(`exited early: ${out}${err}`)));
      });
      expect(err.split('\n')[0]).toBe(
        `converted AsyncAPI 2.6.0 to 3.0.0 (${gemini2}); ` + 'places in it are named in the converted document',
      );
      const url = out.split('\n')[0]!.split(' ')[2]!;
      const ws = new WebSocket(`${url}/v1/marketdata/btcusd`);
      const first = await new Promise<{ type: string }>((resolve) =>
        ws.once('message', (raw) => resolve(JSON.parse(String(raw)) as { type: string })),
      );
      expect(['update', 'heartbeat']).toContain(first.type);
      ws.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('refuses a spec that speaks JSON-RPC, and a missing --spec, with one line and exit 2', async () => {
    const weather = join(root, 'test', 'sdk', 'fixtures', 'weather.asyncapi.yaml');
    const r = await runBuilt(['mock', '--spec', weather]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^exchange-api mock: Weather .* speaks JSON-RPC frames, not its own messages/);
    const none = await runBuilt(['mock']);
    expect([none.status, none.stderr.trim()]).toEqual([2, 'exchange-api mock: --spec <file> is required']);
  });
});

/**
 * `exchange-api mock` as a user runs it (the built command, in its own process): the first lines (the
 * control endpoint's second with --control), the channels served at their addresses, pushes on the
 * subscription, a stop on SIGTERM with exit 0, and the refusals (no --spec, a JSON-RPC spec, a bad
 * --interval) with exit 2 (docs/mock.md).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { built, root, runBuilt } from './run-cli';

const kraken = join(root, 'test', 'sdk', 'fixtures', 'public', 'kraken-message-filter.asyncapi.yaml');

describe('exchange-api mock', () => {
  it('prints "mock listening ws://HOST:PORT" first, serves the spec, and exits 0 on SIGTERM', async () => {
    const args = ['mock', '--spec', kraken, '--seed', '3', '--interval', '50', '--control'];
    const child = spawn(process.execPath, [...built, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const [first, second] = await new Promise<string[]>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.split('\n').length > 2) resolve(out.split('\n'));
        });
        child.on('close', () => reject(new Error(`exited before its first lines: ${out}`)));
      });
      expect(first).toMatch(/^mock listening ws:\/\/127\.0\.0\.1:[0-9]+$/);
      expect(second).toMatch(/^mock control http:\/\/127\.0\.0\.1:[0-9]+$/);
      const ws = new WebSocket(`${first!.split(' ')[2]}/`);
      const frames: Array<{ event: string }> = [];
      const seen = (event: string) =>
        new Promise<void>((resolve) =>
          ws.on('message', (raw) => {
            frames.push(JSON.parse(String(raw)) as { event: string });
            if (frames.at(-1)!.event === event) resolve();
          }),
        );
      const pong = seen('pong');
      ws.on('open', () => {
        ws.send(JSON.stringify({ event: 'subscribe', reqid: 40, subscription: { name: 'ticker' } }));
        ws.send(JSON.stringify({ event: 'ping', reqid: 41 }));
      });
      await pong;
      // Pushed on the subscription, right after its reply (one of two messages): a heartbeat and a system status.
      expect(['subscriptionStatus', 'currencyInfo']).toContain(frames[0]!.event);
      expect(frames.slice(1, 3).map((f) => f.event)).toEqual(expect.arrayContaining(['heartbeat', 'systemStatus']));
      const pushed = seen('systemStatus');
      const res = await fetch(`${second!.split(' ')[2]}/push`, {
        method: 'POST',
        body: JSON.stringify({ operation: 'systemStatus' }),
      });
      expect(((await res.json()) as { pushed: number }).pushed).toBe(1);
      await pushed;
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
    const fast = await runBuilt(['mock', '--spec', kraken, '--interval', '5']);
    expect([fast.status, fast.stderr.trim()]).toEqual([
      2,
      'exchange-api mock: --interval must be a whole number of milliseconds from 10 to 3600000 (got "5")',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { signLogin } from '@exchange-api/auth';
import { exitWithin, listening, runSandbox as run } from './processes';

/** A port held open by this test process for the duration of `body`. */
async function withTakenPort<T>(body: (port: number) => Promise<T>): Promise<T> {
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  try {
    return await body((holder.address() as { port: number }).port);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
}

// Each run starts a fresh node process on a loaded machine, so the bounds are wide.
describe('exchange-api sandbox', { timeout: 120_000 }, () => {
  it('prints the listening line first, serves, and exits 0 on SIGTERM', async () => {
    const r = run(['--port', '0', '--seed', '3']);
    const first = await r.firstLine;
    const urls = listening(first);
    expect(urls, first).not.toBeNull();
    const ws = new WebSocket(urls!.ws);
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'public/get_all_live_instruments', params: {} }));
    const reply = JSON.parse(String(await new Promise((resolve) => ws.once('message', resolve))));
    expect(reply.id).toBe(1);
    expect((await fetch(`${urls!.http}/control/connections`)).status).toBe(404);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    ws.terminate();
  });

  it('exits 2 with one line on stderr for unknown flags and bad values', async () => {
    const runs = [
      ['--bogus'],
      ['--port', 'x'],
      ['--seed', '1.5'],
      ['--config', '/nonexistent.json'],
      ['--detached=yes'],
    ].map(run);
    for (const r of runs) {
      expect(await r.exited).toBe(2);
      expect(r.stderr().trim().split('\n')).toHaveLength(1);
    }
  });

  it('exits 1 with one line on stderr when it cannot start (port in use, unknown host), without hanging', async () => {
    await withTakenPort(async (port) => {
      const r = run(['--port', String(port)]);
      expect(await exitWithin(r, 60_000)).toBe(1);
      const lines = r.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/cannot start: .*EADDRINUSE/);
    });
    const r = run(['--host', 'no.such.host.invalid']);
    expect(await exitWithin(r, 60_000)).toBe(1);
    expect(r.stderr().trim().split('\n')).toHaveLength(1);
    expect(r.stderr()).toMatch(/cannot start: /);
  });

  it('names the config file and the key of a bad config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-config-'));
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const cases: Array<[string, RegExp]> = [
      [file('array.json', '[1, 2]'), /array\.json: the top level must be a JSON object \(got an array\)/],
      [file('null.json', 'null'), /null\.json: the top level must be a JSON object \(got null\)/],
      [
        file('key.json', '{"limits": {"matching": {"points": 0}}}'),
        /key\.json: limits\.matching\.points: must be at least 1/,
      ],
      [file('unknown.json', '{"colour": 1}'), /unknown\.json: colour: unknown key/],
      [file('broken.json', '{oops'), /broken\.json: not JSON/],
      [file('known.json', '{"knownWalletsOnly": 1}'), /known\.json: knownWalletsOnly: must be a boolean/],
    ];
    const runs = cases.map(([path]) => run(['--config', path]));
    for (let i = 0; i < cases.length; i++) {
      expect(await runs[i]!.exited).toBe(2);
      const lines = runs[i]!.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(cases[i]![1]);
    }
  });

  it('--known-wallets-only refuses a wallet the config does not name; --help names both new flags', async () => {
    const help = run(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout()).toMatch(/--known-wallets-only +refuse login by wallets the config does not name/);
    expect(help.stdout()).toMatch(/--detached +keep serving when the launcher exits/);
    const r = run(['--port', '0', '--known-wallets-only']);
    const urls = listening(await r.firstLine);
    const w = Wallet.createRandom();
    const res = await fetch(`${urls!.http}/v3/private/get_subaccounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await signLogin(w)),
    });
    expect([res.status, (await res.json()).error?.data]).toEqual([403, expect.stringContaining('knownWalletsOnly')]);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });
});

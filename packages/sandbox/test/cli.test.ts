import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bin = join(root, 'packages', 'cli', 'bin', 'exchange-api.js');

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

/** Exit code within ms, or 'hung' (and the child is killed). */
async function exitWithin(r: ReturnType<typeof run>, ms: number): Promise<number | null | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  const code = await Promise.race([r.exited, hung]);
  clearTimeout(timer);
  if (code === 'hung') r.child.kill('SIGKILL');
  return code;
}

function run(args: string[]) {
  const child = spawn(process.execPath, [bin, 'sandbox', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  return { child, exited, stderr: () => stderr };
}

describe('exchange-api sandbox', () => {
  it('prints the listening line first, serves, and exits 0 on SIGTERM', async () => {
    const { child, exited } = run(['--port', '0', '--seed', '3']);
    const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    const m = /^sandbox listening (ws:\/\/127\.0\.0\.1:([0-9]+)\/v3\/ws) (http:\/\/127\.0\.0\.1:([0-9]+))$/.exec(first);
    expect(m, first).not.toBeNull();
    expect(m![2]).toBe(m![4]);
    const ws = new WebSocket(m![1]!);
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'public/get_all_live_instruments', params: {} }));
    const reply = JSON.parse(String(await new Promise((r) => ws.once('message', r))));
    expect(reply.id).toBe(1);
    expect((await fetch(`${m![3]}/control/connections`)).status).toBe(404);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    ws.terminate();
  });

  it('exits 2 with one line on stderr for unknown flags and bad values', async () => {
    const runs = [['--bogus'], ['--port', 'x'], ['--seed', '1.5'], ['--config', '/nonexistent.json']].map(run);
    for (const { exited, stderr } of runs) {
      expect(await exited).toBe(2);
      expect(stderr().trim().split('\n')).toHaveLength(1);
    }
  });

  it('exits 1 with one line on stderr when it cannot start (port in use, unknown host), without hanging', async () => {
    await withTakenPort(async (port) => {
      const r = run(['--port', String(port)]);
      expect(await exitWithin(r, 8000)).toBe(1);
      const lines = r.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/cannot start: .*EADDRINUSE/);
    });
    const r = run(['--host', 'no.such.host.invalid']);
    expect(await exitWithin(r, 15000)).toBe(1);
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
      [file('key.json', '{"limits": {"matching": {"points": 0}}}'), /key\.json: limits\.matching\.points: must be at least 1/],
      [file('unknown.json', '{"colour": 1}'), /unknown\.json: colour: unknown key/],
      [file('broken.json', '{oops'), /broken\.json: not JSON/],
    ];
    const runs = cases.map(([path]) => run(['--config', path]));
    for (let i = 0; i < cases.length; i++) {
      expect(await runs[i]!.exited).toBe(2);
      const lines = runs[i]!.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(cases[i]![1]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bin = join(root, 'packages', 'cli', 'bin', 'exchange-api.js');

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
});

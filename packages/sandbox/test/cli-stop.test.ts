/**
 * How `exchange-api sandbox` stops: with its launcher (said on stderr), not with it under --detached,
 * and on SIGTERM within a bound while it is busy. Every process runs in its own group, killed after
 * each test as a last resort (processes.ts).
 */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { channelTable, fillAddress } from '@exchange-api/types';
import { defaultInstruments } from '../src/index';
import { builtCommand, groupGone, killGroup, listening, runSandbox, spawnGroup } from './processes';
import { rawHttp, silentPeer, within } from './peers';

/**
 * A launcher like npx: it starts the sandbox (directly, or through `sh -c '…; true'` so that the shell
 * stays in between), then idles until killed, passing no signal on.
 */
const LAUNCHER = `
const { spawn } = require('node:child_process');
const [viaShell, ...cmd] = JSON.parse(process.argv[1]);
const q = (a) => "'" + a.replace(/'/g, "'\\\\''") + "'";
if (viaShell) spawn('sh', ['-c', cmd.map(q).join(' ') + '; true'], { stdio: 'inherit' });
else spawn(cmd[0], cmd.slice(1), { stdio: 'inherit' });
setInterval(() => {}, 1 << 30);
`;

function launch(viaShell: boolean, args: string[]) {
  return spawnGroup([
    '-e',
    LAUNCHER,
    JSON.stringify([viaShell, process.execPath, ...builtCommand, 'sandbox', ...args]),
  ]);
}

/** A launcher that starts the command and exits at once, without waiting for it. */
const LAUNCH_AND_EXIT = `
const { spawn } = require('node:child_process');
const cmd = JSON.parse(process.argv[1]);
spawn(cmd[0], cmd.slice(1), { stdio: 'inherit' });
process.exit(0);
`;

/** Resolves once the socket has an answer to a request (a frame with an id); listen before sending it. */
const answered = (ws: WebSocket) =>
  new Promise<void>((resolve) => {
    const onMessage = (data: unknown) => {
      if (!/^\{"jsonrpc":"2\.0","id":/.test(String(data))) return;
      ws.off('message', onMessage);
      resolve();
    };
    ws.on('message', onMessage);
  });

const serves = (httpUrl: string) =>
  fetch(`${httpUrl}/v3/public/getRateLimits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  }).then(
    (res) => res.status === 200,
    () => false,
  );

const stopLine = (pid: number) =>
  new RegExp(
    `^exchange-api sandbox: stopping: its launcher \\(pid ${pid}\\) exited; run ` +
      `with --detached to keep serving without it$`,
    'm',
  );

/** Every public address the default market serves, for clients that subscribe to everything. */
function publicAddresses(): string[] {
  const values: Record<string, string[]> = {
    instrument_name: defaultInstruments.map((i) => i.instrument_name),
    currency: [...new Set(defaultInstruments.map((i) => i.base_currency))],
  };
  const out: string[] = [];
  for (const ch of channelTable.filter((c) => c.access === 'public')) {
    let combos: Array<Record<string, string>> = [{}];
    for (const p of ch.parameters) {
      const options = (p as { enum?: readonly string[] | null }).enum ?? values[p.name] ?? [];
      combos = combos.flatMap((c) => options.map((v) => ({ ...c, [p.name]: String(v) })));
    }
    out.push(...combos.map((c) => fillAddress(ch.address, c)));
  }
  return out;
}

// Each run starts fresh node processes, several seconds each on a loaded machine, so the bounds are wide:
// they stop a hang, they do not judge speed.
describe('stopping the command-line sandbox', { timeout: 240_000 }, () => {
  it('behind a shell, stops when its launcher dies without passing a signal on (as npx may), saying why', async () => {
    const r = launch(true, ['--port', '0']);
    const urls = listening(await r.firstLine);
    expect(urls).not.toBeNull();
    expect(await serves(urls!.http)).toBe(true);
    process.kill(r.pgid, 'SIGKILL'); // the launcher only: the shell and the sandbox live on
    expect(await groupGone(r.pgid, 90_000), 'the sandbox and its shell exited').toBe(true);
    await within(r.outputEnded, 5_000);
    expect(r.stderr()).toMatch(stopLine(r.pgid));
    expect(r.stderr().trim().split('\n')).toHaveLength(1);
    expect(await serves(urls!.http)).toBe(false);
  });

  it('started by a script that exits, stops and says why on stderr', async () => {
    const r = launch(false, ['--port', '0']);
    const urls = listening(await r.firstLine);
    process.kill(r.pgid, 'SIGKILL');
    expect(await groupGone(r.pgid, 90_000)).toBe(true);
    await within(r.outputEnded, 5_000);
    expect(r.stderr()).toMatch(stopLine(r.pgid));
    expect(await serves(urls!.http)).toBe(false);
  });

  it('started by a launcher that exits at once, does not serve orphaned: says so and exits', async () => {
    // The launcher is gone long before the command has loaded its modules (about a second).
    const r = spawnGroup([
      '-e',
      LAUNCH_AND_EXIT,
      JSON.stringify([process.execPath, ...builtCommand, 'sandbox', '--port', '0']),
    ]);
    expect(await within(r.outputEnded, 90_000), 'the sandbox exited by itself').not.toBe('timeout');
    expect(await groupGone(r.pgid, 5_000)).toBe(true);
    expect(r.stderr()).toMatch(
      /^exchange-api sandbox: not starting: its (parent is init \(pid 1\)|launcher \(pid [0-9]+\) exited before it started).*; run with --detached to serve without it$/m,
    );
    expect(r.stdout()).not.toMatch(/listening/);
  });

  it('--detached keeps serving after its launcher exits, and stops on SIGTERM', async () => {
    const r = launch(false, ['--port', '0', '--detached']);
    // A twin without --detached, whose stop marks the moment a launcher watch has seen its launcher go.
    const twin = launch(false, ['--port', '0']);
    const urls = listening(await r.firstLine);
    expect(listening(await twin.firstLine)).not.toBeNull();
    process.kill(r.pgid, 'SIGKILL');
    process.kill(twin.pgid, 'SIGKILL');
    expect(await groupGone(twin.pgid, 90_000), 'the twin stopped with its launcher').toBe(true);
    expect(await serves(urls!.http)).toBe(true);
    expect(r.stderr()).toBe('');
    killGroup(r.pgid, 'SIGTERM');
    expect(await groupGone(r.pgid, 90_000)).toBe(true);
    expect(await serves(urls!.http)).toBe(false);
  });

  it(
    'on SIGTERM, closes and exits 0 within its bound while busy: full subscribers, ' +
      'a stalled reader, silent peers, unfinished bodies',
    async () => {
      const r = runSandbox(['--port', '0', '--config', 'packages/sandbox/test/fixtures/busy.json']);
      const urls = listening(await r.firstLine);
      expect(urls).not.toBeNull();
      const addresses = publicAddresses();
      const replies: Promise<void>[] = [];
      const sockets: WebSocket[] = [];
      for (let ip = 2; ip < 12; ip++) {
        for (let k = 0; k < 4; k++) {
          const ws = new WebSocket(urls!.ws, { localAddress: `127.0.0.${ip}` });
          sockets.push(ws);
          ws.on('error', () => {});
          await new Promise((resolve) => ws.once('open', resolve));
          replies.push(answered(ws));
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { channels: addresses } }));
        }
      }
      // One reader stops reading altogether; two peers go silent; two HTTP bodies never finish.
      (sockets[0] as unknown as { _socket: { pause(): void } })._socket.pause();
      await Promise.all([silentPeer(urls!.ws, '127.0.0.20'), silentPeer(urls!.ws, '127.0.0.20')]);
      const head =
        'POST /v3/public/getRateLimits HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ' +
        '1000\r\n\r\n';
      await Promise.all([rawHttp(urls!.http, head, '{"a":'), rawHttp(urls!.http, head, '{"b":')]);
      // Busy: every reader but the stalled one has its subscriptions answered, and pushes flow.
      await Promise.all(replies.slice(1));
      const t0 = Date.now();
      r.child.kill('SIGTERM');
      const code = await r.exited;
      const took = Date.now() - t0;
      for (const ws of sockets) ws.terminate();
      expect(code).toBe(0);
      expect(r.stderr()).toBe('');
      // The command's own bound is 3 s; this only tells a bounded stop from one that waits on the stalled
      // reader (which would meet the test's 2-minute bound), so it is wide enough for a loaded machine.
      expect(took).toBeLessThan(60_000);
      expect(await serves(urls!.http)).toBe(false);
    },
  );
});

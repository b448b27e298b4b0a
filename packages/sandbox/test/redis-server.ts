/**
 * A redis-server of a test's own: on a unix socket in a temp dir of its own (never a shared one), ready
 * once it says "Ready to accept connections", stopped by the test. `hasRedisServer` tells whether the
 * machine has one (CI installs it: .ci/run); tests skip with the reason when it does not.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer } from 'node:net';

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
export const NO_REDIS = 'redis-server is not installed (apt-get install redis-server; .ci/run installs it)';

/** A running redis-server. */
export interface RedisServer {
  /** The socket path, which is also what `redis` takes. */
  url: string;
  /** With a password: `redis://:PASSWORD@127.0.0.1:PORT` (a free port), as a machine across a network uses it. */
  tcpUrl: string | null;
  child: ChildProcess;
  /** Stop it (SIGKILL: as if the machine lost it) and wait for the exit. */
  kill(): Promise<void>;
  /** Start it again on the same socket (empty: nothing is saved). */
  restart(): Promise<void>;
  /** Stop it and remove its directory. */
  stop(): Promise<void>;
}

/** Server options: a password (`requirepass`) and a TCP port, or neither. */
interface Secured {
  password: string;
  port: number;
}

function launch(socket: string, dir: string, secured: Secured | null): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      ...(secured ? ['--requirepass', secured.password, '--bind', '127.0.0.1'] : []),
      '--port',
      String(secured?.port ?? 0),
      '--unixsocket',
      socket,
      '--unixsocketperm',
      '700',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (/ready to accept connections/i.test(out)) resolve(child);
    });
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited ${code} before it was ready: ${out.slice(-400)}`)),
    );
  });
}

async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** A port nobody listens on right now (the kernel's choice). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Start a redis-server of the test's own; with `password`, it requires it and listens on a free TCP port too. */
export async function startRedis(password?: string): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'xsb-redis-'));
  const socket = join(dir, 'redis.sock');
  const secured = password === undefined ? null : { password, port: await freePort() };
  const server: RedisServer = {
    url: socket,
    tcpUrl: secured && `redis://:${encodeURIComponent(secured.password)}@127.0.0.1:${secured.port}`,
    child: await launch(socket, dir, secured),
    kill: () => end(server.child),
    restart: async () => {
      server.child = await launch(socket, dir, secured);
    },
    stop: async () => {
      await end(server.child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

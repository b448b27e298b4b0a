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

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
export const NO_REDIS = 'redis-server is not installed (apt-get install redis-server; .ci/run installs it)';

/** A running redis-server. */
export interface RedisServer {
  /** The socket path, which is also what `redis` takes. */
  url: string;
  child: ChildProcess;
  /** Stop it (SIGKILL: as if the machine lost it) and wait for the exit. */
  kill(): Promise<void>;
  /** Start it again on the same socket (empty: nothing is saved). */
  restart(): Promise<void>;
  /** Stop it and remove its directory. */
  stop(): Promise<void>;
}

function launch(socket: string, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      '0',
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

/** Start a redis-server of the test's own. */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'xsb-redis-'));
  const socket = join(dir, 'redis.sock');
  const server: RedisServer = {
    url: socket,
    child: await launch(socket, dir),
    kill: () => end(server.child),
    restart: async () => {
      server.child = await launch(socket, dir);
    },
    stop: async () => {
      await end(server.child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

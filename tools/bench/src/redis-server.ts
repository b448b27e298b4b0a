/**
 * A redis-server of the benchmark's own, as packages/sandbox/test/redis-server.ts starts one for a test:
 * on a unix socket in a temp dir of its own (never a shared one, no TCP port), nothing saved, ready once
 * it says so, stopped (and its dir removed) by the benchmark in a finally. Debian's redis-server will do.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running redis-server: `url` (its socket path) is what `--redis` and `startSandbox({ redis })` take. */
export interface RedisServer {
  url: string;
  /** Its temp dir, where a benchmark may put files of its own (removed by stop). */
  dir: string;
  stop(): Promise<void>;
}

/** Whether the machine has a redis-server; a benchmark that needs one says so in its line when not. */
export const hasRedisServer = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-redis-'));
  const url = join(dir, 'redis.sock');
  const args = ['--port', '0', '--unixsocket', url, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', [...args, '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  // A benchmark that exits (run.ts turns SIGINT and SIGTERM into an exit) takes its redis-server along.
  const onExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready(child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, dir, stop };
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server not ready within 10 s: ${out.slice(-300)}`)), 10_000);
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (!/ready to accept connections/i.test(out)) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`redis-server exited ${code}: ${out}`))));
  });
}

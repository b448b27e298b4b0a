/**
 * A Redis Cluster of a test's own: three masters (no replicas) of Debian's redis-server on loopback,
 * in a temp dir of its own. A cluster node needs a TCP port and a bus port (no `--port 0`), so both are
 * free ports the kernel picked a moment before. `redis-cli --cluster create` gives each master a third
 * of the slots and introduces them; the cluster is ready once every node says `cluster_state:ok`.
 * `stop()` kills every node and waits for each exit: no process is left behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { hasRedisServer } from './redis-server';

/** Whether the machine can run a cluster (redis-server and its redis-cli). */
export const hasRedisCluster = hasRedisServer && spawnSync('redis-cli', ['--version']).status === 0;
export const NO_REDIS_CLUSTER =
  'redis-server or redis-cli is not installed (apt-get install redis-server; .ci/run installs it)';

/** How long the cluster may take to agree on its slots before the helper gives up. */
const READY_MS = 20_000;

/** A running cluster. */
export interface RedisCluster {
  /** `127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3`: what `redisCluster` takes (with the password, if any). */
  seeds: string;
  /** The masters' ports. */
  ports: number[];
  /** Send a command to every master (`FLUSHALL` between tests, `DBSIZE`…); their answers in port order. */
  each(...command: string[]): string[];
  /** Send a command to the cluster (redis-cli -c: to the master of its key's slot); its answer. */
  command(...command: string[]): string;
  /** Stop every node and remove the directory. */
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the kernel's choice). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function launch(dir: string, port: number, busPort: number, password: string | undefined): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      ...(password === undefined ? [] : ['--requirepass', password, '--masterauth', password]),
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--cluster-enabled',
      'yes',
      '--cluster-port',
      String(busPort),
      '--cluster-config-file',
      join(dir, `nodes-${port}.conf`),
      '--cluster-node-timeout',
      '5000',
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
      reject(new Error(`redis-server on ${port} exited ${code} before it was ready: ${out.slice(-400)}`)),
    );
  });
}

async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Start a three-master cluster; with `password`, every node requires it (and the seeds carry it). */
/**
 * A node on ports free a moment ago: another process may take one between the probe and the bind (seen
 * once in CI, "Address already in use"), so such a start is tried again on new ports, a bounded number of
 * times; any other failure is thrown at once.
 */
async function launchOnFreePorts(dir: string, password?: string): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const [port, bus] = [await freePort(), await freePort()];
    try {
      return { port, child: await launch(dir, port, bus, password) };
    } catch (err) {
      if (attempt >= 5 || !/Address already in use/.test((err as Error).message)) throw err;
    }
  }
}

export async function startRedisCluster(password?: string): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'xsb-cluster-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(end));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { port, child } = await launchOnFreePorts(dir, password);
      ports.push(port);
      children.push(child);
    }
    const auth = password === undefined ? [] : ['--no-auth-warning', '-a', password];
    const cli = (args: string[]) => {
      const r = spawnSync('redis-cli', [...auth, ...args], { encoding: 'utf8', timeout: READY_MS });
      if (r.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${r.error?.message ?? r.stderr ?? r.stdout}`);
      return r.stdout;
    };
    cli(['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-yes']);
    // The nodes learn of each other over the bus after create returns: bounded, and looked at every 50 ms.
    const deadline = Date.now() + READY_MS;
    while (!ports.every((p) => /cluster_state:ok/.test(cli(['-p', String(p), 'cluster', 'info'])))) {
      if (Date.now() > deadline) throw new Error(`the cluster on ${ports.join(', ')} was not ok within ${READY_MS} ms`);
      await sleep(50);
    }
    const userinfo = password === undefined ? '' : `redis://:${encodeURIComponent(password)}@`;
    return {
      seeds: ports.map((p) => `${userinfo}127.0.0.1:${p}`).join(','),
      ports,
      each: (...command) => ports.map((p) => cli(['-p', String(p), ...command]).trim()),
      command: (...command) => cli(['-c', '-p', String(ports[0]), ...command]).trim(),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * `exchange-api sandbox --redis <url> --workers <n>` (or `--redis-cluster <seeds>`): n sandbox processes
 * on one port of one machine (node:cluster: the primary holds the port and hands connections to the
 * workers in turn), acting as one exchange through Redis. The primary serves nothing itself: it checks
 * Redis once (so that an unreachable one is one line and exit 2), starts the workers, prints the
 * listening line once every worker listens, starts a new worker when one dies (its books move to the
 * others meanwhile), and stops them all on SIGINT/SIGTERM or when its launcher exits.
 */
import cluster, { type Worker } from 'node:cluster';
import { probeRedis, probeRedisCluster, redactRedisSeeds, redactRedisUrl, type Sandbox } from '@exchange-api/sandbox';
import type { Io } from '../args';

/** The workers are given this long to close, beyond their own close bound; then they are killed. */
const WORKERS_CLOSE_MS = 4000;

interface Listening {
  type: 'exchange-api:listening';
  wsUrl: string;
  httpUrl: string;
  controlUrl: string | null;
  /** The worker's member id in the fleet, and the books it owns as it starts. */
  member: string | null;
  owned: string[];
}

/** What the primary sends a worker to stop it (a signal could be its second: the terminal's Ctrl-C reaches it too). */
export const STOP_MESSAGE = 'exchange-api:stop';

/** The fleet's Redis as given: one server (`--redis <url>`) or a cluster (`--redis-cluster <seeds>`). */
export interface FleetRedis {
  flag: 'redis' | 'redis-cluster';
  value: string;
}

/**
 * The Redis URL (or cluster seeds) a worker is given: in its environment, never on its command line,
 * where `ps` shows a password to anyone on the machine (the workers' command lines carry `***` for it).
 */
const WORKER_ENV = {
  redis: 'EXCHANGE_API_SANDBOX_WORKER_REDIS',
  'redis-cluster': 'EXCHANGE_API_SANDBOX_WORKER_REDIS_CLUSTER',
};

/** The Redis of a worker (from its primary), or `given` when it was not given one. */
export function workerRedis(given: FleetRedis): FleetRedis {
  return { ...given, value: (isWorker() && process.env[WORKER_ENV[given.flag]]) || given.value };
}

/** The Redis as it may be printed: passwords replaced by `***`. */
export function shownRedis(redis: FleetRedis): string {
  return redis.flag === 'redis' ? redactRedisUrl(redis.value) : redactRedisSeeds(redis.value);
}

/** A command line with the Redis URL's (or seeds') passwords replaced by `***` (for `ps`). */
export function redactedArgs(args: readonly string[], redis: FleetRedis): string[] {
  const shown = shownRedis(redis);
  const joined = `--${redis.flag}=`;
  return args.map((a) => (a === redis.value ? shown : a === joined + redis.value ? joined + shown : a));
}

/** Whether this process is a worker of `--workers`. */
export function isWorker(): boolean {
  return cluster.isWorker;
}

/** A worker tells the primary where it listens (the primary prints the line, once). */
export function reportListening(sandbox: Sandbox): void {
  const m: Listening = {
    type: 'exchange-api:listening',
    wsUrl: sandbox.wsUrl,
    httpUrl: sandbox.httpUrl,
    controlUrl: sandbox.controlUrl,
    member: sandbox.fleet?.member ?? null,
    owned: sandbox.fleet?.owned() ?? [],
  };
  process.send?.(m);
}

/** The books a member owns, said in a few words (owners change as members join and leave). */
const books = (owned: readonly string[]) =>
  owned.length === 0 ? 'no book yet' : `the books of ${owned.join(', ')} for now`;

/**
 * What a fleet member prints after its listening line: which member it is, on which Redis (its
 * password hidden), and what it owns; a fleet of one process says that every sandbox started with the
 * same Redis URL joins it.
 */
export function fleetLines(
  redis: FleetRedis,
  members: ReadonlyArray<{ pid: number | undefined; member: string | null; owned: readonly string[] }>,
): string[] {
  const shown = `${redis.flag === 'redis' ? 'Redis' : 'Redis Cluster'} ${shownRedis(redis)}`;
  const head =
    members.length === 1 && members[0]!.pid === undefined
      ? `fleet member ${members[0]!.member ?? '?'} on ${shown}, owning ${books(members[0]!.owned)}`
      : `fleet of ${members.length} workers on this port, on ${shown}:`;
  const each =
    members.length === 1 && members[0]!.pid === undefined
      ? []
      : members.map((m) => `  worker ${m.pid}: member ${m.member ?? '?'}, owning ${books(m.owned)}`);
  return [
    head,
    ...each,
    `  every sandbox started with this ${redis.flag === 'redis' ? 'Redis URL' : 'cluster'} joins this exchange; ` +
      'books move between members as they join and',
    '  leave (docs/sandbox.md, "One exchange across many processes and machines"; what stays in Redis after: there)',
  ];
}

/** Watches the launcher; calls back with the pid of one that exited. */
export type LauncherWatch = (gone: (pid: number) => void) => NodeJS.Timeout;

/** Run the primary: resolves with the exit code once every worker has stopped. */
export async function runWorkers(n: number, redis: FleetRedis, io: Io, watch: LauncherWatch | null): Promise<number> {
  try {
    await (redis.flag === 'redis' ? probeRedis(redis.value) : probeRedisCluster(redis.value));
  } catch (err) {
    io.err(`exchange-api sandbox: ${(err as Error).message}`);
    return 2;
  }
  return new Promise<number>((resolve) => {
    const listening = new Map<Worker, Listening>();
    let stopping = false;
    let started = false;
    const stop = (code: number, why: string | null) => {
      if (stopping) return;
      stopping = true;
      if (why) io.err(`exchange-api sandbox: ${why}`);
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      if (alive.length === 0) return resolve(code);
      let left = alive.length;
      for (const w of alive) {
        w.once('exit', () => --left === 0 && resolve(code));
        if (w.isConnected()) w.send({ type: STOP_MESSAGE });
        else w.process.kill('SIGTERM');
      }
      setTimeout(() => {
        for (const w of alive) w.process.kill('SIGKILL');
      }, WORKERS_CLOSE_MS).unref();
    };
    cluster.setupPrimary({ args: redactedArgs(process.argv.slice(2), redis) });
    const fork = () => {
      const w = cluster.fork({ [WORKER_ENV[redis.flag]]: redis.value });
      w.on('message', (m: Listening) => {
        if (m?.type !== 'exchange-api:listening') return;
        listening.set(w, m);
        if (!started && listening.size === n) {
          started = true;
          io.out(`sandbox listening ${m.wsUrl} ${m.httpUrl}`);
          if (m.controlUrl) io.out(`control plane at ${m.controlUrl}`);
          const members = [...listening].map(([worker, l]) => ({ pid: worker.process.pid, ...l }));
          for (const line of fleetLines(redis, members)) io.out(line);
        } else if (started)
          io.out(`  worker ${w.process.pid}: member ${m.member ?? '?'} joined, replacing one that exited`);
      });
      w.on('exit', (code, signal) => {
        listening.delete(w);
        if (stopping) return;
        if (!started)
          return stop(code ?? 1, `a worker exited before the sandbox started (${signal ?? `exit ${code}`})`);
        io.err(`exchange-api sandbox: worker ${w.process.pid} exited (${signal ?? `exit ${code}`}); starting another`);
        fork();
      });
    };
    for (let i = 0; i < n; i++) fork();
    process.on('SIGINT', () => stop(0, null));
    process.on('SIGTERM', () => stop(0, null));
    watch?.((pid) =>
      stop(0, `stopping: its launcher (pid ${pid}) exited; run with --detached to keep serving without it`),
    );
  });
}

/**
 * `exchange-api sandbox`: run the local exchange until SIGINT or SIGTERM, or until its launcher is
 * gone (unless `--detached`). The first stdout line is a public contract:
 * `sandbox listening ws://HOST:PORT/v3/ws http://HOST:PORT`.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import {
  startSandbox,
  resolveOptions,
  SandboxOptionsError,
  type Sandbox,
  type SandboxOptions,
} from '@exchange-api/sandbox';
import { consoleIo, parseCommand, usageError, type Io } from '../args';
import {
  fleetLines,
  isWorker,
  redactedArgs,
  reportListening,
  runWorkers,
  STOP_MESSAGE,
  workerRedis,
  type FleetRedis,
} from './sandbox-workers';

/** SIGINT or SIGTERM to exit: close() is given this long, then the process exits regardless. */
export const CLOSE_BOUND_MS = 3000;
/** How often the launcher watch looks. */
const WATCH_MS = 250;

// The usage's first line is one line of the help; held in two here to fit the source's width.
const USAGE =
  'Usage: exchange-api sandbox [--port 0] [--host 127.0.0.1] [--config <file.json>] [--seed <n>] [--control] ' +
  '[--known-wallets-only] [--detached]';

export const SANDBOX_HELP = `${USAGE}
                           [--allow-origin <list>] [--redis <url> | --redis-cluster <seeds>] [--workers <n>]
                           [--preset derive-local] [--ws-port <n>]

Runs the sandbox: a local exchange implementing the interface (JSON-RPC over WebSocket at /v3/ws,
HTTP POST at /v3/public/* and /v3/private/*) with a seeded simulated market. Prints
"sandbox listening ws://HOST:PORT/v3/ws http://HOST:PORT" first, serves until SIGINT or SIGTERM,
then closes every connection and exits 0 (within ${CLOSE_BOUND_MS / 1000} s, open connections or not).

It also stops, with one line on stderr saying so, when the process that launched it exits (its
parent, or the launcher behind a shell such as npx), so that no sandbox is left serving orphaned;
it does not start at all (exit 1) when that process is already gone, or its parent is init (pid 1).
Use --detached to keep it serving after its launcher is gone (a script that starts it in the
background and exits); stop it then with SIGTERM.

Options:
  --port <n>             port to listen on (0 picks a free one; default 0)
  --host <host>          interface to listen on (default 127.0.0.1)
  --config <file>        JSON file of sandbox options: limits, login window, session keys, wallets,
                         instruments, market interval (see packages/sandbox/README.md); flags win over it
  --seed <n>             seed of the simulated market (default 1)
  --control              serve the control plane at /control (push payloads, faults, clock); off by default
  --known-wallets-only   refuse login by wallets the config does not name (by default any wallet
                         that logs in gets an account); config key knownWalletsOnly
  --detached             keep serving when the launcher exits (no launcher watch)
  --allow-origin <list>  web pages (their Origin, comma-separated, or *) that may open the WebSocket;
                         by default only this machine's pages (loopback origins, local files) and
                         programs (no Origin); config key allowedOrigins
  --redis <url>          act as one exchange with every sandbox started with the same Redis URL
                         (redis://HOST:PORT, rediss://…, or a unix socket path): budgets, connection
                         slots, nonces, accounts, pushes and order flow are shared; exits 2 when Redis
                         cannot be reached at start
  --redis-cluster <seeds>
                         as --redis, on a Redis Cluster: HOST:PORT[,HOST:PORT…] of some of its nodes
                         (each may be redis://[:PASSWORD@]HOST:PORT, or rediss://… for TLS); not with --redis
  --workers <n>          start n sandbox processes on one port (node:cluster); needs --redis or --redis-cluster
  --preset derive-local  listen where derive-ts's local network points: HTTP on 8080 with /public/* and
                         /private/* at the root too, the WebSocket on 3000 at /ws, actions signed for
                         chain 31337 (DERIVE_NETWORK=local runs derive-ts's examples unchanged)
  --ws-port <n>          also serve the WebSocket alone on this port (0 picks a free one; 3000 with
                         --preset derive-local)
  -h, --help             this help

Examples:
  npx exchange-api sandbox
  npx exchange-api sandbox --port 8080 --seed 7
  npx exchange-api sandbox --config ./sandbox.json --control
  npx exchange-api sandbox --port 8080 --detached &
  npx exchange-api sandbox --port 8080 --redis redis://127.0.0.1:6379 --workers 4
  npx exchange-api sandbox --port 8080 --redis-cluster 10.0.0.5:7000,10.0.0.6:7000,10.0.0.7:7000
  npx exchange-api sandbox --preset derive-local

Exit codes: 0 closed cleanly, 1 failed to start (or to close in time), 2 usage errors (and, with --redis
or --redis-cluster, Redis unreachable at start or a fleet running another configuration).`;

type Flags = {
  port?: string;
  host?: string;
  config?: string;
  seed?: string;
  control?: boolean;
  'known-wallets-only'?: boolean;
  detached?: boolean;
  'allow-origin'?: string;
  redis?: string;
  'redis-cluster'?: string;
  workers?: string;
  preset?: string;
  'ws-port'?: string;
};

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  config: { type: 'string' },
  seed: { type: 'string' },
  control: { type: 'boolean' },
  'known-wallets-only': { type: 'boolean' },
  detached: { type: 'boolean' },
  'allow-origin': { type: 'string' },
  redis: { type: 'string' },
  'redis-cluster': { type: 'string' },
  workers: { type: 'string' },
  preset: { type: 'string' },
  'ws-port': { type: 'string' },
} as const;

/** Run the sandbox command; resolves with the exit code once the sandbox has closed. */
export async function runSandbox(argv: string[], io: Io = consoleIo): Promise<number> {
  // Read before anything is printed: a launcher that dies right after the listening line must still
  // be seen to have been the parent (once it is gone, process.ppid names whoever adopted us).
  const chain = launcherChain();
  const values = parseCommand<Flags>('sandbox', SANDBOX_HELP, argv, FLAGS, io);
  if (typeof values === 'number') return values;
  if (values.redis !== undefined && values['redis-cluster'] !== undefined)
    return usageError(
      'sandbox',
      '--redis and --redis-cluster cannot be given together: a fleet runs on one of them',
      io,
    );
  const options = await optionsOf(values, io);
  if (typeof options === 'number') return options;
  const redis: FleetRedis | null =
    options.redis !== undefined
      ? { flag: 'redis', value: options.redis }
      : options.redisCluster !== undefined
        ? { flag: 'redis-cluster', value: options.redisCluster }
        : null;
  const workers = integer('workers', values.workers, 1, 64);
  if (workers instanceof Error) return usageError('sandbox', workers.message, io);
  if (workers !== undefined && redis === null)
    return usageError(
      'sandbox',
      '--workers needs --redis or --redis-cluster: the workers act as one exchange through Redis',
      io,
    );
  const gone = values.detached === true || isWorker() ? null : goneBeforeStart(chain);
  if (gone !== null) {
    io.err(`exchange-api sandbox: not starting: ${gone}; run with --detached to serve without it`);
    return 1;
  }
  if (workers !== undefined && !isWorker())
    return runWorkers(workers, redis!, io, values.detached === true ? null : (gone) => watchLauncher(chain, gone));
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (err) {
    const fleet = ['RedisUnreachableError', 'FleetConfigError'].includes((err as Error).name);
    io.err(`exchange-api sandbox: ${fleet ? '' : 'cannot start: '}${(err as Error).message}`);
    return fleet ? 2 : 1;
  }
  if (isWorker()) reportListening(sandbox);
  else io.out(`sandbox listening ${sandbox.wsUrl} ${sandbox.httpUrl}`);
  if (sandbox.controlUrl && !isWorker()) io.out(`control plane at ${sandbox.controlUrl}`);
  if (sandbox.fleet && !isWorker()) {
    const owned = sandbox.fleet.owned();
    for (const line of fleetLines(redis!, [{ pid: undefined, member: sandbox.fleet.member, owned }])) io.out(line);
  }
  // A worker stops with its primary (its parent), whatever the primary's launcher does.
  return serveUntilStopped(sandbox, isWorker() ? [process.ppid] : values.detached === true ? null : chain);
}

/** The fleet's Redis the flags name (a worker's from its primary), or null. */
function redisOf(values: Flags): FleetRedis | null {
  if (values.redis !== undefined) return workerRedis({ flag: 'redis', value: values.redis });
  if (values['redis-cluster'] !== undefined)
    return workerRedis({ flag: 'redis-cluster', value: values['redis-cluster'] });
  return null;
}

/** The sandbox options the flags and the config file give, or the exit code of a usage error. */
async function optionsOf(values: Flags, io: Io): Promise<SandboxOptions | number> {
  const usage = (message: string) => usageError('sandbox', message, io);
  const port = integer('port', values.port, 0, 65535);
  if (port instanceof Error) return usage(port.message);
  const seed = integer('seed', values.seed, -2147483648, 2147483647);
  if (seed instanceof Error) return usage(seed.message);
  if (values.host !== undefined && values.host.trim() === '') return usage('--host must not be empty');
  let options: SandboxOptions = {};
  if (values.config !== undefined) {
    const file = await configFile(values.config);
    if (typeof file === 'string') return usage(file);
    options = file;
  }
  const wsPort = integer('ws-port', values['ws-port'], 0, 65535);
  if (wsPort instanceof Error) return usage(wsPort.message);
  if (values.preset !== undefined) options = { ...options, preset: values.preset as SandboxOptions['preset'] };
  if (port !== undefined) options = { ...options, port };
  if (wsPort !== undefined) options = { ...options, wsPort };
  if (seed !== undefined) options = { ...options, seed };
  if (values.host !== undefined) options = { ...options, host: values.host };
  if (values.control) options = { ...options, control: true };
  if (values['known-wallets-only']) options = { ...options, knownWalletsOnly: true };
  if (values['allow-origin'] !== undefined) {
    const allowed = values['allow-origin'].split(',').map((o) => o.trim());
    if (allowed.some((o) => o === '')) return usage('--allow-origin takes origins separated by commas, or *');
    options = { ...options, allowedOrigins: allowed };
  }
  const redis = redisOf(values);
  if (redis !== null) {
    // What `ps` shows of this process: the URL without its password (the workers get theirs by environment).
    const shown = redactedArgs(process.argv, redis);
    if (!isWorker() && shown.some((a, i) => a !== process.argv[i])) process.title = shown.join(' ');
    // The flag wins over the config file's redis or redisCluster, whichever that names.
    const { redis: _r, redisCluster: _c, ...rest } = options;
    options = redis.flag === 'redis' ? { ...rest, redis: redis.value } : { ...rest, redisCluster: redis.value };
  }
  const bad = invalid(options);
  return bad === null ? options : usage(bad);
}

function integer(flag: string, v: string | undefined, min: number, max: number): number | undefined | Error {
  if (v === undefined) return undefined;
  if (!/^-?[0-9]+$/.test(v) || Number(v) < min || Number(v) > max)
    return new Error(`--${flag} must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
  return Number(v);
}

/** resolveOptions's verdict on `input` as a message, or null when it is valid. */
function invalid(input: unknown): string | null {
  try {
    resolveOptions(input);
    return null;
  } catch (err) {
    if (err instanceof SandboxOptionsError) return err.message;
    throw err;
  }
}

/** The options of a --config file, or the one-line message naming the file and what is wrong. */
async function configFile(path: string): Promise<SandboxOptions | string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return `--config ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return `--config ${path}: not JSON (${(err as Error).message.split('\n')[0]})`;
  }
  // The file alone first, so its errors name it; the flags are merged only into a valid object.
  const bad = invalid(parsed);
  return bad === null ? (parsed as SandboxOptions) : `--config ${path}: ${bad}`;
}

/**
 * Serve until a signal or the launcher's exit, then close within CLOSE_BOUND_MS. The bound is kept by
 * an unref'd timer that exits the process itself: whatever close() leaves pending, the process ends.
 */
function serveUntilStopped(sandbox: Sandbox, chain: number[] | null): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    let exitCode: number | null = null;
    const finish = (code: number) => {
      exitCode = code;
      resolve(code);
    };
    const stop = (why: string | null) => {
      if (stopping) {
        if (why === null) forceExit('a second signal arrived while closing; exiting now');
        return;
      }
      stopping = true;
      if (why) console.error(`exchange-api sandbox: ${why}`);
      clearInterval(watch);
      // Closed but something still holds the loop: exit with the code; not closed: say so and exit 1.
      setTimeout(
        () =>
          exitCode !== null
            ? process.exit(exitCode)
            : forceExit(`did not close within ${CLOSE_BOUND_MS / 1000} s; exiting anyway`),
        CLOSE_BOUND_MS,
      ).unref();
      sandbox.close().then(
        () => finish(0),
        (err) => {
          console.error(`exchange-api sandbox: error while closing: ${(err as Error).message}`);
          finish(1);
        },
      );
    };
    const onSignal = () => stop(null);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // A worker of --workers is stopped by its primary over IPC: not a signal, so never a second one.
    if (isWorker()) process.on('message', (m: { type?: string }) => m?.type === STOP_MESSAGE && stop(''));
    const watch =
      chain === null
        ? undefined
        : watchLauncher(chain, (gone) =>
            stop(`stopping: its launcher (pid ${gone}) exited; run with --detached to keep serving without it`),
          );
  });
}

function forceExit(why: string): never {
  console.error(`exchange-api sandbox: ${why}`);
  process.exit(1);
}

/** The parent pid in the text of a /proc/<pid>/stat file, or null. */
function ppidInStat(stat: string): number | null {
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

/** The parent pid of a process from /proc (Linux), or null where there is none to read. */
function parentOf(pid: number): number | null {
  try {
    return ppidInStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** The launcher as bin/exchange-api.js read it first thing, before any module loaded. */
type LauncherRecord = { ppid: number; parentStat: string | null };

/**
 * The launcher chain: the parent and, where /proc can tell, the grandparent. Launchers such as `npx`
 * run the command through a shell and may die of SIGTERM without passing it on; the shell then lives
 * on, so the parent alone would not show that the launcher is gone. Taken from the bin's record when
 * there is one: read here, after the modules loaded, a launcher that exited meanwhile is already
 * replaced by init (or the shell's parent by init), and the sandbox would serve on, orphaned.
 */
function launcherChain(): number[] {
  const early = (globalThis as Record<symbol, LauncherRecord | undefined>)[Symbol.for('exchange-api.launcher')];
  const ppid = early?.ppid ?? process.ppid;
  const grand = early ? (early.parentStat === null ? null : ppidInStat(early.parentStat)) : parentOf(ppid);
  const chain = [ppid];
  if (grand !== null && grand > 1) chain.push(grand);
  return chain;
}

/** The first launcher of `chain` that has exited (its child no longer has it as parent), if any. */
function lostLauncher(chain: number[]): number | undefined {
  // The parent changed: the parent exited. The parent's parent changed: the launcher exited.
  if (process.ppid !== chain[0]) return chain[0];
  if (chain.length > 1 && parentOf(chain[0]!) !== chain[1]) return chain[1];
  return undefined;
}

/** Why the sandbox must not start: its launcher exited before it could (null when it is still there). */
function goneBeforeStart(chain: number[]): string | null {
  // Init adopts orphans: a parent of 1 from the first instant means the launcher exited before we ran.
  if (chain[0] === 1)
    return 'its parent is init (pid 1): its launcher exited before it started, or it was started by init itself';
  const lost = lostLauncher(chain);
  return lost === undefined ? null : `its launcher (pid ${lost}) exited before it started`;
}

/** Call `gone` with the first launcher of `chain` that exited; watches until cleared. */
function watchLauncher(chain: number[], gone: (pid: number) => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    const lost = lostLauncher(chain);
    if (lost !== undefined) {
      clearInterval(timer);
      gone(lost);
    }
  }, WATCH_MS);
  timer.unref();
  return timer;
}

/**
 * A fleet of 2 workers on one Redis against 1 process without Redis: `exchange-api sandbox --redis
 * <private redis-server> --workers 2` and `exchange-api sandbox`, both the command from the sources,
 * both running at once (idle while the other is measured). A ladder of connections (250, 500, 1,000,
 * 2,000 by default; EXCHANGE_API_BENCH_FLEET_CONNECTIONS raises the top, doubling), each connection
 * subscribed to the order book of every live instrument, pushed at every market tick (100 ms). At
 * each step, taken by both in turn so machine noise hits both, two crowd processes count what arrives
 * for 1.5 s: the tick has slipped when fewer than 90% of the pushes the ticks owe arrive, twice in a
 * row (a slipped step is taken again at once), and the ladder stops there. Lines: the most
 * notifications per second delivered at any step, and the most connections held before the tick
 * slipped, each as 2 workers ÷ 1 process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CrowdProcess } from './crowd-process';
import type { BenchResult } from './report';
import { hasRedisServer, startRedis } from './redis-server';
import { BENCH_LIMITS } from './server-process';
import { envInt, sleep } from './ws-load';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const TICK_MS = 100;
const FIRST_STEP = 250;
const SETTLE_MS = 500;
const COUNT_MS = 1500;
const HELD = 0.9;
/** Long enough for 2 workers to share out the books (LEASE_MS 3 s, a cycle of 1 s, one book a cycle). */
const SPREAD_MS = 5000;

/** `exchange-api sandbox …` from the sources, in a process group of its own (workers included). */
class Command {
  private constructor(
    private readonly child: ChildProcess,
    readonly wsUrl: string,
    readonly httpUrl: string,
  ) {}

  static async start(args: string[]): Promise<Command> {
    const bin = join(root, 'packages', 'cli', 'bin', 'exchange-api.js');
    const child = spawn(process.execPath, [...process.execArgv, bin, 'sandbox', ...args], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once('line', resolve);
      lines.once('close', () => resolve(''));
    });
    const m = /^sandbox listening (\S+) (\S+)/.exec(line);
    const command = new Command(child, m?.[1] ?? '', m?.[2] ?? '');
    if (!m) {
      await command.stop();
      throw new Error(`exchange-api sandbox ${args.join(' ')} did not start (${JSON.stringify(line)})`);
    }
    child.stdout!.resume();
    return command;
  }

  /** SIGTERM to the command (a primary stops its workers), SIGKILL to its group after 10 s or once it exited. */
  async stop(): Promise<void> {
    const group = (s: NodeJS.Signals) => {
      try {
        process.kill(-this.child.pid!, s);
      } catch {
        // the group is gone
      }
    };
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, 'exit');
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => group('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    group('SIGKILL'); // anything of its group that outlived it
  }
}

/** One step on one sandbox: notifications per second the crowds received, and whether the tick held. */
async function step(crowds: CrowdProcess[], url: string, connections: number, channels: string[]) {
  const share = (i: number) => Math.floor(connections / crowds.length) + (i < connections % crowds.length ? 1 : 0);
  try {
    const opened = await Promise.allSettled(crowds.map((c, i) => c.fill(url, share(i), channels)));
    const failed = opened.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    // Connections the sandbox cannot even take within the bound are not held.
    if (failed) return { rate: 0, held: false, why: ` (${(failed.reason as Error).message})` };
    await sleep(SETTLE_MS);
    await Promise.all(crowds.map((c) => c.count()));
    await sleep(COUNT_MS);
    const counts = await Promise.all(crowds.map((c) => c.count()));
    const rate = counts.reduce((a, c) => a + c.received / (c.ms / 1000), 0);
    const owed = connections * channels.length * (1000 / TICK_MS);
    return { rate, held: rate >= HELD * owed, why: '' };
  } finally {
    await Promise.all(crowds.map((c) => c.empty()));
  }
}

/** The order book of every live instrument. */
async function channelsOf(httpUrl: string): Promise<string[]> {
  const res = await fetch(`${httpUrl}/v3/public/get_all_live_instruments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const { result } = (await res.json()) as { result: string[] };
  return result.map((name) => `orderbook.${name}.1.10`);
}

interface Ladder {
  /** The most notifications per second received at any step. */
  peak: number;
  /** The most connections at a step where the tick held (0: not even the first). */
  held: number;
  /** Whether the tick slipped at some step (else `held` is the top of the ladder, not a limit). */
  slipped: boolean;
  steps: string[];
}

async function ladder(targets: Array<[string, Command]>, crowds: CrowdProcess[], top: number, channels: string[]) {
  const ladders = new Map<string, Ladder>(
    targets.map(([name]) => [name, { peak: 0, held: 0, slipped: false, steps: [] }]),
  );
  for (let n = FIRST_STEP; n <= top; n *= 2) {
    for (const [name, command] of targets) {
      const l = ladders.get(name)!;
      if (l.slipped) continue;
      // A slip is confirmed by a second try at once: on a loaded machine one late tick is noise.
      for (let tries = 1; tries <= 2; tries++) {
        const r = await step(crowds, command.wsUrl, n, channels);
        l.peak = Math.max(l.peak, r.rate);
        l.steps.push(`${n}: ${Math.round(r.rate)}/s${r.held ? '' : ' slipped'}${r.why}`);
        if (process.env.EXCHANGE_API_BENCH_VERBOSE) console.log(`fleet ${name} ${l.steps.at(-1)}`);
        if (r.held) l.held = n;
        if (r.held || tries === 2) l.slipped = !r.held;
        if (r.held) break;
      }
    }
    if ([...ladders.values()].every((l) => l.slipped)) break;
  }
  return ladders;
}

export async function runFleet(): Promise<BenchResult[]> {
  if (!hasRedisServer()) throw new Error('fleet needs redis-server (apt-get install redis-server)');
  const top = envInt('EXCHANGE_API_BENCH_FLEET_CONNECTIONS', 2000, FIRST_STEP, 50_000);
  const redis = await startRedis();
  const config = join(redis.dir, 'sandbox.json');
  writeFileSync(config, JSON.stringify({ limits: BENCH_LIMITS, market: { intervalMs: TICK_MS } }));
  const started: Command[] = [];
  const crowds: CrowdProcess[] = [];
  let listening = 0;
  try {
    const settled = await Promise.allSettled([
      Command.start(['--config', config]),
      Command.start(['--config', config, '--redis', redis.url, '--workers', '2']).then(
        (c) => ((listening = performance.now()), c),
      ),
      CrowdProcess.start(),
      CrowdProcess.start(),
    ]);
    for (const s of settled.slice(0, 2)) if (s.status === 'fulfilled') started.push(s.value as Command);
    for (const s of settled.slice(2)) if (s.status === 'fulfilled') crowds.push(s.value as CrowdProcess);
    for (const s of settled) if (s.status === 'rejected') throw s.reason;
    const [one, two] = started;
    // The workers share the books out (a lease is taken or given back a second) before the first step.
    await sleep(SPREAD_MS - (performance.now() - listening));
    const channels = await channelsOf(one!.httpUrl);
    const ladders = await ladder(
      [
        ['1 process', one!],
        ['2 workers', two!],
      ],
      crowds,
      top,
      channels,
    );
    return report(ladders, channels.length, top);
  } finally {
    await Promise.all([...crowds.map((c) => c.stop()), ...started.map((c) => c.stop())]);
    await redis.stop();
  }
}

function report(ladders: Map<string, Ladder>, channels: number, top: number): BenchResult[] {
  const one = ladders.get('1 process')!;
  const two = ladders.get('2 workers')!;
  for (const [name, l] of ladders) console.log(`fleet ${name}: ${l.steps.join(', ')}`);
  const perSecond = (x: number) => `${Math.round(x).toLocaleString('en-US')}/s`;
  const held = (l: Ladder) =>
    !l.slipped ? `${l.held}+, never slipped up to ${top}` : l.held ? String(l.held) : `0, slipped at ${FIRST_STEP}`;
  return [
    {
      name:
        `fleet notifications per second, 2 workers on Redis / 1 process (${perSecond(two.peak)}` +
        ` / ${perSecond(one.peak)}, ${channels} order books per connection)`,
      value: two.peak / one.peak,
      op: '>=',
      target: 1,
    },
    {
      name:
        `fleet connections held before the market tick slips, 2 workers on Redis ` +
        `/ 1 process (${held(two)} / ${held(one)})`,
      value: two.held / one.held,
      op: '>=',
      target: 1,
    },
  ];
}

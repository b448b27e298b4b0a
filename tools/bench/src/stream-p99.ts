/**
 * public/getRateLimits p99 while many connections stream: C connections subscribed to an order book
 * (pushed at every 100 ms market tick) and one probe connection timing getRateLimits requests one at a
 * time, 5 ms apart, for S seconds. Three servers, started together, each in a child process of its own:
 * the sandbox with its limits in Redis (a private redis-server), the sandbox in memory, and a raw `ws`
 * control streaming the same frame at the same tick and answering at once. The streaming connections
 * live in a child process of their own too (crowd-process), so that reading their pushes never delays
 * the probe's replies. Lines: each sandbox's p99 ÷ the control's p99, measured in the same run (one
 * server loaded at a time, raw, Redis, memory, in rounds; the median of the per-round ratios). C is
 * 500 by default (EXCHANGE_API_BENCH_STREAM_CONNECTIONS=2000 is the load), S 3
 * (EXCHANGE_API_BENCH_STREAM_SECONDS), rounds 2 (EXCHANGE_API_BENCH_STREAM_ROUNDS).
 */
import { median, type BenchResult } from './report';
import { hasRedisServer, startRedis } from './redis-server';
import { CrowdProcess } from './crowd-process';
import { startServers, STREAM_CHANNEL, type ServerMode, type ServerProcess } from './server-process';
import { envInt, open, percentile, sleep, timeRequests } from './ws-load';

const GAP_MS = 5;
/** The numbers at 2,000 connections: 99 ms for the sandbox, 103 ms for the raw control (0.96). */
const TARGET = 1.5;

interface Sample {
  p99: number;
  p50: number;
  count: number;
  /** Pushes per second the crowd received while the probe ran (C × 10 when the tick keeps time). */
  pushes: number;
}

/** One measurement on a running server: load it with the crowd, probe it, let the crowd go. */
async function measure(
  server: ServerProcess,
  crowd: CrowdProcess,
  connections: number,
  seconds: number,
): Promise<Sample> {
  await crowd.fill(server.wsUrl, connections, [STREAM_CHANNEL]);
  const probe = await open(server.wsUrl).catch(async (err) => (await crowd.empty(), Promise.reject(err)));
  try {
    await timeRequests(probe, 'public/getRateLimits', 50, GAP_MS); // warm
    await sleep(500);
    await crowd.count();
    const t0 = performance.now();
    const times: number[] = [];
    while (performance.now() - t0 < seconds * 1000)
      times.push(...(await timeRequests(probe, 'public/getRateLimits', 20, GAP_MS)));
    const seen = await crowd.count();
    return {
      p99: percentile(times, 99),
      p50: percentile(times, 50),
      count: times.length,
      pushes: seen.received / (seen.ms / 1000),
    };
  } finally {
    probe.terminate();
    await crowd.empty();
  }
}

export async function runStreamP99(): Promise<BenchResult[]> {
  if (!hasRedisServer()) throw new Error('stream-p99 needs redis-server (apt-get install redis-server)');
  const connections = envInt('EXCHANGE_API_BENCH_STREAM_CONNECTIONS', 500, 1, 10_000);
  const seconds = envInt('EXCHANGE_API_BENCH_STREAM_SECONDS', 3, 1, 600);
  const rounds = envInt('EXCHANGE_API_BENCH_STREAM_ROUNDS', 2, 1, 50);
  const redis = await startRedis();
  const samples: Record<ServerMode, Sample[]> = { raw: [], memory: [], redis: [] };
  const modes = ['raw', 'redis', 'memory'] as const;
  try {
    const servers = await startServers(modes.map((m) => [m, redis.url]));
    const crowd = await CrowdProcess.start().catch(async (err) => {
      await Promise.all(servers.map((s) => s.stop()));
      throw err;
    });
    try {
      for (let r = 0; r < rounds; r++)
        for (const [i, mode] of modes.entries())
          samples[mode].push(await measure(servers[i]!, crowd, connections, seconds));
    } finally {
      await Promise.all([crowd.stop(), ...servers.map((s) => s.stop())]);
    }
  } finally {
    await redis.stop();
  }
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const of = (mode: ServerMode, key: keyof Sample) => median(samples[mode].map((s) => s[key]));
  const describe = (mode: ServerMode) =>
    `p99 ${ms(of(mode, 'p99'))}, p50 ${ms(of(mode, 'p50'))}, ${Math.round(of(mode, 'pushes'))} pushes/s`;
  console.log(
    `stream p99: ${connections} streaming connections, ${Math.round(of('raw', 'count'))}` +
      ` probes each; raw ws ${describe('raw')}; ` +
      `sandbox redis ${describe('redis')}; sandbox memory ${describe('memory')}`,
  );
  const ratio = (mode: ServerMode) => median(samples[mode].map((s, i) => s.p99 / samples.raw[i]!.p99));
  return [
    {
      name: `getRateLimits p99 while ${connections} connections stream, sandbox with Redis / raw ws`,
      value: ratio('redis'),
      op: '<=',
      target: TARGET,
    },
    {
      name: `getRateLimits p99 while ${connections} connections stream, sandbox in memory / raw ws`,
      value: ratio('memory'),
      op: '<=',
      target: TARGET,
    },
  ];
}

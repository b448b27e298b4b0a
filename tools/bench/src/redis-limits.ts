/**
 * The per-request cost of limits kept in Redis against limits kept in memory: one WebSocket, N requests
 * one at a time (public/getRateLimits, which reads every budget, and public/get_time, the cheapest
 * public method: both spend a tier-1 point), to a sandbox in a child process of its own started with
 * `redis` (a private redis-server on a unix socket) and to one started without. Rounds alternate between
 * the two (and which goes first) so machine noise hits both; the line is the median of the per-round
 * ratios of the mean time per request. EXCHANGE_API_BENCH_REQUESTS sets N (default 1,000 per round).
 */
import type { WebSocket } from 'ws';
import { median, type BenchResult } from './report';
import { hasRedisServer, startRedis } from './redis-server';
import { startServers, type ServerProcess } from './server-process';
import { envInt, open, timeRequests } from './ws-load';

const ROUNDS = 5;
const METHODS = ['public/getRateLimits', 'public/get_time'];
/** A request whose limits live in Redis pays a round trip or two to it (a unix socket here) on top of its own cost. */
const TARGET = 3;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function runRedisLimits(): Promise<BenchResult[]> {
  if (!hasRedisServer()) throw new Error('redis-limits needs redis-server (apt-get install redis-server)');
  const n = envInt('EXCHANGE_API_BENCH_REQUESTS', 1000, 10, 1_000_000);
  const redis = await startRedis();
  const servers: ServerProcess[] = [];
  const sockets: WebSocket[] = [];
  try {
    servers.push(...(await startServers([['memory'], ['redis', redis.url]])));
    const [memory, shared] = await Promise.all(servers.map((s) => open(s.wsUrl)));
    sockets.push(memory!, shared!);
    const results: BenchResult[] = [];
    for (const method of METHODS) {
      await timeRequests(memory!, method, 100); // warm both
      await timeRequests(shared!, method, 100);
      const ratios: number[] = [];
      const perRequest = { memory: [] as number[], redis: [] as number[] };
      for (let r = 0; r < ROUNDS; r++) {
        // Which goes first alternates, so neither always follows the other's garbage or warm caches.
        const first = r % 2 ? shared! : memory!;
        const a = mean(await timeRequests(first, method, n));
        const b = mean(await timeRequests(first === memory ? shared! : memory!, method, n));
        const [m, s] = first === memory ? [a, b] : [b, a];
        perRequest.memory.push(m);
        perRequest.redis.push(s);
        ratios.push(s / m);
      }
      const us = (xs: number[]) => `${Math.round(median(xs) * 1000)} µs`;
      results.push({
        name:
          `${method} per request, limits in Redis / in memory (${us(perRequest.redis)}` +
          ` / ${us(perRequest.memory)}, ${n} requests x ${ROUNDS} rounds)`,
        value: median(ratios),
        op: '<=',
        target: TARGET,
      });
    }
    return results;
  } finally {
    for (const ws of sockets) ws.terminate();
    await Promise.all(servers.map((s) => s.stop()));
    await redis.stop();
  }
}

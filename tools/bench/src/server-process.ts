/**
 * A server in a child process of its own, so that the benchmark's clients never share its event loop:
 * the sandbox in memory, the sandbox on a Redis (`startSandbox({ redis })`), or a raw `ws` control that
 * streams the same order-book frame at the sandbox's market tick (100 ms) to every subscriber and
 * answers any request at once with a fixed getRateLimits-shaped result.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { orderbookFrame } from './frames';

export type ServerMode = 'raw' | 'memory' | 'redis';

/** The order book the raw control streams, and the address the sandbox clients subscribe to. */
export const STREAM_CHANNEL = 'orderbook.ETH-PERP.1.10';
const TICK_MS = 100;
const HUGE = 1_000_000_000;

/** Budgets no benchmark reaches: the limits' cost is measured, never their refusals. */
export const BENCH_LIMITS = {
  connections: { max: 100_000 },
  public: { points: HUGE },
  non_matching: { points: HUGE },
};

async function serveSandbox(redis: string | undefined): Promise<{ wsUrl: string; close(): Promise<void> }> {
  const { startSandbox } = await import('@exchange-api/sandbox');
  return startSandbox({ limits: BENCH_LIMITS, market: { intervalMs: TICK_MS }, ...(redis ? { redis } : {}) });
}

/** The control: a plain ws server doing what the sandbox does for these clients, and nothing else. */
async function serveRaw(): Promise<{ wsUrl: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const streaming = new Set<WebSocket>();
  const budget = { remainingPoints: HUGE, msBeforeNext: 0, consumedPoints: 1, isFirstInDuration: false };
  const limits = { remaining_public: budget, remaining_ip: budget, remaining_connections: budget };
  wss.on('connection', (ws) => {
    ws.on('close', () => streaming.delete(ws));
    ws.on('message', (raw) => {
      const req = JSON.parse(String(raw)) as { id: number; method: string; params?: { channels?: string[] } };
      if (req.method !== 'subscribe') return ws.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, result: limits }));
      streaming.add(ws);
      const channels = req.params?.channels ?? [];
      const status = Object.fromEntries(channels.map((c) => [c, 'ok']));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { status, current_subscriptions: channels } }));
    });
  });
  const book = orderbookFrame(10);
  const tick = setInterval(() => {
    const data = { ...book, timestamp: Date.now() };
    const frame = JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel: STREAM_CHANNEL, data } });
    for (const ws of streaming) ws.send(frame);
  }, TICK_MS);
  return {
    wsUrl: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v3/ws`,
    close: async () => {
      clearInterval(tick);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Runs in the child: serve, say where, close and exit on request. */
async function serveInChild(mode: ServerMode, redis: string | undefined): Promise<void> {
  process.on('disconnect', () => process.exit(0));
  if (mode === 'redis' && !redis) throw new Error('the redis mode needs a Redis URL');
  const server = mode === 'raw' ? await serveRaw() : await serveSandbox(mode === 'redis' ? redis : undefined);
  process.on('message', async (m: { type: string }) => {
    if (m.type !== 'stop') return;
    await server.close();
    process.exit(0);
  });
  process.send!({ type: 'ready', wsUrl: server.wsUrl });
}

if (process.env.EXCHANGE_API_BENCH_SERVER) {
  serveInChild(process.env.EXCHANGE_API_BENCH_SERVER as ServerMode, process.env.EXCHANGE_API_BENCH_REDIS).catch(
    (err) => {
      console.error(`bench server (${process.env.EXCHANGE_API_BENCH_SERVER}): ${(err as Error).stack}`);
      process.exit(1);
    },
  );
}

/** A server in its child process. */
export class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly wsUrl: string,
  ) {}

  /** Start one; `redis` is the socket path for the 'redis' mode. */
  static start(mode: ServerMode, redis?: string): Promise<ServerProcess> {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: process.execArgv,
      env: {
        ...process.env,
        EXCHANGE_API_BENCH_SERVER: mode,
        EXCHANGE_API_BENCH_REDIS: mode === 'redis' ? (redis ?? '') : '',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => (child.kill('SIGKILL'), reject(new Error(`the ${mode} server did not start within 60 s`))),
        60_000,
      );
      child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the ${mode} server exited ${code}`))));
      child.once(
        'message',
        (m: { wsUrl: string }) => (clearTimeout(timer), resolve(new ServerProcess(child, m.wsUrl))),
      );
    });
  }

  /** Ask it to close; kill it if it has not exited within 10 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Start several at once; when one fails, the others are stopped before the error is thrown. */
export async function startServers(specs: Array<[ServerMode, string?]>): Promise<ServerProcess[]> {
  const settled = await Promise.allSettled(specs.map(([mode, redis]) => ServerProcess.start(mode, redis)));
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return started;
  await Promise.all(started.map((s) => s.stop()));
  throw failed.reason;
}

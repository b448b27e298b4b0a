/**
 * Sandbox fan-out: notifications per second delivered to 100 subscribers through the sandbox's push
 * path, as a ratio against a raw `ws` broadcast loop sending the same frames to 100 clients, measured
 * in the same run (alternating rounds, median ratio). Target >= 0.7.
 */
import { WebSocketServer, WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '@exchange-api/sandbox';
import { median, type BenchResult } from './report';

const SUBSCRIBERS = 100;
const FRAMES = 400;
const BATCH = 50;
const ROUNDS = 5;
const CHANNEL = 'trades.ETH-PERP';

/** The same payloads for both sides: public trade arrays of a realistic size. */
function payloads(): unknown[] {
  return Array.from({ length: FRAMES }, (_, i) => [
    {
      direction: i % 2 ? 'buy' : 'sell',
      expected_rebate: '0',
      extra_fee: '0',
      index_price: '3000.12',
      mark_price: '3000.15',
      realized_pnl: '0',
      realized_pnl_excl_fees: '0',
      trade_amount: '0.25',
      trade_fee: '0.225',
      trade_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      trade_price: String(3000 + (i % 50) / 100),
      instrument_name: 'ETH-PERP',
      wallet: '0x0000000000000000000000000000000000000000',
      liquidity_role: 'taker',
      subaccount_id: 1,
      timestamp: 1_700_000_000_000 + i,
      quote_id: null,
      rfq_id: null,
    },
  ]);
}

/** Clients that count text frames; resolves once each has seen `n` since the last reset. */
class Counters {
  private counts: number[] = [];
  private target = 0;
  private done: (() => void) | null = null;
  private finished = 0;
  constructor(readonly sockets: WebSocket[]) {
    this.counts = sockets.map(() => 0);
    sockets.forEach((ws, i) =>
      ws.on('message', () => {
        if (++this.counts[i]! === this.target && ++this.finished === sockets.length) this.done?.();
      }),
    );
  }
  expect(n: number): Promise<void> {
    this.counts.fill(0);
    this.finished = 0;
    this.target = n;
    return new Promise((resolve) => (this.done = resolve));
  }
}

async function connectAll(url: string, n: number): Promise<WebSocket[]> {
  return Promise.all(
    Array.from({ length: n }, () => {
      const ws = new WebSocket(url);
      return new Promise<WebSocket>((resolve, reject) => {
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    }),
  );
}

/** Push every frame in batches, waiting for all subscribers per batch; returns notifications per second. */
async function measure(counters: Counters, send: (data: unknown) => void, data: unknown[]): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < data.length; i += BATCH) {
    const batch = data.slice(i, i + BATCH);
    const arrived = counters.expect(batch.length);
    for (const d of batch) send(d);
    await arrived;
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return (data.length * counters.sockets.length) / seconds;
}

/** Run the benchmark: one result line, the ratio sandbox / raw broadcast. */
export async function runSandboxFanout(): Promise<BenchResult[]> {
  const data = payloads();
  const sandbox = await startSandbox({
    limits: { connections: { max: SUBSCRIBERS + 10 }, public: { points: 1_000_000 } },
    market: { intervalMs: 60_000 },
  });
  const subs = await connectAll(sandbox.wsUrl, SUBSCRIBERS);
  const subscribed = subs.map(
    (ws) =>
      new Promise<void>((resolve) => {
        ws.once('message', () => resolve());
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { channels: [CHANNEL] } }));
      }),
  );
  await Promise.all(subscribed);
  const sandboxCounters = new Counters(subs);

  const raw = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => raw.once('listening', () => resolve()));
  const rawClients = await connectAll(`ws://127.0.0.1:${(raw.address() as AddressInfo).port}`, SUBSCRIBERS);
  const rawCounters = new Counters(rawClients);
  // The control: serialize each frame once and write it to every client, as a plain ws broadcast does.
  const rawSend = (d: unknown) => {
    const frame = Buffer.from(
      JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel: CHANNEL, data: d } }),
    );
    for (const c of raw.clients) c.send(frame, { binary: false });
  };
  const sandboxSend = (d: unknown) => void sandbox.publish(CHANNEL, d);

  // Warm up both paths, then alternate rounds so both see the same machine load.
  await measure(rawCounters, rawSend, data.slice(0, 100));
  await measure(sandboxCounters, sandboxSend, data.slice(0, 100));
  const ratios: number[] = [];
  const rates: number[] = [];
  const rawRates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const rawRate = await measure(rawCounters, rawSend, data);
    const sbRate = await measure(sandboxCounters, sandboxSend, data);
    ratios.push(sbRate / rawRate);
    rates.push(sbRate);
    rawRates.push(rawRate);
  }
  for (const ws of [...subs, ...rawClients]) ws.terminate();
  await new Promise<void>((resolve) => raw.close(() => resolve()));
  await sandbox.close();
  const perSecond = (x: number) => `${Math.round(x).toLocaleString('en-US')}/s`;
  return [
    {
      name:
        `sandbox fan-out to ${SUBSCRIBERS} subscribers (sandbox ${perSecond(median(rates))}` +
        `, raw ws ${perSecond(median(rawRates))} notifications), ratio`,
      value: median(ratios),
      op: '>=',
      target: 0.7,
    },
  ];
}

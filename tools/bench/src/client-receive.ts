/**
 * Notifications per second through the client's receive path (parse, route, validate, handler)
 * against a raw `ws` client that only JSON.parses: the same frames from the same feeder in the same
 * run. The feeder runs in a worker thread so that sending never competes with the receiver for the
 * main thread; rounds alternate between the three receivers so machine noise hits them alike.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { createClient } from '@exchange-api/client';
import { orderbookFrame } from './frames';
import { median, type BenchResult } from './report';

const ADDRESS = 'orderbook.ETH-PERP.1.10';
const FRAMES_PER_ROUND = 20_000;
const ROUNDS = 7;

// Plain JavaScript, so the worker needs no TypeScript loader. It answers subscribe like the sandbox
// and, on command, writes N copies of one pre-built text frame straight to each socket in one write:
// framing each send through ws would make the feeder, not the receiver, the bottleneck.
const feederSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { WebSocketServer } = require(workerData.ws);
const payload = Buffer.from(workerData.frame);
const L = payload.length;
const header = L < 126 ? Buffer.from([0x81, L]) : L < 65536 ? Buffer.from([0x81, 126, L >> 8, L & 255]) : null;
if (!header) throw new Error('bench frame too large');
const frame = Buffer.concat([header, payload]);
const blasts = new Map();
const blast = (n) => blasts.get(n) || (blasts.set(n, Buffer.concat(Array(n).fill(frame))), blasts.get(n));
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('listening', () => parentPort.postMessage({ port: wss.address().port }));
wss.on('connection', (ws) => {
  ws.on('message', (raw) => {
    const req = JSON.parse(String(raw));
    const channels = (req.params && req.params.channels) || [];
    const status = Object.fromEntries(channels.map((c) => [c, 'ok']));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { status, current_subscriptions: channels } }));
  });
});
parentPort.on('message', (m) => {
  if (m.cmd === 'blast') {
    for (const ws of wss.clients) ws._socket.write(blast(m.n));
  } else if (m.cmd === 'stop') {
    for (const ws of wss.clients) ws.terminate();
    wss.close(() => process.exit(0));
  }
});
`;

interface Receiver {
  name: string;
  /** Connect, count every delivered payload with `onPayload`, and return a closer. */
  open(url: string, onPayload: () => void): Promise<() => Promise<void>>;
}

const raw: Receiver = {
  name: 'raw ws + JSON.parse',
  open: (url, onPayload) =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.on('message', (data) => {
        if (JSON.parse(String(data))) onPayload();
      });
      ws.once('open', () => resolve(async () => ws.close()));
      ws.once('error', reject);
    }),
};

function clientReceiver(validate: 'off' | 'strict'): Receiver {
  return {
    name: `client validate ${validate}`,
    async open(url, onPayload) {
      const client = createClient({ wsUrl: url, validate, limiter: false, reconnect: false });
      await client.connect();
      await client.subscribe(ADDRESS, () => onPayload());
      return () => client.close();
    },
  };
}

/** One round: payloads per second from the first frame to the last. */
async function round(feeder: Worker, url: string, receiver: Receiver): Promise<number> {
  let count = 0;
  let first = 0;
  let resolveDone!: (ms: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  const close = await receiver.open(url, () => {
    if (count++ === 0) first = performance.now();
    if (count === FRAMES_PER_ROUND) resolveDone(performance.now() - first);
  });
  feeder.postMessage({ cmd: 'blast', n: FRAMES_PER_ROUND });
  const ms = await done;
  await close();
  return ((FRAMES_PER_ROUND - 1) / ms) * 1000;
}

export async function runClientReceive(): Promise<BenchResult[]> {
  const notification = JSON.stringify({
    jsonrpc: '2.0',
    method: 'subscription',
    params: { channel: ADDRESS, data: orderbookFrame(10) },
  });
  const feeder = new Worker(feederSource, {
    eval: true,
    workerData: { ws: createRequire(import.meta.url).resolve('ws'), frame: notification },
  });
  const port = await new Promise<number>((resolve, reject) => {
    feeder.once('message', (m: { port: number }) => resolve(m.port));
    feeder.once('error', reject);
  });
  const url = `ws://127.0.0.1:${port}/v3/ws`;
  const receivers = [raw, clientReceiver('off'), clientReceiver('strict')];
  const rates = new Map<string, number[]>(receivers.map((r) => [r.name, []]));
  try {
    for (const r of receivers) await round(feeder, url, r); // warm the JIT
    for (let i = 0; i < ROUNDS; i++) for (const r of receivers) rates.get(r.name)!.push(await round(feeder, url, r));
  } finally {
    feeder.postMessage({ cmd: 'stop' });
  }
  // Ratios within a round, then the median: a noisy round moves its own ratio, not every one.
  const control = rates.get(raw.name)!;
  const ratio = (name: string) => median(rates.get(name)!.map((v, i) => v / control[i]!));
  return [
    {
      name: 'client receive raw ws control (notifications/s)',
      value: Math.round(median(control)),
      op: '>=',
      target: 0,
    },
    { name: 'client receive validate off / raw ws', value: ratio('client validate off'), op: '>=', target: 0.9 },
    { name: 'client receive validate strict / raw ws', value: ratio('client validate strict'), op: '>=', target: 0.75 },
  ];
}

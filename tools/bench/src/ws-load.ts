/**
 * The client side of the load benchmarks: many plain `ws` connections that subscribe and count what
 * they receive (pushes are never parsed), and one probe connection that times requests one at a time.
 */
import { WebSocket } from 'ws';

const OPEN_BATCH = 250;
const REPLY_MS = 15_000;
const REPLY_PREFIX = '{"jsonrpc":"2.0","id":';

/** Open one connection; rejects on an error or after REPLY_MS. */
export function open(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (ws.terminate(), reject(new Error(`no open within ${REPLY_MS} ms`))), REPLY_MS);
    ws.once('open', () => (clearTimeout(timer), resolve(ws)));
    ws.once('error', (err) => (clearTimeout(timer), reject(err)));
  });
}

/** Send one request and resolve with its reply's text (the first frame that is a reply). */
export function request(ws: WebSocket, id: number, method: string, params: unknown = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error(`${method}: no reply within ${REPLY_MS} ms`))), REPLY_MS);
    const onMessage = (data: unknown) => {
      const text = String(data);
      if (!text.startsWith(REPLY_PREFIX)) return;
      off();
      resolve(text);
    };
    const off = () => (clearTimeout(timer), ws.off('message', onMessage));
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  });
}

/** `n` connections, each subscribed to `channels` (refused subscriptions are an error), every frame counted. */
export class Crowd {
  /** Frames received since the last reset, over every connection. */
  received = 0;
  readonly sockets: WebSocket[] = [];

  static async open(url: string, n: number, channels: string[]): Promise<Crowd> {
    const crowd = new Crowd();
    try {
      // Every connection first, then every subscription: opening is quicker before the pushes start.
      for (let i = 0; i < n; i += OPEN_BATCH)
        crowd.sockets.push(
          ...(await Promise.all(Array.from({ length: Math.min(OPEN_BATCH, n - i) }, () => open(url)))),
        );
      await Promise.all(crowd.sockets.map((ws) => subscribe(ws, channels)));
    } catch (err) {
      crowd.close();
      throw err;
    }
    for (const ws of crowd.sockets) ws.on('message', () => crowd.received++);
    return crowd;
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.length = 0;
  }
}

async function subscribe(ws: WebSocket, channels: string[]): Promise<void> {
  const reply = await request(ws, 1, 'subscribe', { channels });
  const status = (JSON.parse(reply) as { result?: { status?: Record<string, string> } }).result?.status ?? {};
  const refused = channels.filter((c) => status[c] !== 'ok');
  if (refused.length > 0) throw new Error(`subscribe refused ${refused[0]}: ${reply.slice(0, 300)}`);
}

/** Milliseconds each of `count` requests took, sent one at a time, `gapMs` apart, on one connection. */
export async function timeRequests(ws: WebSocket, method: string, count: number, gapMs = 0): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const reply = await request(ws, i + 2, method);
    times.push(performance.now() - t0);
    if (!reply.includes('"result"')) throw new Error(`${method} failed: ${reply.slice(0, 300)}`);
    if (gapMs > 0) await sleep(gapMs);
  }
  return times;
}

/** The p-th percentile (0 to 100) of a list, nearest rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A whole number from the environment within [min, max], the default when unset; an error names the variable. */
export function envInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  return n;
}

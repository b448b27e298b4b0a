/**
 * A WebSocket proxy in front of the sandbox that departs from the spec only on some inputs: a hook sees
 * each request and may answer it itself, rewrite it, or drop the connection; another may rewrite pushes.
 * The servers it makes conform on everything a hand-written check sends, and fail on generated inputs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** A request as the proxy read it. */
export interface Req {
  id: unknown;
  method: string;
  params: unknown;
}

/** What a request hook decides: answer with this error or result, forward these params instead, or close. */
export type Decision =
  | { error: { code: number; message: string; data?: string } }
  | { result: unknown }
  | { params: unknown }
  | 'close'
  | 'silent'
  | undefined;

export interface Faults {
  request?: (r: Req) => Decision;
  /**
   * Rewrite the data of a push on a channel (return it unchanged to leave it); `subscribed`: what the
   * connection asked for.
   */
  push?: (channel: string, data: unknown, subscribed: ReadonlySet<string>) => unknown;
  /**
   * Rewrite the JSON body of an HTTP answer (`method`: the path after /v3/); without it HTTP goes straight to the
   * sandbox.
   */
  http?: (method: string, body: unknown) => unknown;
}

export interface Faulty {
  wsUrl: string;
  httpUrl: string;
  close(): Promise<void>;
}

/** Follow what a connection asked to be subscribed to (whatever the server answered). */
function track(req: Req, subscribed: Set<string>): void {
  const channels = (req.params as { channels?: unknown } | null)?.channels;
  const list = Array.isArray(channels) ? channels.map(String) : null;
  if (req.method === 'subscribe') list?.forEach((c) => subscribed.add(c));
  else if (req.method === 'unsubscribe' && list) list.forEach((c) => subscribed.delete(c));
  else if (req.method === 'unsubscribe') subscribed.clear();
}

function answer(client: WebSocket, raw: string, upstream: WebSocket, faults: Faults, subscribed: Set<string>): void {
  let req: Req;
  try {
    req = JSON.parse(raw) as Req;
  } catch {
    upstream.send(raw);
    return;
  }
  track(req, subscribed);
  const d = faults.request?.(req);
  if (d === 'silent') return;
  if (d === 'close') client.terminate();
  else if (d && 'error' in d) client.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, error: d.error }));
  else if (d && 'result' in d) client.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, result: d.result }));
  else if (d && 'params' in d) upstream.send(JSON.stringify({ ...req, params: d.params }));
  else upstream.send(raw);
}

function rewritePush(text: string, faults: Faults, subscribed: ReadonlySet<string>): string {
  if (!faults.push) return text;
  try {
    const f = JSON.parse(text) as { method?: string; params?: { channel?: string; data?: unknown } };
    if (f.method !== 'subscription' || typeof f.params?.channel !== 'string') return text;
    return JSON.stringify({
      ...f,
      params: { ...f.params, data: faults.push(f.params.channel, f.params.data, subscribed) },
    });
  } catch {
    return text;
  }
}

/** Relay one HTTP request to the sandbox and its answer back, the JSON body rewritten by the hook. */
async function relayHttp(upstream: string, faults: Faults, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!faults.http) return void res.writeHead(404).end();
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    const up = await fetch(`${upstream}${req.url ?? '/'}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'host'),
      ),
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await up.text();
    let body = text;
    try {
      body = JSON.stringify(faults.http(String(req.url ?? '').replace(/^\/v3\//, ''), JSON.parse(text)));
    } catch {
      // not JSON: relayed as it came
    }
    res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' }).end(body);
  } catch (err) {
    res.writeHead(502).end((err as Error).message);
  }
}

/** Start a faulty server relaying to `upstream` (WebSocket only; HTTP goes straight to the sandbox). */
export async function startFaulty(upstream: { wsUrl: string; httpUrl: string }, faults: Faults): Promise<Faulty> {
  const server = createServer((req, res) => void relayHttp(upstream.httpUrl, faults, req, res));
  const wss = new WebSocketServer({ server });
  const sockets = new Set<WebSocket>();
  wss.on('connection', (client) => {
    const up = new WebSocket(upstream.wsUrl);
    const pending: string[] = [];
    const subscribed = new Set<string>();
    sockets.add(client).add(up);
    up.on('open', () => pending.splice(0).forEach((t) => answer(client, t, up, faults, subscribed)));
    client.on('message', (data) =>
      up.readyState === WebSocket.OPEN
        ? answer(client, data.toString(), up, faults, subscribed)
        : pending.push(data.toString()),
    );
    up.on(
      'message',
      (data) => client.readyState === WebSocket.OPEN && client.send(rewritePush(data.toString(), faults, subscribed)),
    );
    up.on('close', () => client.close());
    client.on('close', () => up.close());
    up.on('error', () => undefined);
    client.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}/v3/ws`,
    httpUrl: faults.http ? `http://127.0.0.1:${port}` : upstream.httpUrl,
    close: async () => {
      for (const s of sockets) s.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

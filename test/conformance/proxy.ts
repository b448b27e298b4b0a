/**
 * A frame-rewriting proxy for breaking a conforming server on purpose: WebSocket and HTTP on one loopback
 * port, relaying to the sandbox, with hooks that rewrite, drop or inject frames per connection.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { errorOfKind } from '@exchange-api/types';

/** The connection-limit refusal, as the spec's error table gives it. */
const limit = errorOfKind('connection-limit');

/** Per-connection state the hooks may keep (e.g. request ids to rewrite, login state). */
export type ConnState = Record<string, unknown> & { send: (text: string) => void };

/** What a hook returns: the frame (maybe rewritten), several frames, or null to drop it. */
export type Rewrite = string | string[] | null;

export interface ProxyHooks {
  /** A frame from the client on its way to the server. */
  toServer?: (text: string, state: ConnState) => Rewrite;
  /** A frame from the server on its way to the client. */
  toClient?: (text: string, state: ConnState) => Rewrite;
  /** An HTTP response body on its way to the client. */
  http?: (path: string, body: string, status: number) => { status: number; body: string };
  /** Keep the client open when the server refuses the connection over the limit (swallow the frame and close). */
  acceptOverLimit?: boolean;
  /**
   * Refuse a connection here as the server refuses one over the limit (the text frame, close 1008), never
   * relaying it, when this says so; `open` is how many other client connections the proxy holds.
   */
  refuse?: (open: number) => boolean;
}

export interface Proxy {
  wsUrl: string;
  httpUrl: string;
  close(): Promise<void>;
}

/** The client sides of the relayed connections, of every proxy (a socket is in one proxy's set only). */
const clients = new WeakSet<WebSocket>();

const out = (r: Rewrite): string[] => (r === null ? [] : Array.isArray(r) ? r : [r]);

/** Relay one client connection to the upstream WebSocket through the hooks; both sockets go into `sockets`. */
function relay(
  client: WebSocket,
  req: IncomingMessage,
  upstream: { wsUrl: string },
  hooks: ProxyHooks,
  sockets: Set<WebSocket>,
): void {
  const open = [...sockets].filter((s) => s.readyState === WebSocket.OPEN && clients.has(s)).length;
  if (hooks.refuse?.(open)) {
    const refusal = { jsonrpc: '2.0', id: null, error: { code: limit.code, message: limit.message } };
    client.send(`${limit.textFramePrefix} ${JSON.stringify(refusal)}`);
    client.close(1008, 'connection limit');
    return;
  }
  sockets.add(client);
  clients.add(client);
  client.on('close', () => {
    sockets.delete(client);
    clients.delete(client);
  });
  const up = new WebSocket(new URL(req.url ?? '/v3/ws', upstream.wsUrl));
  sockets.add(up);
  up.on('close', () => sockets.delete(up));
  const pending: string[] = [];
  let overLimit = false;
  const state: ConnState = { send: (t) => client.readyState === WebSocket.OPEN && client.send(t) };
  client.on('message', (data) => {
    for (const t of out(hooks.toServer ? hooks.toServer(data.toString(), state) : data.toString())) {
      if (up.readyState === WebSocket.OPEN) up.send(t);
      else pending.push(t);
    }
  });
  up.on('open', () => {
    for (const t of pending.splice(0)) up.send(t);
  });
  up.on('message', (data) => {
    const text = data.toString();
    if (hooks.acceptOverLimit && text.startsWith('connectionLimitExceeded:')) {
      overLimit = true;
      return;
    }
    for (const t of out(hooks.toClient ? hooks.toClient(text, state) : text)) state.send(t);
  });
  up.on('close', (code, reason) => {
    if (!overLimit && client.readyState === WebSocket.OPEN)
      client.close(code === 1005 || code === 1006 ? 1000 : code, reason);
  });
  up.on('error', () => undefined);
  client.on('error', () => undefined);
  client.on('close', () => up.close());
}

/** Start a proxy in front of a server's WebSocket and HTTP URLs. */
export async function startProxy(upstream: { wsUrl: string; httpUrl: string }, hooks: ProxyHooks = {}): Promise<Proxy> {
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
    try {
      const r = await fetch(new URL(req.url ?? '/', upstream.httpUrl), {
        method: req.method ?? 'POST',
        headers,
        body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
      });
      let body = await r.text();
      let status = r.status;
      if (hooks.http) ({ status, body } = hooks.http(req.url ?? '/', body, status));
      res.writeHead(status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(body);
    } catch (err) {
      res.writeHead(502).end(String(err));
    }
  });
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (client) => wss.emit('connection', client, req)),
  );
  wss.on('connection', (client: WebSocket, req: IncomingMessage) => relay(client, req, upstream, hooks, sockets));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    wsUrl: `ws://127.0.0.1:${port}/v3/ws`,
    httpUrl: `http://127.0.0.1:${port}`,
    async close() {
      for (const s of sockets) s.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Parse a frame, let `edit` change it, serialise it again (non-JSON frames pass as they are). */
export function editJson(text: string, edit: (msg: any) => unknown): string | string[] | null {
  let msg: any;
  try {
    msg = JSON.parse(text);
  } catch {
    return text;
  }
  const r = edit(msg);
  if (r === null) return null;
  if (Array.isArray(r) && r.every((x) => typeof x === 'string')) return r as string[];
  return JSON.stringify(msg);
}

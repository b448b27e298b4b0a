/**
 * Hostile servers for the runner: small real servers on loopback (port 0) that are not exchanges at all,
 * each wrong in one way. The runner must never pass a check against them, since none of them gives
 * positive evidence of anything. Each returns its URLs and a close() that ends every socket it holds.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** A running hostile server. */
export interface Hostile {
  wsUrl: string;
  httpUrl: string;
  close(): Promise<void>;
}

/** What a hostile server does with a WebSocket frame and with an HTTP request. */
interface Behaviour {
  /** Called once per WebSocket connection (after the handshake). */
  onConnection?: (ws: WebSocket) => void;
  /** Called for each WebSocket frame received. */
  onFrame?: (ws: WebSocket, data: Buffer, isBinary: boolean) => void;
  /** Answer an HTTP request (its body read); leave it unanswered by not ending `res`. */
  onHttp: (req: IncomingMessage, body: string, res: ServerResponse) => void;
  /** Refuse every WebSocket upgrade with this HTTP status instead of completing it. */
  refuseUpgrade?: number;
}

/** An HTTP + WebSocket server on one loopback port with the given behaviour. */
async function serve(b: Behaviour): Promise<Hostile> {
  const pending = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      pending.add(res);
      res.on('close', () => pending.delete(res));
      b.onHttp(req, Buffer.concat(chunks).toString(), res);
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (b.refuseUpgrade) {
      socket.end(`HTTP/1.1 ${b.refuseUpgrade} Upgrade Required\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => undefined);
      b.onConnection?.(ws);
      ws.on('message', (data, isBinary) => b.onFrame?.(ws, data as Buffer, isBinary));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    wsUrl: `ws://127.0.0.1:${port}/v3/ws`,
    httpUrl: `http://127.0.0.1:${port}`,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      for (const res of pending) res.destroy();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends every WebSocket frame back as it came, and every HTTP body back with 200. */
export function echoServer(): Promise<Hostile> {
  return serve({
    onFrame: (ws, data, isBinary) => ws.send(data, { binary: isBinary }),
    onHttp: (_req, body, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(body),
  });
}

/** Completes the WebSocket handshake, then never sends a frame; never answers an HTTP request. */
export function silentPeer(): Promise<Hostile> {
  return serve({ onHttp: () => undefined });
}

/** Answers every WebSocket frame, and greets every connection, with frames that are not JSON; HTTP 200 with garbage. */
export function garbageServer(): Promise<Hostile> {
  const garbage = () => `\u0000}{ not json ${Math.random().toString(36).slice(2)} ]]`;
  return serve({
    onConnection: (ws) => ws.send(garbage()),
    onFrame: (ws) => {
      ws.send(garbage());
      ws.send(Buffer.from([0xff, 0xfe, 0x00, 0x7b]), { binary: true });
    },
    onHttp: (_req, _body, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(garbage()),
  });
}

/** Answers every HTTP request, the WebSocket upgrade included, with 426 Upgrade Required. */
export function upgradeRequired(): Promise<Hostile> {
  return serve({
    refuseUpgrade: 426,
    onHttp: (_req, _body, res) =>
      void res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' }).end('Upgrade Required'),
  });
}

/** A request frame as an object (null when it is not JSON or not an object). */
function frameOf(text: string): { id?: unknown; method?: unknown; params?: { instrument_type?: unknown } } | null {
  try {
    const m = JSON.parse(text) as unknown;
    return m && typeof m === 'object' ? m : null;
  } catch {
    return null;
  }
}

/** The id of a request frame (null when it has none or is not JSON). */
function idOf(text: string): unknown {
  const m = frameOf(text);
  return m && 'id' in m ? m.id : null;
}

/**
 * Refuses everything, in good form: every request gets a JSON-RPC error echoing its id; every HTTP request
 * 401 with one.
 */
export function refuser(): Promise<Hostile> {
  const error = (id: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error', data: 'refused' } });
  return serve({
    onFrame: (ws, data) => ws.send(error(idOf(data.toString()))),
    onHttp: (_req, body, res) => void res.writeHead(401, { 'content-type': 'application/json' }).end(error(idOf(body))),
  });
}

/** Accepts TCP connections and never writes a byte: no WebSocket handshake, no HTTP answer. */
export async function blackHole(): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    wsUrl: `ws://127.0.0.1:${port}/v3/ws`,
    httpUrl: `http://127.0.0.1:${port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What escapeSequences() puts in its error messages: erase the line and draw a PASS over it, then retitle the
 * terminal.
 */
export const FORGED = '\x1b[2K\r[ 1/1] PASS         forged\x1b]0;retitled\x07';

/**
 * Lists one instrument and refuses every other request in good form, with terminal escape sequences in
 * the instrument's name and in every error's message and data: text a console must show, not obey.
 * With `hold`, only the discovery (the first connection) is answered at once: the checks' connections
 * get their answers once `hold` resolves, so a test knows the run is still going when it acts.
 */
export function escapeSequences(hold: Promise<void> = Promise.resolve()): Promise<Hostile> {
  const name = `ETH-PERP${FORGED}`;
  let discovery: WebSocket | undefined;
  const answer = (text: string) => {
    const id = idOf(text);
    const frame = frameOf(text);
    // The list names it; its record (kind, currency) is the list by type's, for perps.
    if (frame?.method === 'public/get_all_live_instruments') return { jsonrpc: '2.0', id, result: [name] };
    if (frame?.method === 'public/get_all_instruments' && frame.params?.instrument_type === 'perp') {
      const record = { instrument_name: name, instrument_type: 'perp', base_currency: 'ETH' };
      return { jsonrpc: '2.0', id, result: { instruments: [record] } };
    }
    return { jsonrpc: '2.0', id, error: { code: -32603, message: FORGED, data: FORGED } };
  };
  return serve({
    onConnection: (ws) => void (discovery ??= ws),
    onFrame: (ws, data) => {
      const frame = JSON.stringify(answer(data.toString()));
      if (ws === discovery) ws.send(frame);
      else void hold.then(() => ws.send(frame));
    },
    onHttp: (_req, body, res) =>
      void hold.then(() =>
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(answer(body))),
      ),
  });
}

/**
 * A scripted JSON-RPC peer on 127.0.0.1 port 0 for the client's unit tests: it answers subscribe
 * and unsubscribe the way the spec assumes, and every other method through `answer`. Not a mock of
 * our code: the client talks to it over a real socket.
 */
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';

export interface Request {
  id: number;
  method: string;
  params: any;
}

export interface Peer {
  url: string;
  sockets: Set<WebSocket>;
  requests: Request[];
  /** Every subscribe request's channels, in order. */
  subscribeBatches: string[][];
  /** Channels subscribed per socket. */
  subs: Map<WebSocket, Set<string>>;
  answer: (req: Request, ws: WebSocket) => unknown | undefined;
  /** Refuse these addresses in subscribe status. */
  refuse: Set<string>;
  /** Refuse any subscribe batch of more than one channel with -32602. */
  refuseBatches: boolean;
  /** Refuse new connections as a server over its connection limit does: this text frame, then close 1008. */
  refuseConnections: string | null;
  /** Connections refused so far. */
  refused: number;
  push(channel: string, data: unknown): void;
  drop(): void;
  close(): Promise<void>;
}

/** Start a scripted peer on 127.0.0.1 port 0. */
export async function startPeer(): Promise<Peer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const port = (wss.address() as AddressInfo).port;
  const peer: Peer = {
    url: `ws://127.0.0.1:${port}/v3/ws`,
    sockets: new Set(),
    requests: [],
    subscribeBatches: [],
    subs: new Map(),
    refuse: new Set(),
    refuseBatches: false,
    refuseConnections: null,
    refused: 0,
    answer: () => undefined,
    push(channel, data) {
      const frame = JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel, data } });
      for (const [ws, set] of peer.subs) if (set.has(channel)) ws.send(frame);
    },
    drop() {
      for (const ws of peer.sockets) ws.terminate();
    },
    async close() {
      for (const ws of peer.sockets) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
  wss.on('connection', (ws) => serve(peer, ws));
  return peer;
}

/** One connection of the peer: refused when `refuseConnections` says so, else answered frame by frame. */
function serve(peer: Peer, ws: WebSocket): void {
  if (peer.refuseConnections !== null) {
    peer.refused++;
    ws.send(peer.refuseConnections);
    ws.close(1008, 'Number of concurrent websocket clients limit exceeded');
    return;
  }
  peer.sockets.add(ws);
  peer.subs.set(ws, new Set());
  ws.on('close', () => {
    peer.sockets.delete(ws);
    peer.subs.delete(ws);
  });
  ws.on('message', (raw) => {
    const req = JSON.parse(String(raw)) as Request;
    peer.requests.push(req);
    const body = answerTo(peer, req, ws);
    if (body !== undefined) ws.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, ...body }));
  });
}

/** The answer to one request (subscribe and unsubscribe as the spec assumes, the rest through `answer`), or none. */
function answerTo(peer: Peer, req: Request, ws: WebSocket): object | undefined {
  const set = peer.subs.get(ws)!;
  if (req.method === 'subscribe') {
    const channels: string[] = req.params.channels;
    peer.subscribeBatches.push(channels);
    if (peer.refuseBatches && channels.length > 1) return { error: { code: -32602, message: 'Invalid params' } };
    const status: Record<string, string> = {};
    for (const c of channels) {
      if (peer.refuse.has(c)) status[c] = 'refused for the test';
      else {
        status[c] = 'ok';
        set.add(c);
      }
    }
    return { result: { status, current_subscriptions: [...set] } };
  }
  if (req.method === 'unsubscribe') {
    const status: Record<string, string> = {};
    for (const c of req.params.channels ?? [...set]) {
      set.delete(c);
      status[c] = 'ok';
    }
    return { result: { status, current_subscriptions: [...set] } };
  }
  const out = peer.answer(req, ws);
  if (out !== undefined) return out as object;
  // The client's first exchange on a connection without login or subscriptions is getRateLimits.
  return req.method === 'public/getRateLimits' ? { result: fullBudgets } : undefined;
}

/** What getRateLimits answers when `answer` does not: every budget full. */
export const fullBudgets = {
  remaining_matching: { remainingPoints: 5, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false },
  remaining_non_matching: { remainingPoints: 25, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false },
  remaining_per_endpoint: {},
};

/** Resolve when `check` holds, polling; reject after `ms`. */
export async function until(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A valid order book payload. */
export function book(publishId: number) {
  return {
    instrument_name: 'ETH-PERP',
    publish_id: publishId,
    timestamp: 1767225600000 + publishId,
    bids: [['3000.0', '1.5']],
    asks: [['3000.5', '2']],
  };
}

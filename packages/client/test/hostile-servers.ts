/**
 * Hostile servers for the client's tests, each a real server on 127.0.0.1 port 0:
 * - black hole: accepts TCP and never completes the WebSocket handshake (never writes a byte);
 * - silent peer: completes the handshake and never answers;
 * - garbage: completes the handshake and answers every frame with frames that are not JSON;
 * - echo: completes the handshake and sends every frame back as it came.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** A running hostile server. */
export interface HostileServer {
  /** WebSocket URL of the server (`ws://127.0.0.1:<port>/v3/ws`). */
  url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Text frames received so far (always 0 for the black hole, which never gets that far). */
  readonly framesReceived: number;
  /** Stop listening and destroy every connection. */
  close(): Promise<void>;
}

/** Accepts TCP connections, reads and discards what comes, and never answers: no handshake ever completes. */
export async function startBlackHole(): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/v3/ws`,
    get connections() {
      return connections;
    },
    framesReceived: 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A WebSocket server whose every text frame gets `reply(frame, ws)`. */
async function startWebSocketPeer(reply: (frame: string, ws: WebSocket) => void): Promise<HostileServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as AddressInfo;
  let connections = 0;
  let framesReceived = 0;
  wss.on('connection', (ws) => {
    connections++;
    ws.on('message', (data) => {
      framesReceived++;
      reply(String(data), ws);
    });
  });
  return {
    url: `ws://127.0.0.1:${port}/v3/ws`,
    get connections() {
      return connections;
    },
    get framesReceived() {
      return framesReceived;
    },
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Completes the WebSocket handshake, then never sends anything. */
export function startSilentPeer(): Promise<HostileServer> {
  return startWebSocketPeer(() => {});
}

/**
 * Completes the handshake, then answers every frame with frames that are not JSON-RPC answers: not JSON, and
 * a bare number.
 */
export function startGarbagePeer(): Promise<HostileServer> {
  return startWebSocketPeer((_frame, ws) => {
    ws.send('}{ not json');
    ws.send('42');
  });
}

/** Completes the handshake, then sends every frame back unchanged. */
export function startEchoPeer(): Promise<HostileServer> {
  return startWebSocketPeer((frame, ws) => ws.send(frame));
}

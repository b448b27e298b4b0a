/**
 * The WebSocket transport at /v3/ws: admission (the per-IP connection limit and its exact refusal
 * frame), framing (text frames only, the size limits), one request at a time per connection through
 * the pipeline, and the cleanup when a connection closes for any reason.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Slots } from './admission';
import { stripV6 } from './accounts';
import type { Connection, ConnectionRegistry } from './connection';
import { admitFrame } from './envelope';
import type { Faults } from './faults';
import { refuseOrigin, type AllowedOrigins } from './origin-policy';
import type { Pipeline } from './pipeline';
import {
  RpcFailure,
  connectionLimitCode,
  connectionLimitPrefix,
  errorFrame,
  errorObject,
  namedError,
  NULL_ID,
  replyFrame,
  wireErrorOf,
} from './rpc';
import type { SubscriptionIndex } from './subscriptions';

/**
 * Frames (and HTTP bodies) beyond this are not read at all: the WebSocket layer closes the connection
 * with 1009, so a peer cannot make the server buffer without bound (the frame-size assumption). Frames
 * between `max_frame_bytes` and this are read and answered -32600, and the connection stays open.
 */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/** A refused peer that does not answer the close handshake is cut off after this long. */
const REFUSED_CLOSE_MS = 1000;

/** The parts the WebSocket transport drives. */
export interface WsParts {
  maxFrameBytes: number;
  admission: Slots;
  connections: ConnectionRegistry;
  index: SubscriptionIndex;
  pipeline: Pipeline;
  faults: Faults;
  /** The web pages that may open the WebSocket (origin-policy.ts). */
  allowedOrigins: AllowedOrigins;
}

/** The WebSocket side of the sandbox. */
export class WsTransport {
  private readonly wss: WebSocketServer;
  /** Refused sockets still closing, so that shutdown can cut them off too. */
  private readonly refused = new Set<WebSocket>();

  constructor(private readonly parts: WsParts) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: Math.max(MAX_READ_BYTES, parts.maxFrameBytes) });
  }

  /** Complete an upgrade request for /v3/ws. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refusal = refuseOrigin(req.headers.origin, this.parts.allowedOrigins);
    if (refusal !== null) {
      // Before the upgrade, so a refused page holds no connection slot: a plain 403 naming the Origin.
      const body = JSON.stringify({ error: refusal });
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}` +
          `\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, stripV6(req.socket.remoteAddress ?? 'unknown')));
  }

  private accept(ws: WebSocket, ip: string): void {
    const { admission, connections, faults } = this.parts;
    // A protocol error (a bad frame, invalid UTF-8, a frame over 16 MiB) or a reset: ws closes the socket
    // itself. The error is the peer's, but it is not dropped: counted, and said once (faults.ts).
    ws.on('error', (err) => faults.report('server', `WebSocket from ${ip}`, err));
    const conn = connections.open(ws, ip);
    // The count may answer later (a fleet's, in Redis): the connection is registered at once and its first
    // frames wait in its queue for the answer; refused, it is forgotten and gets the refusal frame. When
    // the count cannot be reached, the connection is closed (1011) with the reason, never admitted on a guess.
    const taken = Promise.resolve()
      .then(() => admission.tryTake(ip, conn.id))
      .catch((err: Error) => {
        connections.forget(conn);
        ws.close(1011, `connection count unreachable: ${err.message}`.slice(0, 120));
        return null;
      });
    const admitted = taken.then((ok) => {
      if (ok === false) {
        connections.forget(conn);
        this.refuse(ws);
      }
      return ok === true;
    });
    this.serveConnection(conn, admitted);
  }

  /** Serve a connection's frames once `admitted` says yes, one at a time; free its slot when it closes. */
  private serveConnection(conn: Connection, admitted: Promise<boolean>): void {
    const { admission, connections, index, faults } = this.parts;
    const { ws, ip } = conn;
    // Settled before the queue's first step runs (registered first), so each frame reads it without
    // waiting on the admission again.
    let ok = false;
    void admitted.then((yes) => (ok = yes));
    conn.queue = admitted.then(() => {});
    ws.on('pong', () => (conn.alive = true));
    ws.on('message', (data, isBinary) => {
      conn.alive = true;
      conn.queue = conn.queue
        .then(() => (ok ? this.serve(conn, data, isBinary) : undefined))
        .catch((err) => {
          faults.report('server', `WebSocket request from ${ip}`, err);
          conn.send(errorFrame(NULL_ID, wireErrorOf(err)));
        });
    });
    ws.on('close', () => {
      conn.clearTimers();
      index.removeAll(conn);
      connections.forget(conn);
      void admitted.then((ok) => ok && admission.release(ip, conn.id));
    });
  }

  /** The connection-limit refusal: one text frame, errorTable's prefix and a response, then close 1008. */
  private refuse(ws: WebSocket): void {
    const error = errorObject(connectionLimitCode);
    this.refused.add(ws);
    ws.on('close', () => this.refused.delete(ws));
    ws.send(`${connectionLimitPrefix} ${errorFrame(NULL_ID, error)}`);
    ws.close(1008, error.message);
    setTimeout(() => ws.terminate(), REFUSED_CLOSE_MS).unref();
  }

  /** Serve one frame of a connection: framing errors answered here, requests through the pipeline. */
  private async serve(conn: Connection, data: RawData, isBinary: boolean): Promise<void> {
    if (isBinary)
      return conn.send(
        errorFrame(NULL_ID, namedError('RPC_PARSE_ERROR', 'binary frames are not accepted: send JSON text frames')),
      );
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const max = this.parts.maxFrameBytes;
    if (buf.length > max)
      return conn.send(
        errorFrame(
          NULL_ID,
          namedError('RPC_INVALID_REQUEST', `frame of ${buf.length} bytes is over the ${max}-byte limit`),
        ),
      );
    const admitted = admitFrame(buf.toString('utf8'));
    if (!admitted.ok) return conn.send(errorFrame(admitted.id, admitted.error));
    const { id, method, params, headers } = admitted.request;
    try {
      const result = await this.parts.pipeline(
        { transport: 'ws', ip: conn.ip, conn, session: conn.session, headers, spent: null },
        method,
        params,
      );
      conn.send(replyFrame(id, result));
    } catch (err) {
      // -32603 is a failure of ours, not of the request: counted and reported, as well as answered.
      if (!(err instanceof RpcFailure)) this.parts.faults.report('server', `WebSocket ${method}`, err);
      conn.send(errorFrame(id, wireErrorOf(err)));
    }
  }

  /** Cut off every socket, admitted or refused, and stop accepting. */
  async close(): Promise<void> {
    for (const ws of this.refused) ws.terminate();
    this.refused.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

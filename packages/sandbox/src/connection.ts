/**
 * One WebSocket connection and the registry of open ones. A connection owns its send path (with the
 * control plane's injected delay and the cut-off for a reader that falls too far behind), its login,
 * its subscriptions, its request queue and whether it has shown signs of life since the last heartbeat.
 */
import { WebSocket } from 'ws';
import type { Session } from './accounts';

/**
 * A subscriber this far behind (bytes queued by the kernel and ws) is cut off rather than buffered
 * without bound: a slow reader costs the server at most this much before it is dropped.
 */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** One WebSocket connection. */
export class Connection {
  session: Session | null = null;
  readonly subscriptions = new Set<string>();
  /** Milliseconds every outgoing frame is held (the control plane's delay); 0 sends at once. */
  delayMs = 0;
  /** Whether the peer answered a ping or sent a frame since the last heartbeat. */
  alive = true;
  /** Requests of one connection are served one at a time, in order. */
  queue: Promise<void> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly id: number,
    readonly ws: WebSocket,
    readonly ip: string,
  ) {}

  /** Send a frame now, or after the injected delay. Buffers go out as text frames. */
  send(frame: string | Buffer): void {
    if (this.delayMs > 0) {
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.sendNow(frame);
      }, this.delayMs);
      this.timers.add(t);
      return;
    }
    this.sendNow(frame);
  }

  private sendNow(frame: string | Buffer): void {
    const ws = this.ws;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return;
    }
    ws.send(frame, { binary: false });
  }

  /** Cancel the frames still held by a delay. */
  clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Ask the peer for a sign of life (a pong). */
  ping(): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.ping();
  }

  /** Drop the socket at once, without a closing handshake. */
  terminate(): void {
    this.clearTimers();
    this.ws.terminate();
  }
}

/** The open connections by id; ids are small increasing integers, never reused within a sandbox. */
export class ConnectionRegistry {
  private readonly byId = new Map<number, Connection>();
  private nextId = 1;

  /** Register a connection for a new socket. */
  open(ws: WebSocket, ip: string): Connection {
    const conn = new Connection(this.nextId++, ws, ip);
    this.byId.set(conn.id, conn);
    return conn;
  }

  /** Told of every connection closed, once it is forgotten (cancel on disconnect). */
  closed: ((conn: Connection) => void) | null = null;

  /** Forget a closed connection. */
  forget(conn: Connection): void {
    this.byId.delete(conn.id);
    this.closed?.(conn);
  }

  /** Every open connection, or the one with this id (none when it is not open). */
  select(id?: number): Connection[] {
    if (id === undefined) return [...this.byId.values()];
    const conn = this.byId.get(id);
    return conn ? [conn] : [];
  }

  get size(): number {
    return this.byId.size;
  }

  /** Terminate every connection and forget them all. */
  terminateAll(): void {
    for (const conn of this.byId.values()) conn.terminate();
    this.byId.clear();
  }
}

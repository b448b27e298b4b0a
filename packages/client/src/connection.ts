/**
 * The connection's life: open a socket, restore the session on it, count it open only once its
 * first exchange is answered, reconnect with back-off after a drop, close.
 *
 * Every attempt is bounded by `timeoutMs`, from the socket's construction to the first answer: a
 * server that accepts TCP and never completes the WebSocket handshake, or completes it and never
 * answers (silence, garbage, echoes), fails the attempt instead of holding it forever.
 */
import { ConnectError, ConnectionClosedError, ConnectionLimitError, type ClientError } from './errors';
import { backoffDelay, type ReconnectPolicy } from './backoff';
import { asClientError, isDrop } from './faults';
import type { Emitter } from './events';
import type { RpcSession } from './session';
import type { ClientEvents, ConnectionState, WebSocketConstructor, WebSocketLike } from './types';

const OPEN = 1;

/** Where the connection opens sockets, and how long an attempt may take. */
export interface ConnectionSettings {
  url: string;
  WebSocket: WebSocketConstructor;
  /** Null: no reconnect, a drop closes the client. */
  policy: ReconnectPolicy | null;
  timeoutMs: number;
}

/** What the client does at the connection's turns. */
export interface ConnectionHooks {
  /**
   * Restore the session on a new socket (re-login, resubscribe); `isCurrent` turns false once the socket is
   * replaced.
   */
  restore(isCurrent: () => boolean): Promise<void>;
  /** A socket is open (before the restore). */
  opened(): void;
  /** The socket is gone: whatever waited on it fails with `err`. */
  lost(err: ClientError): void;
  /** The client closed for good: by `close()` (`byUser`), or it gave up or could not connect. */
  closed(err: ClientError, byUser: boolean): void;
}

/** One socket's attempt: from construction until it is accepted, then its open life. */
interface Attempt {
  ws: WebSocketLike;
  /** The first exchange was answered and the restore finished: the connection counts as open. */
  accepted: boolean;
  /** The server's connection-limit frame, when it refused this socket with one. */
  limitHit: ConnectionLimitError | null;
  /** The bound of the attempt, cleared by the first answer. */
  deadline: ReturnType<typeof setTimeout> | undefined;
}

interface ReadyWaiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The client's connection: state, attempts, the reconnect schedule and who waits for `open`. */
export class Connection {
  state: ConnectionState = 'idle';
  private current: Attempt | null = null;
  /** Counts close() calls: a reconnect scheduled before one is void after it. */
  private lifetime = 0;
  private failedAttempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly readyWaiters = new Set<ReadyWaiter>();

  constructor(
    private readonly settings: ConnectionSettings,
    private readonly session: RpcSession,
    private readonly events: Emitter<ClientEvents>,
    private readonly hooks: ConnectionHooks,
  ) {}

  /** True while a socket is accepted and open. */
  get isOpen(): boolean {
    return this.state === 'open' && this.current?.accepted === true;
  }

  /** Open the first connection; resolves once it is accepted, rejects when it cannot be. */
  start(): Promise<void> {
    if (this.state === 'open') return Promise.resolve();
    if (this.state === 'connecting' || this.state === 'reconnecting') return this.waitReady();
    this.setState('connecting');
    const ready = this.waitReady();
    this.attempt().catch((err: unknown) => {
      if (this.state === 'connecting') this.closeWith(asClientError(err));
    });
    return ready;
  }

  /** The server refused the current socket for the connection limit (its close follows). */
  connectionLimitHit(err: ConnectionLimitError): void {
    if (this.current) this.current.limitHit = err;
    this.events.emit('error', err);
  }

  /**
   * One attempt: a socket, then the restore on it. Resolves once accepted; rejects when the socket
   * could not be made, closed before that (with the ConnectionLimitError when the server said so),
   * or did not get there within `timeoutMs`.
   */
  private attempt(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let ws: WebSocketLike;
      try {
        ws = new this.settings.WebSocket(this.settings.url);
      } catch (err) {
        reject(new ConnectError(`cannot open ${this.settings.url}: ${(err as Error).message}`, { cause: err }));
        return;
      }
      const attempt: Attempt = { ws, accepted: false, limitHit: null, deadline: undefined };
      this.current = attempt;
      const isCurrent = () => this.current === attempt;
      const fail = (err: ClientError) => {
        clearTimeout(attempt.deadline);
        this.lose(err);
        reject(err);
      };
      attempt.deadline = setTimeout(() => {
        if (!isCurrent()) return;
        this.current = null;
        fail(this.unanswered(ws));
        abandon(ws);
      }, this.settings.timeoutMs);
      this.session.attach(ws, () => clearTimeout(attempt.deadline));
      ws.onopen = () => {
        if (!isCurrent()) return;
        this.hooks.opened();
        this.hooks.restore(isCurrent).then(
          () => isCurrent() && this.accept(attempt, resolve),
          // The socket dropped during the restore: onclose rejects, and the caller retries or gives up.
          (err: unknown) => isCurrent() && !isDrop(err) && this.events.emit('error', asClientError(err)),
        );
      };
      ws.onerror = () => {
        // onclose follows and carries the outcome.
      };
      ws.onclose = (ev) => {
        if (!isCurrent()) return;
        if (attempt.accepted) this.dropped(attempt, ev.code);
        else fail(attempt.limitHit ?? new ConnectError(`cannot connect to ${this.settings.url} (close ${ev.code})`));
      };
    });
  }

  /** Why an attempt ran out of time: no handshake, or no answer to the first exchange. */
  private unanswered(ws: WebSocketLike): ConnectError {
    const { url, timeoutMs } = this.settings;
    if (ws.readyState !== OPEN)
      return new ConnectError(
        `cannot connect to ${url}: the WebSocket handshake did not complete within ${timeoutMs} ms`,
      );
    return new ConnectError(
      `cannot connect to ${url}: the server did not answer the first request within ` +
        `${timeoutMs} ms (a connection counts as open only once answered)`,
    );
  }

  private accept(attempt: Attempt, resolve: () => void): void {
    attempt.accepted = true;
    this.failedAttempts = 0;
    this.setState('open');
    for (const w of this.readyWaiters) w.resolve();
    this.readyWaiters.clear();
    resolve();
  }

  /** The socket is gone: the session and whatever waited on it fail with `err`. */
  private lose(err: ClientError): void {
    this.session.detach(err);
    this.hooks.lost(err);
  }

  /** An accepted socket closed: reconnect, or close when the policy says not to. */
  private dropped(attempt: Attempt, code: number): void {
    this.current = null;
    const err = attempt.limitHit ?? new ConnectionClosedError(`connection closed (${code})`, code);
    this.lose(err);
    if (this.state === 'closed') return;
    if (!this.settings.policy) {
      this.closeWith(err);
      return;
    }
    this.setState('reconnecting');
    this.scheduleReconnect(attempt.limitHit !== null);
  }

  private scheduleReconnect(connectionLimited: boolean): void {
    const policy = this.settings.policy!;
    if (this.failedAttempts >= policy.maxAttempts) {
      this.closeWith(new ConnectError(`gave up after ${this.failedAttempts} reconnect attempts`));
      return;
    }
    const delayMs = backoffDelay(policy, this.failedAttempts, connectionLimited);
    this.failedAttempts++;
    this.events.emit('reconnect', { attempt: this.failedAttempts, delayMs });
    const lifetime = this.lifetime;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.state !== 'reconnecting' || this.lifetime !== lifetime) return;
      this.attempt().catch((err: unknown) => {
        if (this.state !== 'reconnecting' || this.lifetime !== lifetime) return;
        // A connection-limit refusal was reported when its frame came, a socket the constructor refused
        // was not: report it. Either way the next attempt follows the back-off.
        if (err instanceof ConnectError && err.cause !== undefined) this.events.emit('error', err);
        this.scheduleReconnect(err instanceof ConnectionLimitError);
      });
    }, delayMs);
  }

  private closeWith(err: ClientError, byUser = false): void {
    this.setState('closed');
    for (const w of this.readyWaiters) w.reject(err);
    this.readyWaiters.clear();
    this.hooks.closed(err, byUser);
  }

  /**
   * Close for good: whatever waits fails with ConnectionClosedError; no reconnect. Waits up to 1 s for the
   * socket's close.
   */
  async close(): Promise<void> {
    this.lifetime++;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const ws = this.current?.ws ?? null;
    clearTimeout(this.current?.deadline);
    this.current = null;
    const err = new ConnectionClosedError('client closed');
    this.setState('closed');
    this.lose(err);
    this.closeWith(err, true);
    if (ws && ws.readyState <= OPEN) await closeSocket(ws);
  }

  /** Resolves once the connection is open; rejects when it closes (or `signal` aborts) first. */
  waitReady(signal?: AbortSignal): Promise<void> {
    if (this.isOpen) return Promise.resolve();
    if (this.state === 'closed' || this.state === 'idle')
      return Promise.reject(
        new ConnectionClosedError(this.state === 'idle' ? 'not connected: call connect() first' : 'client closed'),
      );
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.readyWaiters.delete(waiter);
        reject(signal!.reason);
      };
      const waiter: ReadyWaiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (e: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
      this.readyWaiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.events.emit('state', state);
  }
}

/** Stop listening to a socket given up on, and close it (a handshake in progress is aborted). */
function abandon(ws: WebSocketLike): void {
  ws.onopen = ws.onclose = ws.onmessage = null;
  // ws emits 'error' when a handshake is aborted: keep a listener so that it is not thrown.
  ws.onerror = () => {};
  try {
    ws.close(1000, 'no answer');
  } catch {
    // Already closing: nothing to do.
  }
}

/** Close a socket and wait for its close, at most 1 s. */
function closeSocket(ws: WebSocketLike): Promise<void> {
  return new Promise<void>((resolve) => {
    const t = setTimeout(resolve, 1000);
    ws.onclose = () => {
      clearTimeout(t);
      resolve();
    };
    ws.onmessage = null;
    ws.close(1000, 'client closed');
  });
}

/**
 * The JSON-RPC session on the current socket: ids, calls waiting for their answer, sending, and the
 * receive path (answers settle their call, notifications go to the subscriptions, faults to `error`).
 */
import { ConnectionClosedError, ProtocolError, type ConnectionLimitError, type RpcErrorObject } from './errors';
import type { Emitter } from './events';
import type { ServerErrors } from './server-errors';
import type { ClientEvents, WebSocketLike } from './types';

// The method of a notification frame the client takes: this interface's (its spec's notification-frame
// assumption; test/core-knows-no-api.test.ts keeps them in step), and the one an SDK README states for its spec.
const NOTIFICATION = 'subscription';
const OPEN = 1;

interface PendingCall {
  method: string;
  resolve: (result: unknown) => void;
  reject: (err: unknown) => void;
}

interface Frame {
  method?: unknown;
  params?: { channel?: unknown; data?: unknown };
  id?: unknown;
  result?: unknown;
  error?: RpcErrorObject;
}

/** Where the session hands what is not an answer. */
export interface SessionRoutes {
  /** A channel notification (`frame` is the raw text, for fault reports). */
  notification(address: unknown, data: unknown, frame: string): void;
  /** The server's connection-limit text frame (the socket closes next). */
  connectionLimit(err: ConnectionLimitError): void;
}

/** Calls in flight on one socket at a time, and the frames that come back on it. */
export class RpcSession {
  private socket: WebSocketLike | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, PendingCall>();
  private onFirstAnswer: (() => void) | null = null;
  /** Whether the current socket has answered any call (an error answer counts). */
  answered = false;
  /** Whether a login succeeded on the current socket (the limiter then draws on the wallet's budgets). */
  authenticated = false;

  constructor(
    private readonly events: Emitter<ClientEvents>,
    private readonly routes: SessionRoutes,
    /** The API's error classes: what an error answer becomes, and its connection-limit frame. */
    private readonly errors: ServerErrors,
  ) {}

  /** Calls sent and not yet answered. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Take `ws` as the session's socket; `onFirstAnswer` runs when it answers its first call. */
  attach(ws: WebSocketLike, onFirstAnswer: () => void): void {
    this.socket = ws;
    this.answered = false;
    this.authenticated = false;
    this.onFirstAnswer = onFirstAnswer;
    ws.onmessage = (ev) => this.receive(ev.data);
  }

  /** The socket is gone: every call sent on it fails with `err`. */
  detach(err: unknown): void {
    this.socket = null;
    this.authenticated = false;
    this.onFirstAnswer = null;
    for (const call of this.pending.values()) call.reject(err);
    this.pending.clear();
  }

  /** Send one request; settles with its answer, or rejects when `signal` aborts or the socket is not open. */
  send(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    const ws = this.socket;
    if (!ws || ws.readyState !== OPEN)
      return Promise.reject(new ConnectionClosedError(`${method}: connection is not open`));
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (fn: (v: unknown) => void) => (v: unknown) => {
        signal.removeEventListener('abort', onAbort);
        fn(v);
      };
      this.pending.set(id, { method, resolve: settle(resolve), reject: settle(reject) });
      try {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      } catch (err) {
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
        reject(new ConnectionClosedError(`${method}: send failed: ${(err as Error).message}`));
      }
    });
  }

  /** One incoming frame: never throws; what cannot be used is reported through `error`. */
  receive(data: unknown): void {
    if (typeof data !== 'string') {
      this.events.emit('error', new ProtocolError('binary', 'binary frame ignored'));
      return;
    }
    const frame = this.parse(data);
    if (!frame) return;
    if (frame.method === NOTIFICATION) {
      this.routes.notification(frame.params?.channel, frame.params?.data, data);
      return;
    }
    if (frame.method !== undefined) {
      // An echo of a request, or a request from the server: neither answers a call.
      this.events.emit(
        'error',
        new ProtocolError(
          'bad-frame',
          `frame is a request (method ${JSON.stringify(frame.method)}), not an answer`,
          data.slice(0, 200),
        ),
      );
      return;
    }
    this.settle(frame, data);
  }

  /** The frame as an object, or null after reporting why not (the connection-limit text frame included). */
  private parse(data: string): Frame | null {
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      const prefix = this.errors.framePrefix;
      if (prefix !== null && data.startsWith(prefix)) this.routes.connectionLimit(this.errors.fromFrame(data));
      else this.events.emit('error', new ProtocolError('garbage', 'frame is not JSON', data.slice(0, 200)));
      return null;
    }
    if (frame === null || typeof frame !== 'object') {
      this.events.emit('error', new ProtocolError('bad-frame', 'frame is not a JSON object', data.slice(0, 200)));
      return null;
    }
    return frame as Frame;
  }

  /** An answer: settles the call with its id. */
  private settle(frame: Frame, data: string): void {
    const id = frame.id;
    const call = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!call) {
      const fault = id === undefined ? 'bad-frame' : 'unknown-id';
      this.events.emit(
        'error',
        new ProtocolError(
          fault,
          id === undefined
            ? 'frame is neither a notification nor a response'
            : `response to unknown id ${JSON.stringify(id)}`,
          data.slice(0, 200),
        ),
      );
      return;
    }
    this.pending.delete(id as number);
    if (!this.answered) {
      this.answered = true;
      this.onFirstAnswer?.();
    }
    if (frame.error && typeof frame.error === 'object') call.reject(this.errors.fromAnswer(frame.error));
    else if ('result' in frame) call.resolve(frame.result);
    else
      call.reject(
        new ProtocolError('bad-frame', `response to ${call.method} has neither result nor error`, data.slice(0, 200)),
      );
  }
}

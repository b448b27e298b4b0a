/**
 * One WebSocket of a message client, at one URL (with the `ws` bindings' headers, where given): opened
 * on first use within the client's bound, text frames handed to the client. A drop fails what waited on
 * it (`dropped`); then, when the client still has streams on it and a reconnect policy, it is reopened
 * with the JSON-RPC client's back-off (backoff.ts) until it opens or the policy gives up. Once it is
 * gone (closed by the client, dropped with nothing to keep, or given up) it is never reopened: the
 * client opens a new one on the next use.
 */
import { backoffDelay, type ReconnectPolicy } from '../backoff';
import { ConnectError, ConnectionClosedError, ProtocolError, type ClientError } from '../errors';
import type { WebSocketConstructor, WebSocketLike } from '../types';

const OPEN = 1;

/** `ws`'s constructor, which takes the handshake's headers (a browser's WebSocket cannot send any). */
type WithHeaders = new (
  url: string,
  protocols: undefined,
  options: { headers: Record<string, string> },
) => WebSocketLike;

export interface SocketHooks {
  frame(socket: MessageSocket, text: string): void;
  fault(socket: MessageSocket, err: ClientError): void;
  /** The connection dropped: what waits on it fails (it may be reopened). */
  dropped(socket: MessageSocket, err: ConnectionClosedError): void;
  /** Whether a dropped socket is worth reopening (the client still streams from it). */
  keep(socket: MessageSocket): boolean;
  reconnect(socket: MessageSocket, info: { attempt: number; delayMs: number }): void;
  /** Open again after a drop (the server may want what the client sent before, a subscription). */
  reopened(socket: MessageSocket, attempts: number): void;
  /** Gone for good: closed by the client, dropped and not kept, or given up on. */
  lost(socket: MessageSocket, err: ClientError): void;
}

export class MessageSocket {
  /** The channels the client reaches through this socket (their messages may arrive on it). */
  readonly channels = new Set<string>();
  private ws: WebSocketLike | null = null;
  private opening: Promise<void> | null = null;
  private gone = false;
  private failedAttempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly WebSocket: WebSocketConstructor,
    private readonly timeoutMs: number,
    private readonly policy: ReconnectPolicy | null,
    private readonly hooks: SocketHooks,
  ) {}

  /** Open (once per connection); rejects with ConnectError when the handshake fails or outlasts the bound. */
  open(): Promise<void> {
    if (this.gone) return Promise.reject(new ConnectionClosedError(`${this.url}: connection closed`));
    return (this.opening ??= this.connect());
  }

  private connect(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let ws: WebSocketLike;
      try {
        ws =
          Object.keys(this.headers).length > 0
            ? new (this.WebSocket as unknown as WithHeaders)(this.url, undefined, { headers: this.headers })
            : new this.WebSocket(this.url);
      } catch (err) {
        const refused = new ConnectError(`${this.url}: ${(err as Error).message}`, { cause: err });
        reject(refused);
        // No close event follows: once open() has kept this attempt, let the next call try again, and,
        // while reopening, say why and try again after the back-off.
        queueMicrotask(() => {
          this.opening = null;
          if (this.failedAttempts === 0 || this.gone) return;
          this.hooks.fault(this, refused);
          this.retry();
        });
        return;
      }
      this.ws = ws;
      let opened = false;
      const timer = setTimeout(() => {
        reject(new ConnectError(`${this.url}: not open within ${this.timeoutMs} ms`));
        ws.close(1000);
      }, this.timeoutMs);
      ws.onopen = () => {
        opened = true;
        const attempts = this.failedAttempts;
        this.failedAttempts = 0;
        clearTimeout(timer);
        resolve();
        if (attempts > 0) this.hooks.reopened(this, attempts);
      };
      ws.onerror = () => undefined; // the close that follows says what happened
      ws.onclose = (ev) => {
        clearTimeout(timer);
        if (this.ws === ws) this.ws = null;
        this.opening = null;
        if (!opened) reject(new ConnectError(`${this.url}: closed before it opened (${ev.code})`));
        if (this.gone) return;
        const err = new ConnectionClosedError(`${this.url}: connection closed (${ev.code})`, ev.code);
        if (opened) this.drop(err);
        else if (this.failedAttempts > 0) this.retry();
        else this.lose(err);
      };
      ws.onmessage = (ev) => {
        // Text frames arrive as strings (the browser's WebSocket and `ws`'s onmessage alike).
        if (typeof ev.data === 'string') this.hooks.frame(this, ev.data);
        else
          this.hooks.fault(
            this,
            new ProtocolError('binary', `${this.url}: a binary frame ignored (JSON text expected)`),
          );
      };
    });
  }

  /** An open connection dropped: fail what waited; reopen when worth it, else gone. */
  private drop(err: ConnectionClosedError): void {
    this.hooks.dropped(this, err);
    if (this.policy && this.hooks.keep(this)) this.retry();
    else this.lose(err);
  }

  /** The next reopening attempt after the back-off, or gone once the policy's attempts are spent. */
  private retry(): void {
    const policy = this.policy!;
    if (this.failedAttempts >= policy.maxAttempts) {
      this.lose(new ConnectError(`${this.url}: gave up after ${this.failedAttempts} reconnect attempts`));
      return;
    }
    const delayMs = backoffDelay(policy, this.failedAttempts, false);
    this.failedAttempts++;
    this.hooks.reconnect(this, { attempt: this.failedAttempts, delayMs });
    this.timer = setTimeout(() => {
      this.timer = null;
      // A send meanwhile may have opened it already. A failed attempt is reported where it ends (`fault`
      // for a socket that could not be made, `dropped` at the close) and retried from there; its rejection
      // here says the same again, to no one waiting.
      if (!this.gone && this.opening === null) this.open().catch(() => undefined);
    }, delayMs);
  }

  async send(text: string): Promise<void> {
    await this.open();
    if (this.gone || this.ws?.readyState !== OPEN) throw new ConnectionClosedError(`${this.url}: connection closed`);
    this.ws.send(text);
  }

  get closed(): boolean {
    return this.gone;
  }

  close(): void {
    this.lose(new ConnectionClosedError(`${this.url}: closed by the client`, 1000));
    this.ws?.close(1000);
  }

  private lose(err: ClientError): void {
    if (this.gone) return;
    this.gone = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.hooks.lost(this, err);
  }
}

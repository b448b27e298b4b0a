/**
 * One WebSocket of a message client, at one URL: opened on first use within the client's bound, text
 * frames handed to the client, and once lost (or closed) never reopened: the client opens a new one.
 */
import { ConnectError, ConnectionClosedError, ProtocolError } from '../errors';
import type { WebSocketConstructor, WebSocketLike } from '../types';

const OPEN = 1;

export interface SocketHooks {
  frame(socket: MessageSocket, text: string): void;
  fault(socket: MessageSocket, err: ProtocolError): void;
  lost(socket: MessageSocket, err: ConnectionClosedError): void;
}

export class MessageSocket {
  /** The channels the client reaches through this socket (their messages may arrive on it). */
  readonly channels = new Set<string>();
  private ws: WebSocketLike | null = null;
  private opening: Promise<void> | null = null;
  private gone = false;

  constructor(
    readonly url: string,
    private readonly WebSocket: WebSocketConstructor,
    private readonly timeoutMs: number,
    private readonly hooks: SocketHooks,
  ) {}

  /** Open once; rejects with ConnectError when the handshake fails or outlasts the bound. */
  open(): Promise<void> {
    return (this.opening ??= new Promise<void>((resolve, reject) => {
      let ws: WebSocketLike;
      try {
        ws = new this.WebSocket(this.url);
      } catch (err) {
        reject(new ConnectError(`${this.url}: ${(err as Error).message}`, { cause: err }));
        return;
      }
      this.ws = ws;
      let opened = false;
      const timer = setTimeout(() => {
        reject(new ConnectError(`${this.url}: not open within ${this.timeoutMs} ms`));
        this.close();
      }, this.timeoutMs);
      ws.onopen = () => {
        opened = true;
        clearTimeout(timer);
        resolve();
      };
      ws.onerror = () => undefined; // the close that follows says what happened
      ws.onclose = (ev) => {
        clearTimeout(timer);
        if (!opened) reject(new ConnectError(`${this.url}: closed before it opened (${ev.code})`));
        this.lose(new ConnectionClosedError(`${this.url}: connection closed (${ev.code})`, ev.code));
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
    }));
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
    this.ws?.close(1000);
    this.lose(new ConnectionClosedError(`${this.url}: closed by the client`, 1000));
  }

  private lose(err: ConnectionClosedError): void {
    if (this.gone) return;
    this.gone = true;
    this.hooks.lost(this, err);
  }
}

/**
 * One recorded connection of a message run: every frame in and out goes to the transcript, and each
 * frame that arrives is offered to the waiting requests first (a request takes its reply), then to the
 * connection's sink (the address's ledger, which judges what nobody asked for).
 */
import WebSocket from 'ws';
import type { Transcript } from '../transcript';

/** A frame as received: its text and its JSON value (`undefined` when the text is not JSON). */
export interface InFrame {
  text: string;
  value: unknown;
}

/** A waiter takes a frame (true) or lets it pass on (false). */
export type Taker = (frame: InFrame) => boolean;

export class MsgSocket {
  closed: { code: number; reason: string } | null = null;
  private readonly takers: Taker[] = [];
  private readonly closeWaiters: (() => void)[] = [];

  private constructor(
    private readonly ws: WebSocket,
    /** The transcript of the check under way (each check of a run has its own). */
    private readonly log: () => Transcript,
    readonly label: string,
    private readonly sink: (frame: InFrame) => void,
  ) {
    ws.on('message', (data) => this.received(String(data)));
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      log().record(
        label,
        'event',
        `closed by the server or the network (code ${code}${reason.length ? `, ${String(reason)}` : ''})`,
      );
      for (const w of this.closeWaiters.splice(0)) w();
    });
    ws.on('error', () => undefined);
  }

  /** Open a connection within `boundMs`; rejects with why (refused, an HTTP answer, no handshake in time). */
  static open(url: string, log: () => Transcript, label: string, boundMs: number, sink: (f: InFrame) => void) {
    return new Promise<MsgSocket>((resolve, reject) => {
      const ws = new WebSocket(url, { handshakeTimeout: boundMs });
      const fail = (why: string) => (ws.terminate(), reject(new Error(`${url}: ${why}`)));
      ws.once('unexpected-response', (_req, res) =>
        fail(`answered HTTP ${res.statusCode ?? '?'} instead of a WebSocket`),
      );
      ws.once('error', (err) => fail(err.message));
      // Listeners first: a server that pushes on connect may send before 'open' is handled.
      const socket = new MsgSocket(ws, log, label, sink);
      ws.once('open', () => {
        log().record(label, 'event', `connected to ${url}`);
        resolve(socket);
      });
    });
  }

  private received(text: string): void {
    this.log().record(this.label, 'received', text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const frame = { text, value };
    for (const take of [...this.takers]) if (take(frame)) return;
    this.sink(frame);
  }

  /** Send a text frame (recorded); false when the connection is closed already. */
  send(text: string): boolean {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return false;
    this.log().record(this.label, 'sent', text);
    this.ws.send(text);
    return true;
  }

  /** Offer every frame to `take` until the returned function removes it. */
  offer(take: Taker): () => void {
    this.takers.push(take);
    return () => {
      const i = this.takers.indexOf(take);
      if (i >= 0) this.takers.splice(i, 1);
    };
  }

  /** Resolves when the connection closes, or after `ms` (whichever first); true when it closed. */
  closedWithin(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.closed !== null), ms);
      this.closeWaiters.push(() => (clearTimeout(timer), resolve(true)));
    });
  }

  /** Close it (resolves once closed, or at once when the peer does not answer the close within a second). */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const done = this.closedWithin(1000).then(() => {
      if (!this.closed) this.ws.terminate();
    });
    this.ws.close(1000);
    return done;
  }
}

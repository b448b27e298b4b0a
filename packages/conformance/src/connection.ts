/** A recorded WebSocket connection: every frame in and out goes to a transcript with its time. */
import WebSocket from 'ws';
import type { Transcript } from './transcript';
import { FrameLog, type Frame } from './frame-log';

export type { Frame } from './frame-log';

/** A JSON-RPC response as received (fields are checked by the checks, not trusted here). */
export interface RpcResponse {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown } & Record<string, unknown>;
  [k: string]: unknown;
}

/** A pushed notification, read through the assumed frame (method + params.channel + params.data). */
export interface Push {
  frame: Frame;
  channel: string | undefined;
  data: unknown;
}

/** The frame is a JSON object carrying `result` or `error`, or an `id` without a method: a response. */
export function isResponse(json: unknown): json is RpcResponse {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const o = json as Record<string, unknown>;
  return 'result' in o || 'error' in o || ('id' in o && !('method' in o));
}

/** The frame is a JSON object with a method and no id: a server push. */
export function isNotification(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const o = json as Record<string, unknown>;
  return typeof o.method === 'string' && !('id' in o) && !('result' in o) && !('error' in o);
}

/** The channel and data of a push, read from the assumed notification frame. */
export function pushOf(frame: Frame): Push {
  const p = (frame.json as { params?: unknown }).params;
  const params = typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {};
  return { frame, channel: typeof params.channel === 'string' ? params.channel : undefined, data: params.data };
}

/** How many characters of a frame a description of silence quotes. */
const QUOTE_MAX = 160;

/**
 * What came on `conn` from frame `from` on, when no response to a request did: nothing, the close, or the
 * frames that did come (an echo of the request itself is named as such), so a report never says "nothing"
 * of a peer that answered with something else.
 */
export function silenceOf(conn: WsConn, from: number, timeoutMs: number, sent?: string): string {
  const frames = conn.frames.slice(from);
  const closed = conn.closeInfo ? `; then the connection closed (code ${conn.closeInfo.code})` : '';
  if (frames.length === 0)
    return conn.closeInfo
      ? `nothing: the connection closed (code ${conn.closeInfo.code})`
      : `nothing within ${timeoutMs} ms`;
  const first = frames[0]!.text;
  const quote = first.length > QUOTE_MAX ? `${first.slice(0, QUOTE_MAX)}…` : first;
  const echo = sent !== undefined ? first === sent : isEcho(frames[0]!.json);
  const what = echo ? `the request itself, echoed back: ${quote}` : `${quote}`;
  return (
    `${frames.length} frame${frames.length === 1 ? '' : 's'} that ${frames.length === 1 ? 'is' : 'are'}` +
    ` not a response echoing the id (first: ${what})${closed}`
  );
}

/**
 * Whether nothing but pushes came on `conn` from frame `from` on, and it is still open: the answer may
 * only be late (a loaded machine, a slow server), so its absence within a window is no evidence either
 * way. Another frame or a close is what the peer did instead, and that is evidence.
 */
export function onlySilence(conn: WsConn, from: number): boolean {
  return conn.closeInfo === null && conn.frames.slice(from).every((f) => isNotification(f.json));
}

/** A frame that is a request (a method and an id): what an echoing peer sends back. */
function isEcho(json: unknown): boolean {
  return (
    typeof json === 'object' &&
    json !== null &&
    !Array.isArray(json) &&
    typeof (json as { method?: unknown }).method === 'string' &&
    'id' in json
  );
}

type Waiter = { pred: (f: Frame) => boolean; from: number; resolve: (f: Frame | null) => void; timer: NodeJS.Timeout };

/** A connection that did not open within its time: the server may only be slow, so this is no evidence. */
export class OpenTimeout extends Error {
  constructor(url: string, timeoutMs: number) {
    super(`cannot connect to ${url}: the opening handshake did not complete within ${timeoutMs} ms`);
  }
}

let ids = 0;

/**
 * One WebSocket to the server. Frames are kept in order so checks can wait for one from any point on;
 * only the latest are kept (frame-log.ts), so a server that floods pushes cannot fill memory.
 */
export class WsConn {
  readonly frames = new FrameLog();
  /** The subaccount ids of a successful login on this connection (null before login). */
  loggedIn: number[] | null = null;
  closeInfo: { code: number; reason: string; t: number } | null = null;
  readonly closed: Promise<{ code: number; reason: string; t: number }>;
  private readonly waiters = new Set<Waiter>();

  private constructor(
    private readonly ws: WebSocket,
    readonly label: string,
    private readonly transcript: Transcript,
  ) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString(), t: transcript.now() };
        if (this.frames.dropped > 0)
          transcript.record(
            label,
            'event',
            `received ${this.frames.length} frames; the oldest ${this.frames.dropped} were dropped from memory ` +
              `(the last ${this.frames.keptCount} kept)`,
          );
        transcript.record(
          label,
          'event',
          `closed (code ${code}${reason.length ? `, reason ${JSON.stringify(reason.toString())}` : ''})`,
        );
        for (const w of this.waiters) {
          clearTimeout(w.timer);
          w.resolve(null);
        }
        this.waiters.clear();
        resolve(this.closeInfo);
      });
    });
    ws.on('message', (raw, isBinary) => {
      const text = isBinary ? `(binary ${(raw as Buffer).length} bytes)` : raw.toString();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const entry = transcript.record(label, 'received', text);
      const frame = this.frames.push((index) => ({ index, t: entry.t, text, json, entry }));
      for (const w of this.waiters) {
        if (frame.index >= w.from && w.pred(frame)) {
          clearTimeout(w.timer);
          this.waiters.delete(w);
          w.resolve(frame);
        }
      }
    });
    ws.on('error', (err) => transcript.record(label, 'event', `socket error: ${err.message}`));
  }

  /**
   * Open a connection; rejects when it cannot be opened within the timeout, or when `signal` is (or
   * becomes) aborted before it is open (the socket is then dropped). The first frames are kept.
   */
  static open(
    url: string,
    transcript: Transcript,
    label: string,
    timeoutMs = 5000,
    signal?: AbortSignal,
  ): Promise<WsConn> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error(`not connecting to ${url}: the check was stopped`));
      // The runner's own timer, not ws's handshakeTimeout: a handshake that ran out of time must be told
      // apart from one that failed (OpenTimeout), for only the second is evidence about the server.
      const ws = new WebSocket(url);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        ws.off('error', onError);
        transcript.record(label, 'event', `connect timed out after ${timeoutMs} ms`);
        ws.terminate();
        reject(new OpenTimeout(url, timeoutMs));
      }, timeoutMs);
      // Attach listeners before 'open' so a frame sent right after the upgrade is not lost.
      const conn = new WsConn(ws, label, transcript);
      transcript.record(label, 'event', `connecting to ${url}`);
      const onAbort = () => {
        clearTimeout(timer);
        transcript.record(label, 'event', 'connect abandoned: the check was stopped');
        ws.terminate();
        reject(new Error(`not connecting to ${url}: the check was stopped`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const onError = (err: Error) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        transcript.record(label, 'event', `connect failed: ${err.message}`);
        reject(new Error(`cannot connect to ${url}: ${err.message}`));
      };
      ws.once('error', onError);
      ws.once('unexpected-response', (_req, res) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        transcript.record(label, 'event', `upgrade refused with HTTP ${res.statusCode}`);
        reject(new Error(`cannot connect to ${url}: HTTP ${res.statusCode}`));
        ws.terminate();
      });
      ws.once('open', () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        ws.off('error', onError);
        transcript.record(label, 'event', 'open');
        resolve(conn);
      });
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a frame as is (objects are serialised). */
  send(frame: string | object): void {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    this.transcript.record(this.label, 'sent', text);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.transcript.record(this.label, 'event', 'not sent: the connection is not open');
  }

  /** The first frame at or after `from` matching `pred`, or null after the timeout or on close. */
  waitFor(pred: (f: Frame) => boolean, timeoutMs: number, from = 0): Promise<Frame | null> {
    const found = this.frames.find(pred, from);
    if (found) return Promise.resolve(found);
    if (this.closeInfo) return Promise.resolve(null);
    return new Promise((resolve) => {
      const w: Waiter = {
        pred,
        from,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(w);
          resolve(null);
        }, timeoutMs),
      };
      this.waiters.add(w);
    });
  }

  /** A fresh request id, unique within the process. */
  static nextId(): string {
    return `conf-${++ids}`;
  }

  /** Send a request and wait for the response echoing its id (null on timeout or close). */
  async request(
    method: string,
    params: unknown,
    opts: { id?: string | number; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<{ response: RpcResponse; frame: Frame } | null> {
    const id = opts.id ?? WsConn.nextId();
    const from = this.frames.length;
    const body: Record<string, unknown> = { jsonrpc: '2.0', id, method, params };
    if (opts.headers) body.headers = opts.headers;
    this.send(body);
    const frame = await this.waitFor(
      (f) => isResponse(f.json) && (f.json as RpcResponse).id === id,
      opts.timeoutMs ?? 5000,
      from,
    );
    return frame ? { response: frame.json as RpcResponse, frame } : null;
  }

  /** Every push received at or after frame `from`. */
  pushes(from = 0): Push[] {
    return this.frames.filter((f) => f.index >= from && isNotification(f.json)).map(pushOf);
  }

  /** Close and wait for the close to complete (terminate when the server does not answer the close). */
  async close(): Promise<void> {
    if (this.closeInfo) return;
    if (this.ws.readyState === WebSocket.CONNECTING || this.ws.readyState === WebSocket.OPEN)
      this.ws.close(1000, 'conformance check done');
    const timer = setTimeout(() => this.ws.terminate(), 2000);
    await this.closed;
    clearTimeout(timer);
  }
}

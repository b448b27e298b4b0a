/**
 * The client of an API that speaks its own messages (not JSON-RPC), given the wire table and the
 * message validators of its generated SDK: `send` a message, `request` one and get its reply (matched
 * by the correlation value, filled in when left out; without a correlation id, the next frame that fits
 * the reply and is no message received there), `stream` what a receive operation delivers. A frame that
 * is neither is an `error` event (PROTOCOL, fault `unasked`); one that fails its validator a `validation`
 * event, dropped in `strict`. Payloads reach the caller exactly as they came. One socket per URL (and
 * headers), opened on first use; a drop fails the requests that waited on it, and a socket with streams
 * is reopened with back-off (the JSON-RPC client's policy), its streams going on; the next use of a
 * socket that is gone opens a new one.
 */
import { classifyFrame, valueAt, withValueAt, type FrameMatch } from '@exchange-api/types/wire-frame';
import {
  AbortedError,
  ClientError,
  ConnectionClosedError,
  PayloadValidationError,
  ProtocolError,
  TimeoutError,
  UsageError,
} from '../errors';
import { defaultReconnectPolicy, type ReconnectPolicy } from '../backoff';
import { Emitter } from '../events';
import { BoundedQueue, type PayloadStream, type StreamOptions } from '../stream';
import type { ValidateMode, ValidationReport, WebSocketConstructor } from '../types';
import { MessageSocket } from './message-socket';
import { channelUrl } from './wire-url';
import type {
  AddressOptions,
  MessageApi,
  MessageClientOptions,
  OperationMap,
  ReceiveId,
  RequestId,
  RequestOptions,
  SendId,
  WireOperationEntry,
} from './wire-table';

export interface MessageClientEvents {
  /** A frame no open request or receive operation takes (PROTOCOL `unasked`), garbage, a binary frame. */
  error: ClientError;
  validation: ValidationReport;
  /** A socket with streams dropped: the attempt about to be made and its delay. */
  reconnect: { url: string; attempt: number; delayMs: number };
  /** That socket is open again; a server that wants a subscription message again needs it sent now. */
  reconnected: { url: string; attempts: number };
}

interface Pending {
  op: string;
  entry: WireOperationEntry;
  /** The correlation value sent, or undefined for an operation without a correlation id. */
  value: unknown;
  resolve(reply: unknown): void;
  reject(err: unknown): void;
}

interface OpenStream {
  op: string;
  queue: BoundedQueue<unknown>;
}

const NO_REPLY = Symbol('no reply');

export class MessageClient<Ops extends OperationMap<Ops>> {
  private readonly events = new Emitter<MessageClientEvents>(
    (event, err) => new ProtocolError('bad-frame', `a listener of ${String(event)} threw: ${(err as Error)?.message}`),
  );
  private readonly sockets = new Map<string, MessageSocket>();
  private readonly pending = new Map<MessageSocket, Pending[]>();
  private readonly streams = new Map<MessageSocket, OpenStream[]>();
  private readonly timeoutMs: number;
  private readonly mode: ValidateMode;
  private readonly policy: ReconnectPolicy | null;
  private nextCorrelation = 1;
  /** Sockets closed by close(): their streams end, rather than fail. */
  private readonly closing = new Set<MessageSocket>();

  constructor(
    private readonly api: MessageApi,
    private readonly options: MessageClientOptions & {
      WebSocket: WebSocketConstructor;
      /** Why headers cannot be sent (a browser's WebSocket), when they cannot. */
      noHeaders?: string;
    },
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.mode = options.validate ?? 'warn';
    this.policy = options.reconnect === false ? null : { ...defaultReconnectPolicy, ...options.reconnect };
  }

  on<E extends keyof MessageClientEvents>(event: E, fn: (value: MessageClientEvents[E]) => void): () => void {
    return this.events.on(event, fn);
  }

  /** Send a message of a send operation; resolves once it is written to the socket. Misuse throws at once. */
  send<K extends SendId<Ops>>(op: K, payload: Ops[K]['payload'], options: AddressOptions<Ops[K]> = {}): Promise<void> {
    const entry = this.operation(op, 'send');
    return this.socketFor(entry, options).send(JSON.stringify(payload));
  }

  /** Send a request and resolve with its reply (correlated), or reject after `timeoutMs`. */
  request<K extends RequestId<Ops>>(
    op: K,
    payload: Ops[K]['payload'],
    options: RequestOptions<Ops[K]> = {},
  ): Promise<Ops[K]['reply']> {
    const entry = this.operation(op, 'send');
    if (entry.reply === null) throw new UsageError(`operation ${op} has no reply: use send()`);
    const socket = this.socketFor(entry, options);
    let value: unknown;
    let message: unknown = payload;
    if (entry.correlation !== null) {
      value = valueAt(payload, entry.correlation);
      if (value === undefined) {
        value = this.freshCorrelation(socket, entry);
        message = withValueAt(payload, entry.correlation, value);
      } else if ((this.pending.get(socket) ?? []).some((p) => Object.is(p.value, value)))
        throw new UsageError(`operation ${op}: a request with correlation value ${JSON.stringify(value)} is open`);
    }
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    return new Promise((resolve, reject) => {
      const list = this.pending.get(socket) ?? [];
      this.pending.set(socket, list);
      const done = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        const i = list.indexOf(p);
        if (i >= 0) list.splice(i, 1);
      };
      const p: Pending = {
        op,
        entry,
        value,
        resolve: (r) => (done(), resolve(r as Ops[K]['reply'])),
        reject: (e) => (done(), reject(e)),
      };
      const timer = setTimeout(() => p.reject(new TimeoutError(op, timeoutMs)), timeoutMs);
      const onAbort = () => p.reject(new AbortedError(op, { cause: options.signal?.reason }));
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort);
      list.push(p);
      socket.send(JSON.stringify(message)).catch((err: unknown) => p.reject(err));
    });
  }

  /** The messages of a receive operation, as they arrive; leaving the loop stops the stream. */
  stream<K extends ReceiveId<Ops>>(
    op: K,
    options: AddressOptions<Ops[K]> & StreamOptions = {},
  ): PayloadStream<Ops[K]['payload']> & { opened: Promise<void> } {
    const entry = this.operation(op, 'receive');
    const socket = this.socketFor(entry, options);
    const queue = new BoundedQueue<unknown>(
      op,
      options.bufferSize ?? 1024,
      options.overflow ?? 'drop-oldest',
      () => {},
    );
    const list = this.streams.get(socket) ?? [];
    this.streams.set(socket, list);
    const own: OpenStream = { op, queue };
    list.push(own);
    const stop = () => {
      const i = list.indexOf(own);
      if (i >= 0) list.splice(i, 1);
      queue.end();
    };
    queue.onEnd = stop;
    const opened = socket.open();
    opened.catch((err: unknown) => queue.fail(err));
    const it = {
      opened,
      ready: opened.then(() => ({ address: socket.url, unsubscribe: async () => stop() })),
      next: () => queue.next() as Promise<IteratorResult<Ops[K]['payload']>>,
      return: async (): Promise<IteratorResult<Ops[K]['payload']>> => {
        stop();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return it;
      },
    };
    // The same failure as `opened`'s, which fails the stream (queue.fail above): the reader hears of it at
    // next(); `ready` unawaited must not also be an unhandled rejection.
    it.ready.catch(() => undefined);
    return it;
  }

  /** Close every socket: open requests fail with ConnectionClosedError, streams end. */
  async close(): Promise<void> {
    for (const socket of [...this.sockets.values()]) {
      this.closing.add(socket);
      socket.close();
    }
  }

  private operation(op: string, action: 'send' | 'receive'): WireOperationEntry {
    const entry = Object.hasOwn(this.api.table.operations, op) ? this.api.table.operations[op] : undefined;
    if (!entry) throw new UsageError(`no operation ${JSON.stringify(op)} in this API`);
    const instead = entry.action === 'send' ? 'send() or request()' : 'stream()';
    if (entry.action !== action)
      throw new UsageError(`operation ${op}: the client ${entry.action}s its messages (use ${instead})`);
    return entry;
  }

  /** The socket of the operation's channel at these parameters, query and headers: the open one, else a new one. */
  private socketFor(entry: WireOperationEntry, options: AddressOptions): MessageSocket {
    const channels = this.api.table.channels;
    const url = channelUrl(this.options.url, entry.channel, channels[entry.channel]!, options.params, options.query);
    const headers = headersOf(entry.channel, options.headers, this.options.noHeaders);
    const key = `${url}\u0000${JSON.stringify(Object.entries(headers).sort())}`;
    let socket = this.sockets.get(key);
    if (!socket || socket.closed) {
      socket = new MessageSocket(url, headers, this.options.WebSocket, this.timeoutMs, this.policy, {
        frame: (s, text) => this.receive(s, text),
        fault: (_s, err) => this.events.emit('error', err),
        dropped: (s, err) => this.dropped(s, err),
        keep: (s) => (this.streams.get(s)?.length ?? 0) > 0,
        reconnect: (s, info) => this.events.emit('reconnect', { url: s.url, ...info }),
        reopened: (s, attempts) => this.events.emit('reconnected', { url: s.url, attempts }),
        lost: (s, err) => this.lost(key, s, err),
      });
      this.sockets.set(key, socket);
    }
    // Every channel at the same address is reached through this socket: its messages may come on it.
    const address = channels[entry.channel]!.address;
    for (const [id, c] of Object.entries(channels)) if (c.address === address) socket.channels.add(id);
    return socket;
  }

  private freshCorrelation(socket: MessageSocket, entry: WireOperationEntry): unknown {
    const open = new Set((this.pending.get(socket) ?? []).map((p) => p.value));
    for (;;) {
      const n = this.nextCorrelation++;
      const value = entry.correlationType === 'string' ? String(n) : n;
      if (!open.has(value)) return value;
    }
  }

  /** One text frame: a reply to an open request, else a message of a receive operation there, else reported. */
  private receive(socket: MessageSocket, text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      this.events.emit('error', new ProtocolError('garbage', `${socket.url}: a frame that is not JSON`, text));
      return;
    }
    if (this.takeReply(socket, frame) !== NO_REPLY) return;
    const received = this.receivedAs(socket, frame);
    if (received === null) {
      const what = `${socket.url}: a frame that is no reply to an open request and no message received there`;
      this.events.emit('error', new ProtocolError('unasked', what, text));
      return;
    }
    if (!received.match.valid && !this.admit(received.match, frame, received.ops[0]!)) return;
    for (const s of this.streams.get(socket) ?? []) if (received.ops.includes(s.op)) s.queue.push(frame);
  }

  /** Settle the open request this frame answers; NO_REPLY when it answers none. */
  private takeReply(socket: MessageSocket, frame: unknown): unknown {
    for (const p of this.pending.get(socket) ?? []) {
      const reply = p.entry.reply!;
      let match: FrameMatch | null;
      if (p.value !== undefined) {
        if (!Object.is(valueAt(frame, reply.correlation ?? p.entry.correlation!), p.value)) continue;
        // The correlation value is the request's: a reply that fits none of its messages is a bad reply.
        match = this.classify(reply.messages, frame) ?? {
          message: reply.messages[0]!,
          valid: false,
        };
      } else {
        match = this.classify(reply.messages, frame);
        // Without a correlation id, a message received there is no reply.
        if (match === null || !match.valid || this.receivedAs(socket, frame) !== null) continue;
      }
      if (!match.valid && !this.admit(match, frame, `reply of ${p.op}`)) {
        p.reject(new PayloadValidationError(`reply of ${p.op}`, this.failures(match.message, frame)));
        return null;
      }
      p.resolve(frame);
      return null;
    }
    return NO_REPLY;
  }

  /** The receive operations (of the socket's channels) whose messages the frame is, with the match; null for none. */
  private receivedAs(socket: MessageSocket, frame: unknown): { ops: string[]; match: FrameMatch } | null {
    const ops = Object.entries(this.api.table.operations).filter(
      ([, o]) => o.action === 'receive' && socket.channels.has(o.channel),
    );
    const ids = [...new Set(ops.flatMap(([, o]) => o.messages))];
    const match = this.classify(ids, frame);
    if (match === null) return null;
    return { ops: ops.filter(([, o]) => o.messages.includes(match.message)).map(([id]) => id), match };
  }

  /** Which of `ids` the frame is, by the wire table's constants and the generated validators. */
  private classify(ids: ReadonlyArray<string>, frame: unknown): FrameMatch | null {
    const { table, validators } = this.api;
    return classifyFrame(ids, frame, {
      discriminators: (id) => table.messages[id]!.discriminators,
      valid: (id) => validators.messages[id]?.(frame) ?? true,
    });
  }

  /** Report an invalid frame; whether it may still be delivered (not in `strict`). */
  private admit(match: FrameMatch, frame: unknown, target: string): boolean {
    if (this.mode === 'off') return true;
    const failures = this.failures(match.message, frame);
    const dropped = this.mode === 'strict';
    const error = new PayloadValidationError(target, failures);
    this.events.emit('validation', { target, channel: null, failures, dropped, error });
    return !dropped;
  }

  private failures(message: string, frame: unknown) {
    const validate = this.api.validators.messages[message];
    return validate ? (validate(frame), this.api.validators.failuresOf(validate as never, frame)) : [];
  }

  /** A drop: the requests that waited on the socket fail (its streams wait for it to reopen). */
  private dropped(socket: MessageSocket, err: ConnectionClosedError): void {
    for (const p of [...(this.pending.get(socket) ?? [])]) p.reject(err);
  }

  private lost(key: string, socket: MessageSocket, err: ClientError): void {
    if (this.sockets.get(key) === socket) this.sockets.delete(key);
    for (const p of [...(this.pending.get(socket) ?? [])]) p.reject(err);
    const byUser = this.closing.delete(socket);
    for (const s of [...(this.streams.get(socket) ?? [])])
      if (byUser) s.queue.end();
      else s.queue.fail(err);
    this.pending.delete(socket);
    this.streams.delete(socket);
  }
}

/** The handshake's headers: the caller's, as strings; refused at once where the socket cannot send them. */
function headersOf(channel: string, given: Record<string, unknown> | undefined, refused?: string) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(given ?? {}))
    if (v !== undefined) headers[k] = typeof v === 'string' ? v : JSON.stringify(v);
  if (refused && Object.keys(headers).length > 0) throw new UsageError(`channel ${channel}: ${refused}`);
  return headers;
}

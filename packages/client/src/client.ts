/**
 * The runtime client: one WebSocket (JSON-RPC 2.0 and channel notifications) plus HTTP POST, typed by
 * @exchange-api/types and driven by its generated tables. No Node built-ins here: the socket
 * constructor and fetch are injected (src/index.ts passes `ws` in Node; browsers use the globals).
 * ethers, @exchange-api/auth and @exchange-api/validators load lazily, only when login, signing or
 * validation needs them.
 */
import { matchChannel, methodTable } from '@exchange-api/types';
import type {
  ChannelAddress,
  Methods,
  PayloadOf,
  WsMethodName,
  HttpMethodName,
  OrderFlowMethodName,
  RateLimitsResult,
  SubscriptionResult,
  SubscriptionNotification,
} from '@exchange-api/types';
import type { Signer } from 'ethers';
import type { ActionLayout } from '@exchange-api/auth';
import {
  AbortedError,
  ClientError,
  ConnectError,
  ConnectionClosedError,
  ConnectionLimitError,
  PayloadValidationError,
  ProtocolError,
  RateLimitError,
  TimeoutError,
  UsageError,
  connectionLimitFromFrame,
  connectionLimitPrefix,
  rpcErrorFromCode,
  type PayloadFailure,
  type RpcErrorObject,
} from './errors';
import { Limiter, type LimiterMark, type LimiterOptions } from './limiter';
import { backoffDelay, defaultReconnectPolicy, type ReconnectPolicy } from './backoff';
import { BoundedQueue, type StreamOptions } from './stream';
import { OrderFlowHelpers, createRpc, type Rpc } from './generated/surface.gen';

/** What the client checks incoming payloads with: off, report and deliver (warn), report and drop (strict). */
export type ValidateMode = 'off' | 'warn' | 'strict';

/** Connection states, in the order a life goes through them. */
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The part of a WebSocket the client uses: the browser's WebSocket and `ws` both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

/** A WebSocket constructor (the browser's global, or `ws`). */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** Signs an order-flow request: gets the params with nonce and expiry filled, returns them with signer and signature. */
export type ActionSigner = (method: OrderFlowMethodName, params: Record<string, unknown> & ActionFieldsInput) => Promise<Record<string, unknown>>;

interface ActionFieldsInput {
  subaccount_id: number;
  nonce: string;
  signature_expiry_sec: number;
}

/** A validator as the generated ones are: a function with `errors` left on it after a failure. */
export type ValidatorFn = ((data: unknown) => boolean) & { errors?: unknown };

/** The validators the client needs; default: @exchange-api/validators, loaded on connect. */
export interface ValidatorSource {
  channels: Record<string, ValidatorFn>;
  assumedResults: Record<string, ValidatorFn>;
  failuresOf: (validate: never, data: unknown) => PayloadFailure[];
}

/** Options of createClient. Only wsUrl is required. */
export interface ClientOptions {
  /** WebSocket URL, e.g. `wss://host/v3/ws`. */
  wsUrl: string;
  /** HTTP base, e.g. `https://host` (the method paths from the tables start with /v3). */
  httpUrl?: string;
  /** ethers Signer for login and action signatures: the wallet, or a session key (then pass `wallet`). */
  signer?: Signer;
  /** The wallet a session-key signer acts for. Default: the signer's own address. */
  wallet?: string;
  /** Payload checking. Default 'warn'. */
  validate?: ValidateMode;
  /** Socket constructor. Default: globalThis.WebSocket (the Node entry passes `ws`). */
  WebSocket?: WebSocketConstructor;
  /** fetch for HTTP calls. Default: globalThis.fetch. */
  fetch?: typeof fetch;
  /** Per-call timeout, limiter wait and reconnect wait included. Default 10 000 ms. */
  timeoutMs?: number;
  /** Reconnect policy, or false to stay closed after a drop. */
  reconnect?: Partial<ReconnectPolicy> | false;
  /** Client-side rate limiter settings, or false to send everything at once. Default on. */
  limiter?: LimiterOptions | false;
  /** Replace the default action signer (the spec's assumed EIP-712 layout, signed by `signer`). */
  actionSigner?: ActionSigner;
  /** Sign actions with this EIP-712 layout instead of the assumed one (ignored with `actionSigner`). */
  actionLayout?: ActionLayout;
  /** Lifetime of an action signature when the caller gives none. Default 600 s. */
  signatureExpirySec?: number;
  /** Validators to use instead of @exchange-api/validators. */
  validators?: ValidatorSource;
}

/** A validation report: which address or result, every failure with its pointer and rule, and whether it was dropped. */
export interface ValidationReport {
  target: string;
  channel: string | null;
  failures: PayloadFailure[];
  dropped: boolean;
  error: PayloadValidationError;
}

/** Events and their payloads. */
export interface ClientEvents {
  state: ConnectionState;
  /** Faults that reject no call: protocol faults, connection limit, refused resubscriptions, a handler that threw. */
  error: ClientError;
  validation: ValidationReport;
  reconnect: { attempt: number; delayMs: number };
  overflow: { address: string; dropped: number };
}

/** Per-call options. */
export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Force a transport; default: WebSocket when the method is served there, HTTP otherwise. */
  transport?: 'ws' | 'http';
}

/** The methods the client can call over some transport. */
export type CallableMethod = WsMethodName | HttpMethodName;
/** Params of a method: the documented shape, or the assumed one where the document shows none. */
export type CallParams<M extends CallableMethod> = Methods[M]['assumedParams'];
/** Result of a method (documented or assumed shape). */
export type CallResult<M extends CallableMethod> = Methods[M]['assumedResult'];

/** Params of an order-flow helper: the action fields are filled in (nonce, expiry) or signed (signer, signature). */
export type ActionInput<M extends OrderFlowMethodName> = Omit<Methods[M]['assumedParams'], 'signer' | 'signature' | 'nonce' | 'signature_expiry_sec'> & {
  nonce?: string;
  signature_expiry_sec?: number;
};

/** A live subscription of one handler. */
export interface Subscription {
  readonly address: string;
  /** Remove this handler; the wire subscription ends with the last handler. */
  unsubscribe(): Promise<void>;
}

/** A handler of one channel's payloads. */
export type Handler<A extends string> = (payload: PayloadOf<A>) => void;

interface Pending {
  method: string;
  params: unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

interface Sub {
  address: string;
  channelId: string;
  handlers: Set<{ fn: (payload: unknown) => void }>;
  validate: ValidatorFn | null;
  confirmed: Promise<void>;
}

type AuthModule = typeof import('@exchange-api/auth');

// The notification frame is an assumption of the spec (notification-frame); the type keeps this in step.
const NOTIFICATION: SubscriptionNotification['method'] = 'subscription';
const OPEN = 1;
const methodByName = new Map<string, (typeof methodTable)[number]>(methodTable.map((m) => [m.name, m]));

/** The client. Create it with createClient. */
export class ExchangeClient extends OrderFlowHelpers {
  /** Typed raw calls, one per method of the spec, named by operation id (generated). */
  readonly rpc: Rpc = createRpc(this);

  private readonly opts: ClientOptions;
  private readonly WS: WebSocketConstructor;
  private readonly policy: ReconnectPolicy | null;
  /** The client-side limiter, or null when turned off. */
  readonly limiter: Limiter | null;
  private socket: WebSocketLike | null = null;
  private generation = 0;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly subs = new Map<string, Sub>();
  private readonly dropped = new Set<string>();
  private readonly listeners = new Map<keyof ClientEvents, Set<(v: never) => void>>();
  private readonly streams = new Set<BoundedQueue<unknown>>();
  private validators: ValidatorSource | null;
  private auth: Promise<AuthModule> | null = null;
  private readyWaiters = new Set<{ resolve: () => void; reject: (e: unknown) => void }>();
  private ready = false;
  private wantLogin = false;
  private authenticated = false;
  private limitHit: ConnectionLimitError | null = null;
  private attempt = 0;
  /** The fetch of instrument types for the limiter while it runs, and when the last one started. */
  private instruments: Promise<void> | null = null;
  private instrumentsAt = -Infinity;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private batch: { addresses: string[]; waiters: Map<string, { resolve: () => void; reject: (e: unknown) => void }> } | null = null;
  /** Current connection state. */
  state: ConnectionState = 'idle';
  /** The wallet of the last login. */
  wallet: string | null = null;
  /** The subaccount ids the last login returned. */
  subaccountIds: number[] = [];

  constructor(options: ClientOptions) {
    super();
    this.opts = options;
    const WS = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!WS) throw new UsageError('no WebSocket: pass options.WebSocket (the Node entry passes ws)');
    this.WS = WS;
    this.policy = options.reconnect === false ? null : { ...defaultReconnectPolicy, ...options.reconnect };
    this.limiter = options.limiter === false ? null : new Limiter(options.limiter ?? {});
    if (this.limiter) {
      this.limiter.onUnknownInstrument = (name, bucketId) =>
        this.emit('error', new ClientError('INSTRUMENT_TYPE_UNKNOWN', `limiter: the server reports no instrument type for ${name}; its orders draw on the ${bucketId} bucket`));
    }
    this.validators = options.validators ?? null;
  }

  private get mode(): ValidateMode {
    return this.opts.validate ?? 'warn';
  }

  /** Listen to an event; returns the function that stops listening. */
  on<E extends keyof ClientEvents>(event: E, fn: (value: ClientEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn as (v: never) => void);
    return () => set.delete(fn as (v: never) => void);
  }

  private emit<E extends keyof ClientEvents>(event: E, value: ClientEvents[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const fn of set) {
      try {
        (fn as (v: ClientEvents[E]) => void)(value);
      } catch {
        // A listener's own failure must not break the receive path.
      }
    }
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', state);
  }

  /** Calls sent and not yet answered. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Addresses with at least one handler (each is one wire subscription). */
  get subscriptions(): string[] {
    return [...this.subs.keys()];
  }

  // ---------------------------------------------------------------- connection

  /** Open the socket (and, after a previous login, log in again and resubscribe). Rejects with ConnectError. */
  async connect(): Promise<void> {
    if (this.state === 'open') return;
    if (this.state === 'connecting' || this.state === 'reconnecting') return this.waitReady();
    if (this.mode !== 'off' && !this.validators) {
      const v = await import('@exchange-api/validators');
      this.validators = { channels: v.validators.channels as never, assumedResults: v.validators.assumedResults as never, failuresOf: v.failuresOf as never };
    }
    if (this.mode !== 'off') for (const sub of this.subs.values()) sub.validate ??= this.validators?.channels[sub.channelId] ?? null;
    this.setState('connecting');
    const ready = this.waitReady();
    // The first connection either gets accepted (ready resolves) or fails: then connect() rejects.
    this.open().catch((err: unknown) => {
      if (this.state === 'connecting') this.closeWith(asClientError(err));
    });
    await ready;
  }

  /**
   * Open a socket and restore the session on it. Resolves once the server accepted the connection,
   * that is once the first exchange on it was answered (the re-login, else the resubscription, else a
   * `public/getRateLimits` round trip): a server over its per-IP connection limit opens the socket,
   * sends a `connectionLimitExceeded:` text frame and closes it. Rejects when the socket could not be
   * made or closed before that (with the ConnectionLimitError when the server said so).
   */
  private open(): Promise<void> {
    const gen = ++this.generation;
    this.limitHit = null;
    return new Promise<void>((resolve, reject) => {
      let accepted = false;
      let ws: WebSocketLike;
      try {
        ws = new this.WS(this.opts.wsUrl);
      } catch (err) {
        reject(new ConnectError(`cannot open ${this.opts.wsUrl}: ${(err as Error).message}`, { cause: err }));
        return;
      }
      this.socket = ws;
      ws.onopen = () => {
        if (gen !== this.generation) return;
        this.dropped.clear();
        this.restore(gen).then(
          () => {
            if (gen !== this.generation) return;
            accepted = true;
            this.attempt = 0;
            this.ready = true;
            this.setState('open');
            for (const w of this.readyWaiters) w.resolve();
            this.readyWaiters.clear();
            resolve();
          },
          (err: unknown) => {
            // The socket dropped during the restore: onclose rejects, and the caller retries or gives up.
            if (gen === this.generation && !isDrop(err)) this.emit('error', asClientError(err));
          },
        );
      };
      ws.onmessage = (ev) => this.receive(ev.data);
      ws.onerror = () => {
        // onclose follows and carries the outcome.
      };
      ws.onclose = (ev) => {
        if (gen !== this.generation) return;
        if (accepted) {
          this.onDrop(ev.code);
          return;
        }
        const err = this.limitHit ?? new ConnectError(`cannot connect to ${this.opts.wsUrl} (close ${ev.code})`);
        this.failConnection(err);
        reject(err);
      };
    });
  }

  /** The socket is gone: every call sent on it fails with `err`. */
  private failConnection(err: ClientError): void {
    this.socket = null;
    this.ready = false;
    this.authenticated = false;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    const batch = this.batch;
    this.batch = null;
    if (batch) for (const w of batch.waiters.values()) w.reject(err);
  }

  private onDrop(code: number): void {
    const err = this.limitHit ?? new ConnectionClosedError(`connection closed (${code})`, code);
    this.failConnection(err);
    if (this.state === 'closed') return;
    if (!this.policy) {
      this.closeWith(err);
      return;
    }
    this.setState('reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const policy = this.policy!;
    if (this.attempt >= policy.maxAttempts) {
      this.closeWith(new ConnectError(`gave up after ${this.attempt} reconnect attempts`));
      return;
    }
    const delayMs = backoffDelay(policy, this.attempt, this.limitHit !== null);
    this.attempt++;
    this.emit('reconnect', { attempt: this.attempt, delayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.state !== 'reconnecting') return;
      const gen = this.generation + 1;
      this.open().catch((err: unknown) => {
        if (this.state !== 'reconnecting' || this.generation !== gen) return;
        // A connection-limit refusal was reported when its frame came, a socket the constructor refused
        // was not: report it. Either way the next attempt follows the back-off.
        if (err instanceof ConnectError && err.cause !== undefined) this.emit('error', err);
        this.scheduleReconnect();
      });
    }, delayMs);
  }

  private closeWith(err: ClientError): void {
    this.setState('closed');
    for (const w of this.readyWaiters) w.reject(err);
    this.readyWaiters.clear();
    this.limiter?.clear(err);
  }

  /** Close for good: pending calls and waiters fail with ConnectionClosedError; no reconnect. */
  async close(): Promise<void> {
    this.generation++;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const ws = this.socket;
    this.socket = null;
    const err = new ConnectionClosedError('client closed');
    this.ready = false;
    this.setState('closed');
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.closeWith(err);
    // Streams end (their loops finish) rather than wait for payloads that will never come.
    for (const q of this.streams) q.end();
    this.streams.clear();
    if (ws && ws.readyState <= OPEN) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 1000);
        ws.onclose = () => {
          clearTimeout(t);
          resolve();
        };
        ws.onmessage = null;
        ws.close(1000, 'client closed');
      });
    }
  }

  private waitReady(signal?: AbortSignal): Promise<void> {
    if (this.ready) return Promise.resolve();
    if (this.state === 'closed' || this.state === 'idle') return Promise.reject(new ConnectionClosedError(this.state === 'idle' ? 'not connected: call connect() first' : 'client closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.readyWaiters.delete(w);
        reject(signal!.reason);
      };
      const w = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (e: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
      this.readyWaiters.add(w);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * After (re)connecting: log in again with a fresh timestamp, then resubscribe everything in one
   * batch. With neither, one `public/getRateLimits` round trip (which also corrects the limiter), so
   * that the first exchange on every connection shows the server accepted it. Any answer, even an
   * error, does; a drop (or the connection-limit frame and close) rejects.
   */
  private async restore(gen: number): Promise<void> {
    const addresses = [...this.subs.keys()];
    try {
      if (this.wantLogin) await this.doLogin(true);
      else if (addresses.length === 0) await this.rateLimits({}, true);
    } catch (err) {
      if (isDrop(err) || gen !== this.generation) throw err;
      this.emit('error', asClientError(err));
    }
    if (addresses.length === 0) return;
    let refused = addresses;
    try {
      const res = await this.wsCall('subscribe', { channels: addresses }, {}, true);
      refused = addresses.filter((a) => !confirmed(res, a));
    } catch (err) {
      if (isDrop(err) || gen !== this.generation) throw err;
    }
    // Fall back one by one: a batch may be refused as a whole for one bad address.
    for (const address of refused) {
      if (!this.subs.has(address)) continue;
      try {
        const res = await this.wsCall('subscribe', { channels: [address] }, {}, true);
        if (!confirmed(res, address)) throw new ClientError('SUBSCRIBE_REFUSED', `resubscribe ${address}: ${res.status?.[address] ?? 'not in current_subscriptions'}`);
      } catch (err) {
        if (isDrop(err) || gen !== this.generation) throw err;
        this.emit('error', asClientError(err));
      }
    }
  }

  // ---------------------------------------------------------------- receive path

  private receive(data: unknown): void {
    if (typeof data !== 'string') {
      this.emit('error', new ProtocolError('binary', 'binary frame ignored'));
      return;
    }
    let msg: { method?: unknown; params?: { channel?: unknown; data?: unknown }; id?: unknown; result?: unknown; error?: RpcErrorObject };
    try {
      msg = JSON.parse(data);
    } catch {
      if (data.startsWith(connectionLimitPrefix)) {
        this.limitHit = connectionLimitFromFrame(data);
        this.emit('error', this.limitHit);
      } else this.emit('error', new ProtocolError('garbage', 'frame is not JSON', data.slice(0, 200)));
      return;
    }
    if (msg === null || typeof msg !== 'object') {
      this.emit('error', new ProtocolError('bad-frame', 'frame is not a JSON object', data.slice(0, 200)));
      return;
    }
    if (msg.method === NOTIFICATION) {
      const address = msg.params?.channel;
      const sub = typeof address === 'string' ? this.subs.get(address) : undefined;
      if (sub) this.deliver(sub, msg.params!.data);
      else if (typeof address !== 'string' || !this.dropped.has(address)) this.emit('error', new ProtocolError('unknown-channel', `notification for a channel not subscribed: ${String(address)}`, data.slice(0, 200)));
      return;
    }
    const id = msg.id;
    const p = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!p) {
      this.emit('error', new ProtocolError(id === undefined ? 'bad-frame' : 'unknown-id', id === undefined ? 'frame is neither a notification nor a response' : `response to unknown id ${JSON.stringify(id)}`, data.slice(0, 200)));
      return;
    }
    this.pending.delete(id as number);
    if (msg.error && typeof msg.error === 'object') p.reject(rpcErrorFromCode(msg.error));
    else if ('result' in msg) p.resolve(msg.result);
    else p.reject(new ProtocolError('bad-frame', `response to ${p.method} has neither result nor error`, data.slice(0, 200)));
  }

  private deliver(sub: Sub, payload: unknown): void {
    if (sub.validate !== null && !sub.validate(payload)) {
      const failures = this.validators!.failuresOf(sub.validate as never, payload);
      const dropped = this.mode === 'strict';
      this.emit('validation', { target: sub.address, channel: sub.channelId, failures, dropped, error: new PayloadValidationError(sub.address, failures) });
      if (dropped) return;
    }
    for (const h of sub.handlers) {
      try {
        h.fn(payload);
      } catch (err) {
        this.emit('error', new ClientError('HANDLER_FAILED', `handler of ${sub.address} threw: ${(err as Error)?.message ?? String(err)}`, undefined, { cause: err }));
      }
    }
  }

  // ---------------------------------------------------------------- calls

  /**
   * Call a method over WebSocket, or over HTTP where the tables say the method is served there.
   * Waits for rate-limit budget and for a reconnect within the timeout; rejects with a typed error.
   */
  call<M extends CallableMethod>(method: M, params: CallParams<M>, options: CallOptions = {}): Promise<CallResult<M>> {
    const entry = methodByName.get(method);
    if (!entry) return Promise.reject(new UsageError(`unknown method ${method}`));
    const transports = entry.transports as readonly string[];
    // WebSocket when the method is served there and a connection exists (or is coming back); HTTP otherwise.
    const wsUsable = transports.includes('ws') && (this.state !== 'idle' && this.state !== 'closed' || !transports.includes('http'));
    const transport = options.transport ?? (wsUsable ? 'ws' : 'http');
    if (!transports.includes(transport)) return Promise.reject(new UsageError(`${method} is not served over ${transport} (only ${transports.join(', ')})`));
    const send = () => (transport === 'ws' ? this.wsCall(method, params, options, false) : this.httpCall(method, params, options)) as Promise<CallResult<M>>;
    // Order flow on an instrument the limiter has no type for: learn the types first (picks the bucket).
    return this.limiter?.unknownInstrument(method, params) ? this.learnInstrumentTypes(options).then(send) : send();
  }

  /** One timeout and the caller's signal folded into one signal whose reason is the typed error. */
  private guard(method: string, options: CallOptions): { signal: AbortSignal; done: () => void } {
    const ctl = new AbortController();
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs ?? 10_000;
    const timer = setTimeout(() => ctl.abort(new TimeoutError(method, timeoutMs)), timeoutMs);
    const user = options.signal;
    const onAbort = () => ctl.abort(new AbortedError(method, { cause: user!.reason }));
    if (user?.aborted) onAbort();
    else user?.addEventListener('abort', onAbort, { once: true });
    return {
      signal: ctl.signal,
      done: () => {
        clearTimeout(timer);
        user?.removeEventListener('abort', onAbort);
      },
    };
  }

  private async wsCall(method: string, params: unknown, options: CallOptions, internal: boolean, taken?: () => void): Promise<any> {
    const { signal, done } = this.guard(method, options);
    try {
      if (!internal) await this.waitReady(signal);
      await this.limiter?.acquire(method, params, this.authenticated, signal);
      taken?.();
      const result = await this.send(method, params, signal);
      return this.checkResult(method, result);
    } catch (err) {
      if (err instanceof RateLimitError && err.retryAfterMs !== null && !err.local) this.limiter?.penalize(method, params, this.authenticated, err.retryAfterMs);
      throw err;
    } finally {
      done();
    }
  }

  private send(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    const ws = this.socket;
    if (!ws || ws.readyState !== OPEN) return Promise.reject(new ConnectionClosedError(`${method}: connection is not open`));
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
      this.pending.set(id, { method, params, resolve: settle(resolve), reject: settle(reject) });
      try {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      } catch (err) {
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
        reject(new ConnectionClosedError(`${method}: send failed: ${(err as Error).message}`));
      }
    });
  }

  private checkResult(method: string, result: unknown): unknown {
    const v = this.mode === 'off' ? undefined : this.validators?.assumedResults[method];
    if (v && !v(result)) {
      const failures = this.validators!.failuresOf(v as never, result);
      const error = new PayloadValidationError(`result of ${method}`, failures);
      const dropped = this.mode === 'strict';
      this.emit('validation', { target: `result of ${method}`, channel: null, failures, dropped, error });
      if (dropped) throw error;
    }
    return result;
  }

  private async httpCall(method: string, params: unknown, options: CallOptions): Promise<any> {
    const entry = methodByName.get(method)!;
    if (!this.opts.httpUrl) throw new UsageError(`${method} goes over HTTP: pass options.httpUrl`);
    const doFetch = this.opts.fetch ?? globalThis.fetch;
    const { signal, done } = this.guard(method, options);
    const isPrivate = entry.auth === 'login';
    try {
      await this.limiter?.acquire(method, params, isPrivate, signal);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (isPrivate) {
        // A fresh proof per request: the timestamp is the anti-replay token.
        const auth = await this.loadAuth();
        Object.assign(headers, auth.loginHeaders(await auth.signLogin(this.requireSigner(method), { wallet: this.opts.wallet })));
      }
      const url = this.opts.httpUrl.replace(/\/+$/, '').replace(/\/v3$/, '') + entry.httpPath;
      let res: Response;
      try {
        res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(params ?? {}), signal });
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        throw new ConnectError(`${method}: POST ${url} failed: ${(err as Error).message}`, { cause: err });
      }
      const text = await res.text();
      let body: { result?: unknown; error?: RpcErrorObject } | null = null;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ProtocolError('http-status', `${method}: HTTP ${res.status} with a body that is not JSON`, text.slice(0, 200));
      }
      if (body && typeof body === 'object' && body.error) throw rpcErrorFromCode(body.error);
      if (body && typeof body === 'object' && 'result' in body) return this.checkResult(method, body.result);
      throw new ProtocolError('http-status', `${method}: HTTP ${res.status} without result or error`, text.slice(0, 200));
    } catch (err) {
      if (err instanceof RateLimitError && err.retryAfterMs !== null) this.limiter?.penalize(method, params, isPrivate, err.retryAfterMs);
      if (signal.aborted && !(err instanceof ClientError)) throw signal.reason;
      throw err;
    } finally {
      done();
    }
  }

  private requireSigner(what: string): Signer {
    if (!this.opts.signer) throw new UsageError(`${what} needs options.signer`);
    return this.opts.signer;
  }

  private loadAuth(): Promise<AuthModule> {
    return (this.auth ??= import('@exchange-api/auth'));
  }

  // ---------------------------------------------------------------- login and helpers

  /** Log in with a fresh timestamp; returns the subaccount ids. Repeated after every reconnect. */
  async login(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<number[]> {
    this.requireSigner('login');
    await this.waitReady(options.signal);
    const ids = await this.doLogin(false, options);
    // Remembered (and repeated after reconnects) only once it succeeded.
    this.wantLogin = true;
    return ids;
  }

  private async doLogin(internal: boolean, options: CallOptions = {}): Promise<number[]> {
    const auth = await this.loadAuth();
    const proof = await auth.signLogin(this.requireSigner('login'), { wallet: this.opts.wallet });
    const ids = (await this.wsCall('public/login', proof, options, internal)) as number[];
    this.authenticated = true;
    this.wallet = proof.wallet;
    this.subaccountIds = ids;
    if (this.limiter && this.limiter.options.syncAfterLogin !== false) {
      try {
        await this.rateLimits(options, internal);
      } catch (err) {
        if (isDrop(err)) throw err;
        this.emit('error', asClientError(err));
      }
    }
    return ids;
  }

  /** `public/getRateLimits` over WebSocket, and the limiter corrected from it (knowing what was sent after it). */
  private async rateLimits(options: CallOptions, internal: boolean): Promise<RateLimitsResult> {
    let mark: LimiterMark | undefined;
    const authenticated = this.authenticated;
    const r = (await this.wsCall('public/getRateLimits', {}, options, internal, () => (mark = this.limiter?.mark()))) as RateLimitsResult;
    this.limiter?.sync(r, authenticated && this.authenticated, mark);
    return r;
  }

  /** The caller's live budgets (`public/getRateLimits`); also corrects the client's limiter. */
  async getRateLimits(options: CallOptions = {}): Promise<RateLimitsResult> {
    const transport = options.transport ?? (this.ready ? 'ws' : 'http');
    if (transport === 'ws') return this.rateLimits(options, false);
    const r = await this.call('public/getRateLimits', {}, { ...options, transport });
    this.limiter?.sync(r, false);
    return r;
  }

  /** The wallet's subaccount ids (`private/get_subaccounts` over HTTP, signed headers per request). */
  async getSubaccounts(options: CallOptions & { wallet?: string } = {}): Promise<number[]> {
    const wallet = options.wallet ?? this.opts.wallet ?? (await this.requireSigner('getSubaccounts').getAddress());
    const r = await this.call('private/get_subaccounts', { wallet }, options);
    return Array.isArray(r) ? r : r.subaccount_ids;
  }

  /** Live instruments (`public/get_all_live_instruments`). */
  getAllLiveInstruments(options: CallOptions = {}): Promise<CallResult<'public/get_all_live_instruments'>> {
    return this.call('public/get_all_live_instruments', {}, options);
  }

  /**
   * Send an order-flow request: fills nonce and expiry when absent, signs it with the action signer
   * (default: the spec's assumed EIP-712 layout, or `actionLayout`), then calls it over WebSocket.
   */
  async action<M extends OrderFlowMethodName>(method: M, params: ActionInput<M>, options: CallOptions = {}): Promise<CallResult<M>> {
    const auth = this.opts.actionSigner ? null : await this.loadAuth();
    const full = {
      ...(params as Record<string, unknown>),
      nonce: params.nonce ?? (auth ?? (await this.loadAuth())).newNonce(),
      signature_expiry_sec: params.signature_expiry_sec ?? Math.floor(Date.now() / 1000) + (this.opts.signatureExpirySec ?? 600),
    } as Record<string, unknown> & ActionFieldsInput;
    const signed = this.opts.actionSigner
      ? await this.opts.actionSigner(method, full)
      : await auth!.signAction(this.requireSigner(method), method, full, this.opts.actionLayout);
    return this.call(method, signed as unknown as CallParams<M>, options);
  }

  /**
   * Tell the limiter the instrument types the server reports (`public/get_all_live_instruments`, no
   * budget decrement), which pick each instrument's bucket. Fetched when an order names an instrument
   * the limiter has not seen, at most once a minute; a failure is reported and the order goes on (an
   * instrument still unknown draws on the first bucket of the table, perps and spot).
   */
  private learnInstrumentTypes(options: CallOptions): Promise<void> {
    if (!this.instruments && Date.now() - this.instrumentsAt >= 60_000) {
      this.instrumentsAt = Date.now();
      this.instruments = this.call('public/get_all_live_instruments', {}, { timeoutMs: options.timeoutMs, signal: options.signal })
        .then(
          (list) => {
            if (Array.isArray(list)) this.limiter?.setInstrumentTypes(list);
          },
          (err: unknown) => this.emit('error', asClientError(err)),
        )
        .finally(() => (this.instruments = null));
    }
    return this.instruments ?? Promise.resolve();
  }

  // ---------------------------------------------------------------- subscriptions

  /**
   * Call `handler` with every payload of `channel` (a builder result or a literal address). Array
   * channels hand over the whole pushed array. One wire subscription per address however many
   * handlers. Resolves once the server confirmed the subscription.
   */
  async subscribe<A extends ChannelAddress>(channel: A, handler: Handler<A>): Promise<Subscription> {
    const address = String(channel);
    let sub = this.subs.get(address);
    if (!sub) {
      // Matched once per subscription: a live Sub keeps its channelId.
      const channelId = matchChannel(address)?.channel.id;
      if (channelId === undefined) throw new UsageError(`${address} matches no channel of the API`);
      const validate = this.mode === 'off' ? null : (this.validators?.channels[channelId] ?? null);
      sub = { address, channelId, handlers: new Set(), validate, confirmed: Promise.resolve() };
      this.subs.set(address, sub);
      this.dropped.delete(address);
      sub.confirmed = this.wireSubscribe(address);
    }
    const entry = { fn: handler as (payload: unknown) => void };
    sub.handlers.add(entry);
    try {
      await sub.confirmed;
    } catch (err) {
      sub.handlers.delete(entry);
      if (sub.handlers.size === 0 && this.subs.get(address) === sub) this.subs.delete(address);
      throw err;
    }
    let active = true;
    return {
      address,
      unsubscribe: async () => {
        if (!active) return;
        active = false;
        sub.handlers.delete(entry);
        if (sub.handlers.size === 0 && this.subs.get(address) === sub) {
          this.subs.delete(address);
          this.dropped.add(address);
          if (this.ready) await this.wsCall('unsubscribe', { channels: [address] }, {}, false).catch((err: unknown) => {
            if (!(err instanceof ConnectionClosedError)) this.emit('error', asClientError(err));
          });
        }
      },
    };
  }

  /** Subscriptions asked for in the same tick go out as one request. */
  private wireSubscribe(address: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!this.batch) {
        const batch = { addresses: [] as string[], waiters: new Map<string, { resolve: () => void; reject: (e: unknown) => void }>() };
        this.batch = batch;
        queueMicrotask(() => void this.flush(batch));
      }
      this.batch.addresses.push(address);
      this.batch.waiters.set(address, { resolve, reject });
    });
  }

  private async flush(batch: NonNullable<ExchangeClient['batch']>): Promise<void> {
    if (this.batch === batch) this.batch = null;
    try {
      const res = (await this.wsCall('subscribe', { channels: batch.addresses }, {}, false)) as SubscriptionResult;
      for (const [address, w] of batch.waiters) {
        if (confirmed(res, address)) w.resolve();
        else w.reject(new ClientError('SUBSCRIBE_REFUSED', `subscribe ${address}: ${res.status?.[address] ?? 'not in current_subscriptions'}`));
      }
    } catch (err) {
      for (const w of batch.waiters.values()) w.reject(err);
    }
  }

  /**
   * An async iterator over `channel`'s payloads; leaving the loop unsubscribes. A bounded buffer holds
   * payloads for a slow consumer; on overflow the oldest is dropped (and reported through `overflow`)
   * unless `overflow: 'error'` ends the stream with a StreamOverflowError.
   */
  stream<A extends ChannelAddress>(channel: A, options: StreamOptions = {}): AsyncIterableIterator<PayloadOf<A>> & { ready: Promise<Subscription> } {
    const address = String(channel);
    const queue = new BoundedQueue<PayloadOf<A>>(address, options.bufferSize ?? 1024, options.overflow ?? 'drop-oldest', (dropped) => this.emit('overflow', { address, dropped }));
    const ready = this.subscribe(channel, (p) => queue.push(p));
    let sub: Subscription | null = null;
    ready.then(
      (s) => (sub = s),
      (err: unknown) => queue.fail(err),
    );
    this.streams.add(queue as BoundedQueue<unknown>);
    const stop = async () => {
      this.streams.delete(queue as BoundedQueue<unknown>);
      queue.end();
      await (sub ?? (await ready.catch(() => null)))?.unsubscribe();
    };
    queue.onEnd = () => void stop();
    ready.catch(() => undefined);
    const it = {
      ready,
      next: () => queue.next(),
      return: async (): Promise<IteratorResult<PayloadOf<A>>> => {
        await stop();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return it;
      },
    };
    return it;
  }
}

function confirmed(res: SubscriptionResult | null | undefined, address: string): boolean {
  if (!res || typeof res !== 'object') return false;
  const ok = res.status?.[address] === 'ok';
  const current = Array.isArray(res.current_subscriptions) ? res.current_subscriptions.includes(address) : ok;
  return ok && current;
}

/** The socket went away under a call (closed, or refused for the connection limit). */
function isDrop(err: unknown): boolean {
  return err instanceof ConnectionClosedError || err instanceof ConnectionLimitError;
}

function asClientError(err: unknown): ClientError {
  return err instanceof ClientError ? err : new ClientError('INTERNAL', (err as Error)?.message ?? String(err), undefined, { cause: err });
}

/** Create a client. Nothing happens on the wire until connect(). */
export function createClient(options: ClientOptions): ExchangeClient {
  return new ExchangeClient(options);
}

/**
 * The runtime client's core, a facade that knows no API: one WebSocket (JSON-RPC 2.0 and channel
 * notifications) plus HTTP POST, driven by the tables of the API it is given (`options.api`: methods,
 * channels, limits, rate-limit classes, error codes) and typed by the type parameters its generated
 * code gives it (the API's method map and channel map: `ApiClient<Methods, Channels>`). This
 * interface's client is one such generated surface (src/generated/surface.gen.ts, `ExchangeClient`);
 * an SDK generated for another spec is another (`createApiClient<Methods, Channels>`). The parts it
 * wires: connection (open, restore, reconnect, close), the RPC session (pending calls, send, receive),
 * HTTP, subscriptions (batching, delivery) and streams, validation, signing and the limiter.
 *
 * No Node built-ins here: the socket constructor and fetch are injected (src/index.ts passes `ws` in
 * Node; browsers use the globals). ethers, @exchange-api/auth and @exchange-api/validators load
 * lazily, only when signing or validation needs them.
 */
import { channelMatcher } from '@exchange-api/types';
import { ClientError, UsageError } from './errors';
import { ServerErrors } from './server-errors';
import { Limiter } from './limiter';
import { learnInstrumentTypes, syncRateLimits } from './limiter-feed';
import { defaultReconnectPolicy } from './backoff';
import type { PayloadStream, StreamOptions } from './stream';
import { OpenStreams } from './open-streams';
import { Emitter } from './events';
import { startDeadline } from './deadline';
import { asClientError, isDrop } from './faults';
import { Validation } from './validation';
import { Signing } from './signing';
import { RpcSession } from './session';
import { Connection } from './connection';
import { Subscriptions } from './subscriptions';
import { HttpTransport } from './http';
import type { InstrumentTypes } from './instrument-types';
import { ActionInstruments } from './action-instruments';
import type {
  ApiActionInput,
  ApiClientOptions,
  ApiHandler,
  ApiMethodEntry,
  ApiParams,
  ApiPayload,
  ApiResult,
  CallOptions,
  ChannelMap,
  ClientEvents,
  ConnectionState,
  MethodMap,
  MethodNameOf,
  NamedResult,
  Subscription,
  UntypedMethods,
  WebSocketConstructor,
} from './types';

/**
 * How a WebSocket call is sent: during the restore of a connection not yet open, and what runs once its
 * budget is taken.
 */
interface WsCallMode {
  /** Sent by the restore on a socket not yet accepted: do not wait for `open`. */
  restoring?: boolean;
  /** Runs right after the limiter took the call's budget (before it is sent). */
  onBudgetTaken?: () => void;
}

/**
 * A client of the API whose tables it is given, typed by that API's method map `TMethods` (method name
 * → params and result) and channel map `TChannels` (addresses → payloads). Create it with the
 * `createClient` of a generated surface (this interface's, or an SDK's), or with createApiClient.
 */
export class ApiClient<
  TMethods extends MethodMap<TMethods> = UntypedMethods,
  TChannels extends ChannelMap = ChannelMap,
> {
  /** The client-side limiter, or null when turned off. */
  readonly limiter: Limiter | null;
  /** The wallet of the last login. */
  wallet: string | null = null;
  /** The subaccount ids the last login returned. */
  subaccountIds: number[] = [];

  private readonly timeoutMs: number;
  /** The API's methods by name, from its tables (options.api). */
  private readonly methods: ReadonlyMap<string, ApiMethodEntry>;
  private readonly events = new Emitter<ClientEvents>((event, err) => listenerFailed(event, err));
  private readonly validation: Validation;
  private readonly signing: Signing;
  private readonly session: RpcSession;
  private readonly connection: Connection;
  private readonly subscribed: Subscriptions;
  private readonly http: HttpTransport;
  private readonly instrumentTypes: InstrumentTypes | null;
  private readonly actionInstruments: ActionInstruments;
  private readonly streams = new OpenStreams();
  /** A login succeeded: repeat it on every new connection. */
  private loginOnReconnect = false;

  /** A client of the API `options.api` describes (a generated surface passes its own tables). */
  constructor(options: ApiClientOptions) {
    const WS = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!WS) throw new UsageError('no WebSocket: pass options.WebSocket (the Node entry passes ws)');
    const api = options.api;
    if (!api || !Array.isArray(api.methods) || !Array.isArray(api.channels))
      throw new UsageError('no API tables: pass options.api with its methods and channels (createClient passes them)');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.methods = new Map(api.methods.map((m) => [m.name, m]));
    const matchChannel = channelMatcher(api.channels);
    this.limiter = options.limiter === false ? null : new Limiter(api, options.limiter ?? {});
    this.validation = new Validation(options.validate ?? 'warn', options.validators, this.events);
    this.signing = new Signing(options);
    const errors = new ServerErrors(api.errors);
    this.session = new RpcSession(
      this.events,
      {
        notification: (address, data, frame) => this.subscribed.deliver(address, data, frame),
        connectionLimit: (err) => this.connection.connectionLimitHit(err),
      },
      errors,
    );
    const policy = options.reconnect === false ? null : { ...defaultReconnectPolicy, ...options.reconnect };
    this.connection = new Connection(
      { url: options.wsUrl, WebSocket: WS, policy, timeoutMs: this.timeoutMs },
      this.session,
      this.events,
      {
        restore: (isCurrent) => this.restoreSession(isCurrent),
        opened: () => this.subscribed.connectionOpened(),
        lost: (err) => this.subscribed.failBatch(err),
        closed: (err, byUser) => this.closed(err, byUser),
      },
    );
    this.subscribed = new Subscriptions(
      (method, params, restoring) => this.wsCall(method, params, {}, { restoring }),
      () => this.connection.isOpen,
      this.validation,
      this.events,
      (address) => matchChannel(address)?.channel.id,
    );
    this.http = new HttpTransport(
      { httpUrl: options.httpUrl, fetch: options.fetch, timeoutMs: this.timeoutMs, methods: this.methods, errors },
      this.limiter,
      this.signing,
      this.validation,
    );
    const hasLookup = this.methods.has('public/get_instrument');
    this.actionInstruments = new ActionInstruments(
      hasLookup ? (name, o) => this.request('public/get_instrument', { instrument_name: name as string }, o) : null,
    );
    // The types come from each instrument's record (get_all_live_instruments lists names only), through the
    // signing's cache: one lookup per instrument serves both. An API without the lookup has none to learn.
    const report = (err: ClientError) => this.events.emit('error', err);
    const lookup = hasLookup ? (name: string, o: CallOptions) => this.actionInstruments.of(name, o) : null;
    this.instrumentTypes = this.limiter && learnInstrumentTypes(this.limiter, lookup, report);
  }

  /** Listen to an event; returns the function that stops listening. */
  on<E extends keyof ClientEvents>(event: E, fn: (value: ClientEvents[E]) => void): () => void {
    return this.events.on(event, fn);
  }

  /** Current connection state. */
  get state(): ConnectionState {
    return this.connection.state;
  }

  /** Calls sent and not yet answered. */
  get pendingCount(): number {
    return this.session.pendingCount;
  }

  /** Addresses with at least one handler (each is one wire subscription). */
  get subscriptions(): string[] {
    return this.subscribed.addresses;
  }

  // ---------------------------------------------------------------- connection

  /** Open the socket (and, after a previous login, log in again and resubscribe). Rejects with ConnectError. */
  async connect(): Promise<void> {
    if (this.state === 'open') return;
    if (this.state === 'connecting' || this.state === 'reconnecting') return this.connection.waitReady();
    await this.validation.load();
    this.subscribed.attachValidators();
    return this.connection.start();
  }

  /** Close for good: pending calls fail with ConnectionClosedError, streams end; no reconnect. */
  close(): Promise<void> {
    return this.connection.close();
  }

  private closed(err: ClientError, byUser: boolean): void {
    this.limiter?.clear(err);
    this.streams.endAll(err, byUser);
  }

  /**
   * After (re)connecting: log in again with a fresh timestamp, then resubscribe everything in one
   * batch. With neither (or a login that could not even be sent), one `public/getRateLimits` round
   * trip (which also corrects the limiter), so that the first exchange on every connection shows the
   * server accepted it. Any answer, even an error, does; a drop (or the connection-limit frame and
   * close) rejects.
   */
  private async restoreSession(isCurrent: () => boolean): Promise<void> {
    const hasSubscriptions = this.subscribed.addresses.length > 0;
    try {
      if (this.loginOnReconnect) await this.loginOnSocket(true);
      // Another API (options.api) may have no such method: then the first call or subscribe is the first exchange.
      if (!this.session.answered && !hasSubscriptions && this.methods.has('public/getRateLimits'))
        await this.rateLimits({}, true);
    } catch (err) {
      if (isDrop(err) || !isCurrent()) throw err;
      this.events.emit('error', asClientError(err));
    }
    await this.subscribed.restore(isCurrent);
  }

  // ---------------------------------------------------------------- calls

  /**
   * Call a method over WebSocket, or over HTTP where the tables say the method is served there.
   * Waits for rate-limit budget and for a reconnect within the timeout; rejects with a typed error.
   */
  call<M extends MethodNameOf<TMethods>>(
    method: M,
    params: ApiParams<TMethods, M>,
    options: CallOptions = {},
  ): Promise<ApiResult<TMethods, M>> {
    return this.request(method, params, options) as Promise<ApiResult<TMethods, M>>;
  }

  /** `call` by name, untyped: what the typed members and the helpers of conventional methods go through. */
  private request(method: string, params: unknown, options: CallOptions = {}): Promise<unknown> {
    const entry = this.methods.get(method);
    if (!entry) return Promise.reject(new UsageError(`unknown method ${method}`));
    const transports = entry.transports as readonly string[];
    // WebSocket when the method is served there and a connection exists (or is coming back); HTTP otherwise.
    const wsUsable =
      transports.includes('ws') && ((this.state !== 'idle' && this.state !== 'closed') || !transports.includes('http'));
    const transport = options.transport ?? (wsUsable ? 'ws' : 'http');
    if (!transports.includes(transport))
      return Promise.reject(
        new UsageError(`${method} is not served over ${transport} (only ${transports.join(', ')})`),
      );
    const send = () =>
      transport === 'ws' ? this.wsCall(method, params, options) : this.http.call(method, params, options);
    // Order flow on an instrument the limiter has no type for: learn its type first (picks the bucket).
    const unknown = this.instrumentTypes && this.limiter?.unknownInstrument(method, params);
    return unknown ? this.instrumentTypes!.learn(unknown, options).then(send) : send();
  }

  private async wsCall(method: string, params: unknown, options: CallOptions, mode: WsCallMode = {}): Promise<unknown> {
    const deadline = startDeadline(method, options.timeoutMs ?? this.timeoutMs, options.signal);
    const { signal } = deadline;
    try {
      if (!mode.restoring) await this.connection.waitReady(signal);
      // A hinted refusal of what the limiter let through is absorbed: wait for the hint, send again (bounded).
      for (let retries = 0; ; retries++) {
        await this.limiter?.acquire(method, params, this.session.authenticated, signal, retries > 0);
        mode.onBudgetTaken?.();
        try {
          const result = await this.session.send(method, params, signal);
          return this.validation.checkResult(method, result);
        } catch (err) {
          if (!this.limiter?.absorb(err, retries, method, params, this.session.authenticated)) throw err;
        }
      }
    } finally {
      deadline.release();
    }
  }

  // ---------------------------------------------------------------- login and helpers

  /** Log in with a fresh timestamp; returns the subaccount ids. Repeated after every reconnect. */
  async login(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<number[]> {
    this.signing.requireSigner('login');
    await this.connection.waitReady(options.signal);
    const ids = await this.loginOnSocket(false, options);
    // Remembered (and repeated after reconnects) only once it succeeded.
    this.loginOnReconnect = true;
    return ids;
  }

  private async loginOnSocket(restoring: boolean, options: CallOptions = {}): Promise<number[]> {
    const proof = await this.signing.loginProof();
    const ids = (await this.wsCall('public/login', proof, options, { restoring })) as number[];
    this.session.authenticated = true;
    this.wallet = proof.wallet;
    this.subaccountIds = ids;
    if (this.limiter && this.limiter.options.syncAfterLogin !== false && this.methods.has('public/getRateLimits')) {
      try {
        await this.rateLimits(options, restoring);
      } catch (err) {
        if (isDrop(err)) throw err;
        this.events.emit('error', asClientError(err));
      }
    }
    return ids;
  }

  /** `public/getRateLimits` over WebSocket, and the limiter corrected from it (knowing what was sent after it). */
  private rateLimits(options: CallOptions, restoring: boolean): Promise<object> {
    const send = (onBudgetTaken: () => void) =>
      this.wsCall('public/getRateLimits', {}, options, { restoring, onBudgetTaken });
    return syncRateLimits(this.limiter, () => this.session.authenticated, send);
  }

  /** The caller's live budgets (`public/getRateLimits`); also corrects the client's limiter. */
  async getRateLimits(options: CallOptions = {}): Promise<NamedResult<TMethods, 'public/getRateLimits'>> {
    const transport = options.transport ?? (this.connection.isOpen ? 'ws' : 'http');
    if (transport === 'ws')
      return (await this.rateLimits(options, false)) as NamedResult<TMethods, 'public/getRateLimits'>;
    const r = (await this.request('public/getRateLimits', {}, { ...options, transport })) as object;
    this.limiter?.sync(r, false);
    return r as NamedResult<TMethods, 'public/getRateLimits'>;
  }

  /** The wallet's subaccount ids (`private/get_subaccounts` over HTTP, signed headers per request). */
  async getSubaccounts(options: CallOptions & { wallet?: string } = {}): Promise<number[]> {
    const wallet = options.wallet ?? (await this.signing.wallet('getSubaccounts'));
    const r = (await this.request('private/get_subaccounts', { wallet }, options)) as
      number[] | { subaccount_ids: number[] };
    return Array.isArray(r) ? r : r.subaccount_ids;
  }

  /** The names of the live instruments (`public/get_all_live_instruments`; details: `public/get_instrument`). */
  getAllLiveInstruments(options: CallOptions = {}): Promise<NamedResult<TMethods, 'public/get_all_live_instruments'>> {
    return this.request('public/get_all_live_instruments', {}, options) as Promise<
      NamedResult<TMethods, 'public/get_all_live_instruments'>
    >;
  }

  /**
   * Send an order-flow request. A method with an action module (private/order, private/replace) is
   * signed first: nonce and expiry filled when absent, the instrument's asset looked up
   * (public/get_instrument, once per instrument), signed by the action signer (default: as the public
   * clients sign, for the spec's deployment or `actionLayout`). The cancels go as they are: the login
   * authorises them. WebSocket when connected, HTTP otherwise.
   */
  async action<M extends MethodNameOf<TMethods>>(
    method: M,
    params: ApiActionInput<TMethods, M>,
    options: CallOptions = {},
  ): Promise<ApiResult<TMethods, M>> {
    const module = this.methods.get(method)?.actionModule ?? null;
    const p = params as Record<string, unknown>;
    const sent =
      module === null
        ? p
        : await this.signing.signAction(method, p, module, () => this.actionInstruments.of(p.instrument_name, options));
    return this.request(method, sent, options) as Promise<ApiResult<TMethods, M>>;
  }

  // ---------------------------------------------------------------- subscriptions

  /**
   * Call `handler` with every payload of `channel` (a builder result or a literal address). Array
   * channels hand over the whole pushed array. One wire subscription per address however many
   * handlers. Resolves once the server confirmed the subscription.
   */
  subscribe<A extends TChannels['address']>(channel: A, handler: ApiHandler<TChannels, A>): Promise<Subscription> {
    return this.subscribed.subscribe(String(channel), handler as (payload: unknown) => void);
  }

  /**
   * An async iterator over `channel`'s payloads; leaving the loop unsubscribes. A bounded buffer holds
   * payloads for a slow consumer; on overflow the oldest is dropped (and reported through `overflow`)
   * unless `overflow: 'error'` ends the stream with a StreamOverflowError.
   */
  stream<A extends TChannels['address']>(
    channel: A,
    options: StreamOptions = {},
  ): PayloadStream<ApiPayload<TChannels, A>> {
    const address = String(channel);
    const onOverflow = (dropped: number) => this.events.emit('overflow', { address, dropped });
    return this.streams.open<ApiPayload<TChannels, A>>(
      address,
      options,
      (push) => this.subscribe(channel, push),
      onOverflow,
    );
  }
}

/** A listener of `event` threw: what the `error` listeners get (code LISTENER_FAILED, the thrown value as `cause`). */
function listenerFailed(event: keyof ClientEvents, err: unknown): ClientError {
  const what = err instanceof Error ? err.message : String(err);
  return new ClientError('LISTENER_FAILED', `a listener of '${String(event)}' threw: ${what}`, undefined, {
    cause: err,
  });
}

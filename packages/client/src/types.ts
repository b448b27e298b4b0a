/**
 * The client's public types, and nothing that runs. None of them names an API: calls and channels are
 * typed by the type parameters an API's generated code gives the core (its method map and channel
 * map); this interface's own aliases (CallParams, Handler, …) are generated (src/generated).
 */
import type {
  ChannelTemplate,
  ErrorTableLike,
  LimitTableEntry,
  RateLimitClassEntry,
  RateLimitRuleEntry,
} from '@exchange-api/types';
import type { ActionLayout } from '@exchange-api/auth';
import type { ClientError, PayloadFailure, PayloadValidationError } from './errors';
import type { LimiterOptions } from './limiter';
import type { ReconnectPolicy } from './backoff';

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

/**
 * The signer of logins and actions: the methods of an ethers `Signer` the client uses (an ethers
 * `Wallet` fits), so that the client's types and its public-data path need no ethers.
 */
export interface SignerLike {
  getAddress(): Promise<string>;
  /** EIP-191 personal_sign of a login timestamp. */
  signMessage(message: string): Promise<string>;
  /** EIP-712 signature of an action. */
  signTypedData(
    domain: object,
    types: Record<string, Array<{ name: string; type: string }>>,
    value: Record<string, unknown>,
  ): Promise<string>;
}

/** The fields every action carries before it is signed. */
export interface ActionFieldsInput {
  subaccount_id: number;
  nonce: string;
  signature_expiry_sec: number;
}

/**
 * Signs a signed order-flow request (private/order, private/replace): gets the params with nonce and
 * expiry filled, returns them with signer and signature. `M`: the method names it signs (this
 * interface's entry narrows it to its order-flow methods).
 */
export type ActionSigner<M extends string = string> = (
  method: M,
  params: Record<string, unknown> & ActionFieldsInput,
) => Promise<Record<string, unknown>>;

/** A validator as the generated ones are: a function with `errors` left on it after a failure. */
export type ValidatorFn = ((data: unknown) => boolean) & { errors?: unknown };

/** The validators the client needs; default: @exchange-api/validators, loaded on first need. */
export interface ValidatorSource {
  channels: Record<string, ValidatorFn>;
  assumedResults: Record<string, ValidatorFn>;
  failuresOf: (validate: never, data: unknown) => PayloadFailure[];
}

/** A method as the client needs it from a method table: name, transports, HTTP path, login, rate limits. */
export interface ApiMethodEntry {
  readonly name: string;
  readonly transports: ReadonlyArray<string>;
  readonly httpPath: string | null;
  readonly auth: string;
  /** State-changing order flow: draws on the instrument buckets (limits of kind `bucket`). */
  readonly orderFlow?: boolean;
  /** The module whose action signature the method's params carry (x-action-module); none: no signature. */
  readonly actionModule?: string | null;
  /** The name the rate-limit tables give the method (its `remaining_per_endpoint` key). */
  readonly rateLimitKey?: string | null;
  readonly rateLimitClass?: string | null;
  /** The method's own budget (its class's budget is `per-method`). */
  readonly rateLimitBudget?: string | null;
  /** The method's own budget logic (its class's budget is `own-logic`). */
  readonly rateLimitRule?: RateLimitRuleEntry | null;
}

/** A channel as the client needs it from a channel table: its id and address template. */
export interface ApiChannelEntry extends ChannelTemplate {
  readonly id: string;
}

/**
 * The description of the API the client speaks, generated from its spec: methods and channels, and
 * what the limiter and the error classes read (limits, rate-limit classes, the error table). The
 * client knows no API of its own: the generated `ExchangeClient` of @exchange-api/client passes this
 * interface's tables (`exchangeApi`); an SDK generated for another spec passes its own. A table left out means
 * the API has none: no limits, no throttling; no error table, every error answer a plain RpcError.
 */
export interface ApiTables {
  methods: ReadonlyArray<ApiMethodEntry>;
  channels: ReadonlyArray<ApiChannelEntry>;
  /** The limits (x-limits): window budgets and instrument buckets. */
  limits?: ReadonlyArray<LimitTableEntry>;
  /** The rate-limit classes (x-rate-limit-classes): which budget each class of method draws on. */
  rateLimitClasses?: ReadonlyArray<RateLimitClassEntry>;
  /** The error table (x-errors): codes and their kinds (rate-limit, connection-limit, auth, …). */
  errors?: ErrorTableLike | null;
}

/** Options of createClient. Only wsUrl is required. */
export interface ClientOptions {
  /** WebSocket URL, e.g. `wss://host/v3/ws`. */
  wsUrl: string;
  /** HTTP base, e.g. `https://host` (the method paths from the tables start with /v3). */
  httpUrl?: string;
  /**
   * Signer for login and action signatures (an ethers Signer fits): the wallet, or a session key (then pass
   * `wallet`).
   */
  signer?: SignerLike;
  /** The wallet a session-key signer acts for. Default: the signer's own address. */
  wallet?: string;
  /** Payload checking. Default 'warn'. */
  validate?: ValidateMode;
  /** Socket constructor. Default: globalThis.WebSocket (the Node entry passes `ws`). */
  WebSocket?: WebSocketConstructor;
  /** fetch for HTTP calls. Default: globalThis.fetch. */
  fetch?: typeof fetch;
  /**
   * Per-call timeout, limiter wait and reconnect wait included; also bounds each connection attempt
   * (handshake and first answer). Default 10 000 ms.
   */
  timeoutMs?: number;
  /** Reconnect policy, or false to stay closed after a drop. */
  reconnect?: Partial<ReconnectPolicy> | false;
  /** Client-side rate limiter settings, or false to send everything at once. Default on. */
  limiter?: LimiterOptions | false;
  /**
   * Replace the default action signer (the EIP-712 Action the public clients sign, signed by `signer`).
   * Declared as a method so that a signer typed for some API's order-flow names (`ActionSigner<M>`) fits.
   */
  actionSigner?(method: string, params: Record<string, unknown> & ActionFieldsInput): Promise<Record<string, unknown>>;
  /**
   * Sign actions for this deployment (domain, separator, module addresses) instead of the spec's (ignored
   * with `actionSigner`).
   */
  actionLayout?: ActionLayout;
  /** Lifetime of an action signature when the caller gives none. Default 600 s. */
  signatureExpirySec?: number;
  /** Validators to use instead of @exchange-api/validators (an SDK for another spec passes its own). */
  validators?: ValidatorSource;
}

/** Options of createApiClient: the client's options and the tables of the API to speak (from its generated code). */
export interface ApiClientOptions extends ClientOptions {
  api: ApiTables;
}

/**
 * A validation report: which address or result, every failure with its pointer and rule, and whether it was
 * dropped.
 */
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

/** A live subscription of one handler. */
export interface Subscription {
  readonly address: string;
  /** Remove this handler; the wire subscription ends with the last handler. */
  unsubscribe(): Promise<void>;
}

/** One method's types in a method map: the params it takes and the result it answers with. */
export interface MethodTypes {
  assumedParams: unknown;
  assumedResult: unknown;
}

/**
 * An API's method map, by JSON-RPC method name (the `Methods` interface its generated code declares).
 * Written as a mapped type so that an interface fits (an interface has no index signature).
 */
export type MethodMap<T> = { [K in keyof T]: MethodTypes };

/** The method map of an API the client has no types for: any name, params and result unknown. */
export interface UntypedMethods {
  [method: string]: MethodTypes;
}

/**
 * An API's channel map, as its generated code declares it: `address`, every address it serves, and
 * `payload`, the payload type of the address the core puts in `at` (declared as `PayloadOf<this['at']>`:
 * a type-level function, which TypeScript can pass only this way). This base types every payload `unknown`.
 */
export interface ChannelMap {
  readonly address: string;
  readonly at: string;
  readonly payload: unknown;
}

/** The method names of a method map. */
export type MethodNameOf<TMethods> = keyof TMethods & string;
/** Params of a method of a method map (the documented shape, or the assumed one where the document shows none). */
export type ApiParams<TMethods extends MethodMap<TMethods>, M extends keyof TMethods> = TMethods[M]['assumedParams'];
/** Result of a method of a method map. */
export type ApiResult<TMethods extends MethodMap<TMethods>, M extends keyof TMethods> = TMethods[M]['assumedResult'];
/** The result of the method named `N` when the map has it (the helpers of conventional methods), else never. */
export type NamedResult<TMethods, N extends string> = N extends keyof TMethods
  ? TMethods[N] extends MethodTypes
    ? TMethods[N]['assumedResult']
    : never
  : never;

/**
 * Params of an order-flow request as the caller gives them: a signed method's action fields are
 * filled in (nonce, expiry) and signed (signer, signature); a method without an action signature
 * (the cancels) takes its params as they are.
 */
export type ApiActionInput<
  TMethods extends MethodMap<TMethods>,
  M extends keyof TMethods,
> = TMethods[M]['assumedParams'] extends { signature: string }
  ? Omit<TMethods[M]['assumedParams'], 'signer' | 'signature' | 'nonce' | 'signature_expiry_sec'> & {
      nonce?: string;
      signature_expiry_sec?: number;
    }
  : TMethods[M]['assumedParams'];

/** The payload type of address `A` in channel map `TChannels`. */
export type ApiPayload<TChannels extends ChannelMap, A extends string> = (TChannels & { readonly at: A })['payload'];
/** A handler of the payloads of address `A` in channel map `TChannels`. */
export type ApiHandler<TChannels extends ChannelMap, A extends string> = (payload: ApiPayload<TChannels, A>) => void;

/**
 * What a client of an API that speaks its own messages (not JSON-RPC) is given by its generated SDK:
 * the wire table (the model's decision of how the spec meets the wire, tools/codegen/src/model/wire.ts)
 * and one validator per message. Types only.
 */
import type { ReconnectPolicy } from '../backoff';
import type { PayloadFailure } from '../errors';
import type { ValidateMode, ValidatorFn, WebSocketConstructor } from '../types';

export type WireScalar = string | number | boolean | null;

export interface WireMessageEntry {
  readonly key: string;
  /** JSON pointer of the correlation id in the payload, or null. */
  readonly correlation: string | null;
  readonly discriminators: ReadonlyArray<{ readonly pointer: string; readonly values: ReadonlyArray<WireScalar> }>;
}

export interface WireChannelEntry {
  /** Appended to the path of the client's URL; `{name}` filled from `params`. Null: the URL itself. */
  readonly address: string | null;
  readonly parameters: ReadonlyArray<string>;
}

export interface WireOperationEntry {
  readonly action: 'send' | 'receive';
  readonly channel: string;
  readonly messages: ReadonlyArray<string>;
  readonly correlation: string | null;
  /** What a correlation value the client fills in is: a number (1, 2, …) or a string. */
  readonly correlationType: 'number' | 'string' | null;
  readonly reply: {
    readonly channel: string;
    readonly messages: ReadonlyArray<string>;
    readonly correlation: string | null;
  } | null;
}

export interface WireTable {
  readonly channels: Readonly<Record<string, WireChannelEntry>>;
  readonly messages: Readonly<Record<string, WireMessageEntry>>;
  readonly operations: Readonly<Record<string, WireOperationEntry>>;
}

/** The validators of a wire table's messages, by message id, and the reader of their failures. */
export interface WireValidators {
  readonly messages: Readonly<Record<string, ValidatorFn>>;
  failuresOf(validate: never, data: unknown): PayloadFailure[];
}

/** One operation's types: what the client sends or receives, its reply, its address parameters and query. */
export interface OperationTypes {
  readonly action: 'send' | 'receive';
  readonly payload: unknown;
  /** `never` for an operation without a reply. */
  readonly reply: unknown;
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  /** The `ws` bindings' headers, sent with the handshake (Node's `ws` only: a browser cannot). */
  readonly headers: Record<string, unknown>;
}

/** Operations by the spec's own ids (an interface fits: `Ops extends OperationMap<Ops>`). */
export type OperationMap<T = Record<string, OperationTypes>> = { [K in keyof T]: OperationTypes };

/** The ids of `Ops`'s operations the client sends without a reply, sends with one, and receives. */
export type SendId<Ops extends OperationMap<Ops>> = {
  [K in keyof Ops & string]: Ops[K]['action'] extends 'send' ? K : never;
}[keyof Ops & string];
export type RequestId<Ops extends OperationMap<Ops>> = {
  [K in keyof Ops & string]: Ops[K]['action'] extends 'send' ? ([Ops[K]['reply']] extends [never] ? never : K) : never;
}[keyof Ops & string];
export type ReceiveId<Ops extends OperationMap<Ops>> = {
  [K in keyof Ops & string]: Ops[K]['action'] extends 'receive' ? K : never;
}[keyof Ops & string];

/** Where an operation goes: its address parameters and the `ws` bindings' query and headers. */
export interface AddressOptions<Op extends OperationTypes = OperationTypes> {
  params?: Op['params'];
  query?: Partial<Op['query']>;
  /** Sent with the handshake; a socket per URL and headers. */
  headers?: Partial<Op['headers']>;
}

export interface RequestOptions<Op extends OperationTypes = OperationTypes> extends AddressOptions<Op> {
  /** Default: the client's timeoutMs. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface MessageClientOptions {
  /** The server's URL with its pathname (`wss://ws.example.com/raw`); each channel's address is appended. */
  url: string;
  /** Socket constructor. Default: globalThis.WebSocket (the Node entry passes `ws`). */
  WebSocket?: WebSocketConstructor;
  /** Bound of a request's reply and of a socket's opening. Default 10 000 ms. */
  timeoutMs?: number;
  /** Checking of what arrives. Default 'warn'. */
  validate?: ValidateMode;
  /**
   * Reopening a socket with streams after a drop, with back-off (the JSON-RPC client's policy and
   * defaults), or false to let a drop end them (they fail). Requests open at a drop fail either way.
   */
  reconnect?: Partial<ReconnectPolicy> | false;
}

/** What createMessageClient is given by the generated SDK besides the user's options. */
export interface MessageApi {
  readonly table: WireTable;
  readonly validators: WireValidators;
}

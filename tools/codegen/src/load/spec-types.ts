/**
 * The spec as the generator reads it, typed once: the objects of an AsyncAPI 3.0 document it uses
 * (after @asyncapi/parser's src/spec-types/v3.ts, narrowed to what is read) and our x- vocabulary
 * (spec/README.md, "Our extension vocabulary"). The AsyncAPI parser checks the structure and
 * conventions.ts the vocabulary; checkConventions returns this view of a spec in which it found no
 * error. A field that neither checks is `unknown`: whoever reads it checks it.
 */

/** A JSON object of the spec (a YAML mapping). */
export type Obj = Record<string, unknown>;

/** Whether a value is a JSON object: not null, not a list. */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// The values of our extensions: conventions.ts refuses any other, the model reads these.
export const ACCESS = ['public', 'private'] as const;
export const TRANSPORTS = ['ws', 'http'] as const;
export const AUTH = ['none', 'login'] as const;
/** `x-view` values: whose side the operations are written from (model/plain-spec.ts, viewOf). */
export const VIEWS = ['client', 'server'] as const;
/** `x-framing` values: our JSON-RPC frames, or the spec's own messages (model/wire.ts). */
export const FRAMINGS = ['json-rpc', 'messages'] as const;
export const LIMIT_KINDS = ['window', 'connections', 'bucket', 'size'] as const;
export const ERROR_KINDS = ['rate-limit', 'connection-limit', 'request', 'auth', 'order', 'server'] as const;
/** `x-role` values: on a named schema, the frame or object it describes; on an operation, what the method does. */
export const SCHEMA_ROLES = ['notification', 'request', 'response', 'error'] as const;
export const OPERATION_ROLES = ['subscribe'] as const;
/**
 * `x-source` values: where a method, channel or schema comes from (the interface document, or the public clients'
 * evidence).
 */
export const SOURCES = ['document', 'clients'] as const;

export type Transport = (typeof TRANSPORTS)[number];
export type View = (typeof VIEWS)[number];
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** A Reference Object; the conventions take local refs only (`#/…`). */
export type Ref = { $ref: string };

/** Whether a value is a Reference Object. */
export const isRef = (v: unknown): v is Ref => isObj(v) && typeof v.$ref === 'string';

/** The two markers that may stand anywhere: what the spec leaves out, and the assumption that governs a place. */
export type Markers = {
  'x-not-shown'?: string | string[];
  'x-assumption'?: string;
};

/** The root of the document. */
export type SpecDocument = Markers & {
  asyncapi: string;
  info: Info;
  servers?: Record<string, Server | Ref>;
  channels?: Record<string, Channel | Ref>;
  operations?: Record<string, Operation | Ref>;
  components?: Components;
  'x-login'?: Obj;
  'x-action-signature'?: Obj;
  'x-errors'?: Obj;
  'x-limits'?: Limit[];
  'x-rate-limit-classes'?: RateLimitClass[];
  'x-assumptions'?: Assumption[];
  'x-view'?: View;
  'x-framing'?: (typeof FRAMINGS)[number];
};

export type Info = { title: string; version: string; description?: string };

export type Server = {
  host: string;
  protocol: string;
  pathname?: string;
  title?: string;
  description?: string;
  variables?: Record<string, ServerVariable | Ref>;
  'x-transport'?: Transport;
};

export type ServerVariable = { enum?: string[]; default?: string; description?: string };

export type Channel = Markers & {
  /** null for a channel without an address (where methods travel). */
  address?: string | null;
  title?: string;
  description?: string;
  messages?: Record<string, Message | Ref>;
  parameters?: Record<string, Parameter | Ref>;
  'x-access'?: (typeof ACCESS)[number];
  'x-source'?: (typeof SOURCES)[number];
  bindings?: unknown;
};

export type Parameter = { description?: string; enum?: string[] };

export type Operation = Markers & {
  action: 'send' | 'receive';
  channel: Ref;
  messages?: Ref[];
  reply?: OperationReply;
  summary?: string;
  description?: string;
  'x-method'?: string;
  'x-transports'?: Transport[];
  'x-http-path'?: string;
  'x-auth'?: (typeof AUTH)[number];
  'x-rate-limit-class'?: string;
  'x-rate-limit-budget'?: string;
  'x-rate-limit-rule'?: RateLimitRule;
  'x-order-flow'?: boolean;
  'x-action-module'?: string;
  'x-action-data'?: string | string[];
  'x-rate-limit-key'?: string;
  'x-source'?: (typeof SOURCES)[number];
  'x-role'?: (typeof OPERATION_ROLES)[number];
  'x-assumed-params'?: string;
  'x-assumed-result'?: string;
};

export type OperationReply = { channel?: Ref; messages?: Ref[] };

/** How a method of the custom class spends its budgets. */
export type RateLimitRule = { decrement: 'none' } | { singleInstrument: string; otherwise: string };

export type Message = Markers & {
  name?: string;
  title?: string;
  summary?: string;
  /** A schema, a multi-format schema (`{schemaFormat, schema}`) or a ref to one. */
  payload?: unknown;
  examples?: MessageExample[];
  /** The filled-in address the examples were seen on. */
  'x-address'?: string;
};

export type MessageExample = { name?: string; summary?: string; payload?: unknown };

export type Components = {
  messages?: Record<string, Message | Ref>;
  /** JSON Schema (or multi-format) objects, each read as a schema by the model. */
  schemas?: Record<string, unknown>;
};

/** An entry of x-limits: its id and kind are checked; the numbers of its kind are non-negative. */
export type Limit = Obj & { id: string; kind: LimitKind };

/** An entry of x-rate-limit-classes. */
export type RateLimitClass = Obj & { name: string };

/** An entry of x-assumptions. */
export type Assumption = Markers & { id: string; title: string; choice: string; reason: string };

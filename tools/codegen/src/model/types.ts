/**
 * The API model: one plain, JSON-serialisable description of an API, built from a spec once and read
 * by every emitter. Schemas keep named references as `#/definitions/<Name>`.
 */
export type JsonSchema = Record<string, unknown>;

export interface ApiModel {
  /** The spec file the model came from, as given to the generator. */
  source: string;
  title: string;
  version: string;
  description: string;
  servers: ServerModel[];
  /** Every named schema, x- markers removed, refs rewritten to `#/definitions/<Name>`. */
  schemas: Record<string, JsonSchema>;
  /** The named schemas described for people: kind, fields, values, markers. */
  types: TypeModel[];
  channels: ChannelModel[];
  methods: MethodModel[];
  errors: ErrorsModel;
  limits: LimitModel[];
  rateLimitClasses: RateLimitClassModel[];
  login: LoginModel | null;
  actionSignature: ActionSignatureModel | null;
  assumptions: AssumptionModel[];
  notShown: NotShownModel[];
  /** What a few schemas and methods are for (`x-role`): emitters read meaning here, never by name. */
  roles: RolesModel;
  /**
   * Integers of the spec beyond JavaScript's exact range (int64/uint64 bounds), by JSON pointer, as written: for people
   * (the docs).
   */
  exactIntegers?: Record<string, string>;
  /** The defaults applied where the spec leaves out one of our extensions, one entry per kind (model/plain-spec.ts). */
  defaults: DefaultApplied[];
  /** Where each named schema is in the spec (its JSON path): components, or an inline payload's place. */
  schemaOrigins?: Record<string, string[]>;
  /** How it meets the wire when it speaks its own messages (model/wire.ts); absent for JSON-RPC framing. */
  wire?: WireModel;
}

/** One kind of default the model builder applied, with the places it applied to. */
export interface DefaultApplied {
  kind: string;
  /** The rule, as the note line says it. */
  text: string;
  /** Short names of the places, e.g. `channel trades`, `operation getRoute`. */
  places: string[];
}

/** The schemas and the method that play a part in every exchange, named by the spec's `x-role` markers. */
export interface RolesModel {
  /** The operation id of the method that subscribes to channels (`x-role: subscribe`). */
  subscribe: string | null;
  /** The named schema of a pushed notification frame (`x-role: notification`). */
  notificationFrame: string | null;
  /** The named schema of a request frame (`x-role: request`). */
  requestFrame: string | null;
  /** The named schema of a response frame (`x-role: response`). */
  responseFrame: string | null;
  /** The named schema of the error object of a failed request (`x-role: error`). */
  errorObject: string | null;
}

export interface ServerModel {
  id: string;
  host: string;
  protocol: string;
  pathname: string;
  transport: 'ws' | 'http';
  title: string;
  description: string;
  variables: string[];
  /** Each variable's default (or first enum value), where the spec gives one. */
  variableDefaults?: Record<string, string>;
}

export type TypeKind = 'record' | 'enum' | 'scalar' | 'array' | 'open' | 'union';

export interface TypeModel {
  name: string;
  kind: TypeKind;
  description: string;
  /** For enums: the values in the spec's order. */
  values?: Array<string | number>;
  /** For records: the fields in the spec's order. */
  fields?: FieldModel[];
  /** Whether the record accepts fields beyond those listed. */
  open?: boolean;
  notShown?: string;
  assumption?: string;
  /** Names of the named schemas this one refers to. */
  refs: string[];
  examples: unknown[];
}

export interface FieldModel {
  name: string;
  required: boolean;
  nullable: boolean;
  /** A short type expression for people, e.g. `Decimal | null`, `array of Order`. */
  type: string;
  /** Named schemas this field's type refers to. */
  refs: string[];
  default?: unknown;
  description: string;
  notShown?: string;
}

export interface ChannelParameterModel {
  name: string;
  description: string;
  /** Allowed values, or null when any value fits. */
  enum: string[] | null;
}

/** What the spec says of one example: its name and summary (AsyncAPI message examples carry both). */
export interface ExampleInfo {
  name?: string;
  summary?: string;
}

/** What the spec says of a message: its name, title and summary. */
export interface MessageInfo {
  /** The message's key in its channel (AsyncAPI's message id): what a channel's messages are told apart by. */
  id?: string;
  name?: string;
  title?: string;
  summary?: string;
}

export interface PayloadModel {
  /** The payload schema (refs to named schemas). */
  schema: JsonSchema;
  /** The named record of the payload (or of each element when array). */
  record: string | null;
  array: boolean;
}

export interface ChannelModel {
  /** The channel's id in the spec, e.g. `orderbook`. */
  id: string;
  /** The address template, e.g. `orderbook.{instrument_name}.{group}.{depth}`. */
  address: string;
  title: string;
  description: string;
  access: 'public' | 'private';
  parameters: ChannelParameterModel[];
  payload: PayloadModel;
  examples: unknown[];
  /** For each example, the filled-in address it was seen on (`x-address`), or null. */
  exampleAddresses: Array<string | null>;
  /** For each example, its name and summary. */
  exampleInfo?: ExampleInfo[];
  /** The channel's messages (one, or several carried in turn). */
  messages?: MessageInfo[];
  /** The docs group: the first tag of the operation the client receives the channel by; absent when untagged. */
  group?: string;
  notShown?: string;
  assumption?: string;
}

export interface MethodModel {
  /** The operation id, e.g. `publicLogin`. */
  id: string;
  /** The JSON-RPC method name, e.g. `public/login`. */
  name: string;
  summary: string;
  description: string;
  params: PayloadModel;
  result: PayloadModel;
  /** Where the document leaves params or result open: the named shapes our sandbox and client assume. */
  assumedParams: string | null;
  assumedResult: string | null;
  /** The rate-limit class, or null when the spec gives none (a spec without our extensions). */
  rateLimitClass: string | null;
  rateLimitBudget: string | null;
  rateLimitRule: Record<string, string> | null;
  transports: Array<'ws' | 'http'>;
  httpPath: string | null;
  auth: 'none' | 'login';
  orderFlow: boolean;
  /**
   * The name the rate-limit tables give the method (its key in remaining_per_endpoint); its own name unless the spec
   * says otherwise.
   */
  rateLimitKey: string;
  /** The module of x-action-signature whose action this method signs, or null when it carries no action signature. */
  actionModule: string | null;
  /**
   * The layouts of its module's data the method signs (x-action-data), one per Action, in order; empty
   * when the module has one layout. private/transfer_positions signs two: a quote and its execution.
   */
  actionData: string[];
  /** `clients` when the method is not in the interface document but served because its public clients call it. */
  source: 'document' | 'clients';
  paramsExamples: unknown[];
  resultExamples: unknown[];
  /** For each params and result example, its name and summary. */
  paramsExampleInfo?: ExampleInfo[];
  resultExampleInfo?: ExampleInfo[];
  /** The request and reply messages. */
  requestMessage?: MessageInfo;
  replyMessage?: MessageInfo;
  /** The docs group: the name of the operation's first AsyncAPI tag; absent when untagged. */
  group?: string;
  notShown?: string;
  assumption?: string;
}

export interface ErrorModel {
  code: number;
  message: string;
  /** A stable UPPER_SNAKE name for programs (e.g. AUTH_REQUIRED), when the spec gives one. */
  name?: string;
  /** What kind of failure: rate-limit, connection-limit, request, auth, order or server. */
  kind?: string;
  /** The HTTP status a failed HTTP request answers with (an assumption: the document does not show it). */
  httpStatus?: number;
  condition: string;
  data?: string;
  dataPattern?: string;
  textFramePrefix?: string;
  assumption?: string;
}

export interface ErrorsModel {
  reserved: Array<{ from: number; to: number; purpose: string }>;
  codes: ErrorModel[];
}

export interface LimitModel {
  id: string;
  title: string;
  kind: 'window' | 'connections' | 'bucket' | 'size';
  scope: string;
  tps?: number;
  windowMs?: number;
  points?: number;
  max?: number;
  refillPerSecond?: number;
  capacity?: number;
  instrumentTypes?: string[];
  maxBytes?: number;
  notShown?: string;
  assumption?: string;
}

export interface RateLimitClassModel {
  name: string;
  default: boolean;
  appliesTo: string;
  budget: string;
  methodCount: number | null;
}

export interface LoginModel {
  headers: { wallet: string; timestamp: string; signature: string };
  /** Other names of the three headers a server reads too (the clients' names), after `headers`. */
  alternateHeaders: Array<{ wallet: string; timestamp: string; signature: string }>;
  message: string;
  freshness: { pastMs: number; futureMs: number; appliesTo: string; assumption?: string } | null;
  reverifyIntervalMs: number | null;
}

export interface ActionSignatureModel {
  domain: Record<string, unknown>;
  primaryType: string;
  types: Record<string, Array<{ name: string; type: string }>>;
  paramsHash: string;
  signatureFields: string[];
  /** The modules whose actions are signed: address and the ABI words of their data. */
  modules: Record<string, ActionModuleModel>;
  /** The deployments a signature may be made for: domain, its separator, module addresses. */
  deployments: ActionDeploymentModel[];
  notShown?: string;
  assumption?: string;
}

export interface ActionModuleModel {
  address: string;
  /** The ABI words of the module's data, in order, with where each value comes from. */
  data: Array<{ name: string; type: string; from: string }>;
}

export interface ActionDeploymentModel {
  name: string;
  network: string;
  domain: Record<string, unknown>;
  separator: string;
  modules: Record<string, string>;
}

export interface AssumptionModel {
  id: string;
  title: string;
  choice: string;
  reason: string;
  /** JSON pointers of the places that cite this assumption. */
  citedAt: string[];
}

export interface NotShownModel {
  /** JSON pointer of the place in the spec. */
  pointer: string;
  /** A short human name of the place, e.g. `schema Trade`, `channel orderbook`. */
  where: string;
  text: string;
}

// How a spec meets the wire when it is not JSON-RPC (model/wire.ts builds it; the SDK's client, the mock
// and the runner read it).

/** Which framing a spec speaks: our JSON-RPC frames, or the spec's own messages. */
export type Framing = 'json-rpc' | 'messages';

/** The wire of a spec that speaks its own messages. */
export interface WireModel {
  framing: 'messages';
  /** Why: `x-framing: messages`, or what in the spec showed it (the generator notes it). */
  reason: string;
  servers: WireServer[];
  channels: WireChannel[];
  /** Every message an operation (or its reply) names, once, by id. */
  messages: WireMessage[];
  operations: WireOperation[];
}

export interface WireServer {
  id: string;
  /** `protocol://host/pathname`, variables as written (`{region}`). */
  url: string;
  /** Whether a WebSocket reaches it (`ws` / `wss`). */
  ws: boolean;
}

export interface WireChannel {
  id: string;
  /** The address appended to the server URL's path, parameters as `{name}`; null: the server URL itself. */
  address: string | null;
  parameters: string[];
  /** The `ws` bindings' query schema (its properties become the URL's query), or null. */
  query: JsonSchema | null;
  /** The `ws` bindings' headers schema (sent on the handshake where the WebSocket allows), or null. */
  headers: JsonSchema | null;
}

/** A constant a message carries at a place of its payload: what tells it apart before validation. */
export interface Discriminator {
  /** JSON pointer into the payload (`/event`). */
  pointer: string;
  values: Array<string | number | boolean | null>;
}

export interface WireMessage {
  /** The JSON pointer of the message in the spec, refs followed (`/components/messages/ping`). */
  id: string;
  /** Its key in its channel or in components (`ping`). */
  key: string;
  name?: string;
  summary?: string;
  payload: PayloadModel;
  /** Where the payload carries the correlation id (`/reqid`, from `$message.payload#/reqid`), or null. */
  correlation: string | null;
  discriminators: Discriminator[];
  examples: unknown[];
}

export interface WireReply {
  channel: string;
  /** Message ids. */
  messages: string[];
  /** Where a reply carries the request's correlation value: its own location, else the request's. */
  correlation: string | null;
}

export interface WireOperation {
  /** The spec's own key of the operation. */
  id: string;
  /** What the client does: `send` (a request when it has a reply) or `receive`. */
  action: 'send' | 'receive';
  channel: string;
  summary: string;
  /** Message ids. */
  messages: string[];
  /** Where a request carries its correlation value: its own location, else its reply's; null without one. */
  correlation: string | null;
  /** What the correlation value is, by its schema: a number or a string (what the client fills in). */
  correlationType: 'number' | 'string' | null;
  reply: WireReply | null;
}

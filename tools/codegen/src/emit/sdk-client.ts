/**
 * Emitter: model → the typed client surface of a generated SDK (src/client.gen.ts). It creates the
 * core of @exchange-api/client (a dependency, not a copy: `createApiClient`) with this API's own tables
 * (methods, channels, limits, rate-limit classes, errors: what its limiter and error classes read) and
 * validators, typed by this API's method map and channel map as the core's type parameters, so that
 * calls, results and payloads are typed with no cast (as this repository's own surface is: emit/client.ts).
 * Only what can reach this API's servers is generated (clientReach): no `call`
 * or `rpc` without a method the client can send, no `subscribe` or `stream` without a channel on a
 * WebSocket, no `createClient` when nothing reaches; the README says the same (emit/package-readme.ts).
 */
import type { ApiModel, MethodModel, ServerModel } from '../model/types';
import type { EmittedFile } from './emitted-file';
import { tsComment, tsKey, tsString } from './escape';
import { emitMessageClient } from './sdk-message-client';

const docOf = (m: MethodModel) => tsComment(`\`${m.name}\`: ${m.summary || m.description || m.name}`);

/** What of @exchange-api/client can reach this API, computed from its servers, methods and channels. */
export interface ClientReach {
  /** Whether the client can open its WebSocket: a `ws`/`wss` server, or no server named (the caller gives the URL). */
  ws: boolean;
  /** Whether it can POST: an `http`/`https` server, or no server named. */
  http: boolean;
  /** The methods a call reaches: served over a transport the client can use. */
  methods: MethodModel[];
  /** Whether `subscribe` and `stream` reach the server: channels, over a WebSocket. */
  streams: boolean;
  /** Whether the spec says its frames are JSON-RPC (`x-role` request, response or subscribe); else assumed. */
  framesStated: boolean;
  /** The servers the client cannot connect to (a protocol other than WebSocket and HTTP). */
  unreachable: ServerModel[];
}

export function clientReach(model: ApiModel): ClientReach {
  const none = model.servers.length === 0;
  const ws = none || model.servers.some((s) => /^wss?$/i.test(s.protocol));
  const http = none || model.servers.some((s) => /^https?$/i.test(s.protocol));
  const roles = model.roles;
  return {
    ws,
    http,
    methods: model.methods.filter(
      (m) => (ws && m.transports.includes('ws')) || (http && m.transports.includes('http')),
    ),
    streams: ws && model.channels.length > 0,
    framesStated: roles.requestFrame !== null || roles.responseFrame !== null || roles.subscribe !== null,
    unreachable: model.servers.filter((s) => !/^(wss?|https?)$/i.test(s.protocol)),
  };
}

/** The imports and the tables every SDK's client file starts with. */
const TABLES = [
  "import { failuresOf } from '@exchange-api/validators';",
  "import type { ApiTables, ValidatorSource } from '@exchange-api/client';",
  "import { channelTable, errorTable, limitTable, methodTable, rateLimitClassTable } from './tables.gen';",
  "import { assumedResultsValidators, channelsValidators } from './guards.gen';",
  '',
  "/** This API's tables, as @exchange-api/client takes them: its limiter and error classes read these. */",
  'export const apiTables: ApiTables = { methods: methodTable, channels: channelTable, ' +
    'limits: limitTable, rateLimitClasses: rateLimitClassTable, errors: errorTable };',
  '',
  "/** This API's validators, in the shape @exchange-api/client takes them. */",
  'export const apiValidators: ValidatorSource = { channels: channelsValidators, ' +
    'assumedResults: assumedResultsValidators, failuresOf };',
  '',
];

/** The core's type arguments: this API's method map and channel map, or the untyped ones where it has none. */
const maps = (reach: ClientReach) =>
  `${reach.methods.length > 0 ? 'Methods' : 'UntypedMethods'}, ${reach.streams ? 'ApiChannels' : 'ChannelMap'}`;

/** The client's imports, the call types when there are calls, the channel map when there are streams. */
function preamble(reach: ClientReach): string[] {
  const calls = reach.methods.length > 0;
  const core = [
    'createApiClient',
    'type ApiClient as CoreClient',
    ...(reach.streams ? ['type ApiHandler', 'type ApiPayload', 'type ChannelMap'] : ['type ChannelMap']),
    ...(calls ? ['type CallOptions'] : ['type UntypedMethods']),
    ...(reach.methods.some((m) => m.orderFlow) ? ['type ApiActionInput'] : []),
    'type ClientOptions',
    ...(reach.streams ? ['type PayloadStream', 'type StreamOptions', 'type Subscription'] : []),
  ];
  return [
    `import { ${core.join(', ')} } from '@exchange-api/client';`,
    ...(reach.streams ? ["import type { ChannelAddress, PayloadOf } from './channels.gen';"] : []),
    ...(calls
      ? [
          "import type { Methods, MethodName } from './methods.gen';",
          '',
          '/** Params of a method (the documented shape, or the assumed one where the spec shows none). */',
          "export type CallParams<M extends MethodName> = Methods[M]['assumedParams'];",
          '/** Result of a method. */',
          "export type CallResult<M extends MethodName> = Methods[M]['assumedResult'];",
        ]
      : []),
    ...(reach.streams
      ? [
          '',
          "/** This API's channel map, the core's second type parameter: its addresses and each one's payload type. */",
          'export interface ApiChannels extends ChannelMap {',
          '  readonly address: ChannelAddress;',
          "  readonly payload: PayloadOf<this['at']>;",
          '}',
        ]
      : []),
    '',
    "/** The core of @exchange-api/client, typed by this API's method map and channel map. */",
    `export type ApiCore = CoreClient<${maps(reach)}>;`,
    '',
    '/** Options of createClient: those of @exchange-api/client, less the tables ' +
      'and validators this package supplies. */',
    "export type SdkClientOptions = Omit<ClientOptions, 'validators'>;",
    '',
  ];
}

/**
 * One typed raw call per method the client reaches, named by operation id; order-flow methods are signed by
 * the core's `action`.
 */
function rpcMembers(methods: MethodModel[]): string[] {
  const lines: string[] = [];
  for (const m of methods) {
    const name = tsString(m.name);
    lines.push(`    /** ${docOf(m)} */`);
    // Order flow goes through the core's `action` (nonce and expiry filled in, signed): its params leave those out.
    const [params, send] = m.orderFlow
      ? [`ApiActionInput<Methods, ${name}>`, `core.action(${name}, params, options)`]
      : [`CallParams<${name}>`, `core.call(${name}, params, options)`];
    lines.push(
      `    ${tsKey(m.id)}: (params: ${params}, options?: CallOptions): Promise<CallResult<${name}>> => ${send},`,
    );
  }
  return lines;
}

/** The ApiClient interface: the members that reach this API. */
function apiInterface(model: ApiModel, reach: ClientReach): string[] {
  const calls = reach.methods.length > 0;
  const typedBy = [calls ? 'method map' : '', reach.streams ? 'channel addresses' : ''].filter(Boolean).join(' and ');
  return [
    `/** ${tsComment(`A client of ${model.title}, typed by its ${typedBy}.`)} */`,
    'export interface ApiClient {',
    '  /** The @exchange-api/client core underneath (events, state, login, limiter). */',
    '  readonly core: ApiCore;',
    "  /** Listen to the client's events (state, error, validation, reconnect, " +
      'overflow); returns the function that stops listening. */',
    "  on: ApiCore['on'];",
    '  connect(): Promise<void>;',
    '  close(): Promise<void>;',
    ...(calls
      ? [
          '  /** Call a method by its JSON-RPC name. */',
          '  call<M extends MethodName>(method: M, params: CallParams<M>, options?: ' +
            'CallOptions): Promise<CallResult<M>>;',
          '  /** One typed call per method, named by operation id. */',
          '  readonly rpc: ReturnType<typeof rpcOf>;',
        ]
      : []),
    ...(reach.streams
      ? [
          '  /** Every payload of `address` to `handler`; resolves once the server confirmed the subscription. */',
          '  subscribe<A extends ChannelAddress>(address: A, handler: ApiHandler<ApiChannels, ' +
            'A>): Promise<Subscription>;',
          '  /** The payloads of `address` as an async iterator; leaving the loop unsubscribes. */',
          '  stream<A extends ChannelAddress>(address: A, options?: StreamOptions): ' +
            'PayloadStream<ApiPayload<ApiChannels, A>>;',
        ]
      : []),
    '}',
    '',
  ];
}

/** rpcOf and createClient. */
function factory(reach: ClientReach): string[] {
  const calls = reach.methods.length > 0;
  return [
    ...(calls
      ? ['function rpcOf(core: ApiCore) {', '  return {', ...rpcMembers(reach.methods), '  } as const;', '}', '']
      : []),
    '/** Create a client of this API over the core of @exchange-api/client. Nothing is sent until connect(). */',
    'export function createClient(options: SdkClientOptions): ApiClient {',
    `  const core: ApiCore = createApiClient<${maps(reach)}>({ ...options, api: ` +
      `apiTables, validators: apiValidators });`,
    '  return {',
    '    core,',
    '    on: (event, fn) => core.on(event, fn),',
    '    connect: () => core.connect(),',
    '    close: () => core.close(),',
    ...(calls ? ['    call: (method, params, o) => core.call(method, params, o),', '    rpc: rpcOf(core),'] : []),
    ...(reach.streams
      ? [
          '    subscribe: (address, handler) => core.subscribe(address, handler),',
          '    stream: (address, o) => core.stream(address, o),',
        ]
      : []),
    '  };',
    '}',
    '',
  ];
}

/** The client surface of a generated SDK, in one file (slot `sdk`). */
export function emitSdkClient(model: ApiModel): EmittedFile[] {
  if (model.wire) return emitMessageClient(model, model.wire);
  const reach = clientReach(model);
  const none = reach.methods.length === 0 && !reach.streams;
  const lines = none
    ? [
        ...TABLES,
        `// ${tsComment(
          `No createClient: nothing of @exchange-api/client reaches ${model.title} ` +
            '(no method or channel it can reach over WebSocket or HTTP; see the README).',
        )}`,
        '',
      ]
    : [...TABLES, ...preamble(reach), ...apiInterface(model, reach), ...factory(reach)];
  return [{ slot: 'sdk', path: 'client.gen.ts', content: lines.join('\n') }];
}

/**
 * Emitter: model → the typed client surface of a generated SDK (src/client.gen.ts). It drives
 * @exchange-api/client (a dependency, not a copy) with this API's own tables (methods, channels,
 * limits, rate-limit classes, errors: what its limiter and error classes read) and validators through
 * the client's `api` and `validators` options, and types calls and streams by this API's method map
 * and channel addresses. What of the client works for a spec that does not follow our JSON-RPC
 * subscribe / notification conventions is said in the generated README (emit/package-readme.ts).
 */
import type { ApiModel, MethodModel } from '../model/types';
import type { EmittedFile } from './emitted-file';
import { tsComment, tsKey, tsString } from './escape';

const docOf = (m: MethodModel) => tsComment(`\`${m.name}\`: ${m.summary || m.description || m.name}`);

/** The imports and the types every SDK's client file starts with. */
const PREAMBLE = [
  "import { createClient as createCoreClient, type ApiTables, type CallOptions, type ClientOptions, type ExchangeClient, type PayloadStream, type StreamOptions, type Subscription, type ValidatorSource } from '@exchange-api/client';",
  "import { failuresOf } from '@exchange-api/validators';",
  "import type { ChannelAddress, PayloadOf } from './channels.gen';",
  "import type { Methods, MethodName } from './methods.gen';",
  "import { channelTable, errorTable, limitTable, methodTable, rateLimitClassTable } from './tables.gen';",
  "import { assumedResultsValidators, channelsValidators } from './guards.gen';",
  '',
  '/** Params of a method (the documented shape, or the assumed one where the spec shows none). */',
  "export type CallParams<M extends MethodName> = Methods[M]['assumedParams'];",
  '/** Result of a method. */',
  "export type CallResult<M extends MethodName> = Methods[M]['assumedResult'];",
  '',
  "/** This API's tables, as @exchange-api/client takes them: its limiter and error classes read these, never the exchange's. */",
  'export const apiTables: ApiTables = { methods: methodTable, channels: channelTable, limits: limitTable, rateLimitClasses: rateLimitClassTable, errors: errorTable };',
  '',
  "/** This API's validators, in the shape @exchange-api/client takes them. */",
  "export const apiValidators: ValidatorSource = { channels: channelsValidators, assumedResults: assumedResultsValidators, failuresOf: failuresOf as ValidatorSource['failuresOf'] };",
  '',
  '/** Options of createClient: those of @exchange-api/client, less the tables and validators this package supplies. */',
  "export type SdkClientOptions = Omit<ClientOptions, 'api' | 'validators'>;",
  '',
];

/** One typed raw call per method, named by operation id; order-flow methods are signed by the client's `action`. */
function rpcMembers(model: ApiModel): string[] {
  const lines: string[] = [];
  for (const m of model.methods) {
    const name = tsString(m.name);
    lines.push(`    /** ${docOf(m)} */`);
    const send = m.orderFlow ? `signed(${name}, params, options)` : `call(${name}, params, options)`;
    lines.push(
      `    ${tsKey(m.id)}: (params: CallParams<${name}>, options?: CallOptions): Promise<CallResult<${name}>> => ${send},`,
    );
  }
  return lines;
}

/** The client surface of a generated SDK, in one file (slot `sdk`). */
export function emitSdkClient(model: ApiModel): EmittedFile[] {
  const lines = [
    ...PREAMBLE,
    `/** ${tsComment(`A client of ${model.title}, typed by its method map and channel addresses.`)} */`,
    'export interface ApiClient {',
    '  /** The @exchange-api/client underneath (events, state, login, limiter). */',
    '  readonly core: ExchangeClient;',
    "  /** Listen to the client's events (state, error, validation, reconnect, overflow); returns the function that stops listening. */",
    "  on: ExchangeClient['on'];",
    '  connect(): Promise<void>;',
    '  close(): Promise<void>;',
    '  /** Call a method by its JSON-RPC name. */',
    '  call<M extends MethodName>(method: M, params: CallParams<M>, options?: CallOptions): Promise<CallResult<M>>;',
    '  /** Every payload of `address` to `handler`; resolves once the server confirmed the subscription. */',
    '  subscribe<A extends ChannelAddress>(address: A, handler: (payload: PayloadOf<A>) => void): Promise<Subscription>;',
    '  /** The payloads of `address` as an async iterator; leaving the loop unsubscribes. */',
    '  stream<A extends ChannelAddress>(address: A, options?: StreamOptions): PayloadStream<PayloadOf<A>>;',
    '  /** One typed call per method, named by operation id. */',
    '  readonly rpc: ReturnType<typeof rpcOf>;',
    '}',
    '',
    'type AnyCall = (method: string, params: unknown, options?: CallOptions) => Promise<never>;',
    '',
    'function rpcOf(call: AnyCall, signed: AnyCall) {',
    '  return {',
    ...rpcMembers(model),
    '  } as const;',
    '}',
    '',
    '/** Create a client of this API over @exchange-api/client. Nothing is sent until connect(). */',
    'export function createClient(options: SdkClientOptions): ApiClient {',
    '  const core = createCoreClient({ ...options, api: apiTables, validators: apiValidators });',
    "  // The core is typed by its own interface's method map; this package's map types the calls instead.",
    '  const call = ((method, params, o) => (core.call as unknown as AnyCall)(method, params, o)) as AnyCall;',
    '  const signed = ((method, params, o) => (core.action as unknown as AnyCall)(method, params, o)) as AnyCall;',
    '  return {',
    '    core,',
    '    on: (event, fn) => core.on(event, fn),',
    '    connect: () => core.connect(),',
    '    close: () => core.close(),',
    '    call: (method, params, o) => call(method, params, o),',
    '    subscribe: (address, handler) => core.subscribe(address as never, handler as never),',
    '    stream: <A extends ChannelAddress>(address: A, o?: StreamOptions) => core.stream(address as never, o) as unknown as PayloadStream<PayloadOf<A>>,',
    '    rpc: rpcOf(call, signed),',
    '  };',
    '}',
    '',
  ];
  return [{ slot: 'sdk', path: 'client.gen.ts', content: lines.join('\n') }];
}

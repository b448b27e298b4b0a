/**
 * Emitter: model → this repository's client surface (packages/client/src/generated/surface.gen.ts):
 * everything of @exchange-api/client that is this interface's. The hand-written core
 * (packages/client/src/client.ts, `ApiClient<Methods, ExchangeChannels>`) knows no API; this file gives it one,
 * as an SDK's client.gen.ts (emit/sdk-client.ts) gives it another: the tables (`exchangeApi`), the
 * channel map that types payloads, the aliases of the public types (CallParams, Handler, …), and
 * `ExchangeClient`, the core typed by this interface's maps with one signed helper per order-flow
 * method and a typed `rpc` namespace (one raw call per method, named by operation id), so that a
 * method added to the spec reaches the client without hand edits. No cast: the type parameters carry
 * the types.
 */
import type { ApiModel, MethodModel } from '../model/types';
import type { EmittedFile } from './emitted-file';
import { tsComment, tsKey, tsString } from './escape';

const docOf = (m: MethodModel, indent: string) => {
  const facts = `${m.transports.join(', ')}; ${m.rateLimitClass}${m.auth === 'login' ? '; login' : ''}`;
  return `${indent}/** ${tsComment(`\`${m.name}\`: ${m.summary || m.description} (${facts})`)} */`;
};

/** The imports, the tables and the type aliases: what ties the core to this interface's generated types. */
const HEAD = [
  "import { channelTable, errorTable, limitTable, methodTable, rateLimitClassTable } from '@exchange-api/types';",
  'import type {',
  '  ChannelAddress,',
  '  HttpMethodName,',
  '  Methods,',
  '  OrderFlowMethodName,',
  '  PayloadOf,',
  '  WsMethodName,',
  "} from '@exchange-api/types';",
  "import { ApiClient } from '../client';",
  'import type {',
  '  ActionSigner as ApiActionSigner,',
  '  ApiActionInput,',
  '  ApiParams,',
  '  ApiResult,',
  '  ApiTables,',
  '  CallOptions,',
  '  ChannelMap,',
  '  ClientOptions,',
  "} from '../types';",
  '',
  '/** The tables of this interface: methods, channels, limits, rate-limit classes and error codes. */',
  'export const exchangeApi: ApiTables = {',
  '  methods: methodTable,',
  '  channels: channelTable,',
  '  limits: limitTable,',
  '  rateLimitClasses: rateLimitClassTable,',
  '  errors: errorTable,',
  '};',
  '',
  "/** This interface's channel map: its addresses, and the payload type of each (`PayloadOf`). */",
  'export interface ExchangeChannels extends ChannelMap {',
  '  readonly address: ChannelAddress;',
  "  readonly payload: PayloadOf<this['at']>;",
  '}',
  '',
  '/** The methods the client can call over some transport. */',
  'export type CallableMethod = WsMethodName | HttpMethodName;',
  '/** Params of a method: the documented shape, or the assumed one where the document shows none. */',
  'export type CallParams<M extends CallableMethod> = ApiParams<Methods, M>;',
  '/** Result of a method (documented or assumed shape). */',
  'export type CallResult<M extends CallableMethod> = ApiResult<Methods, M>;',
  '/** Params of an order-flow helper: a signed method less its action fields (filled in, signed); a cancel as is. */',
  'export type ActionInput<M extends OrderFlowMethodName> = ApiActionInput<Methods, M>;',
  "/** A handler of one channel's payloads. */",
  'export type Handler<A extends string> = (payload: PayloadOf<A>) => void;',
  '/** Signs an order-flow request of this interface: gets its params with nonce and expiry, returns them signed. */',
  'export type ActionSigner = ApiActionSigner<OrderFlowMethodName>;',
  '',
  '/** What the `rpc` namespace needs of a client. */',
  'export interface SurfaceCore {',
  '  call<M extends CallableMethod>(method: M, params: CallParams<M>, options?: CallOptions): Promise<CallResult<M>>;',
  '  action<M extends OrderFlowMethodName>(method: M, params: ActionInput<M>, ' +
    'options?: CallOptions): Promise<CallResult<M>>;',
  '}',
  '',
];

/** `ExchangeClient`: the core typed by this interface's maps, given its tables, with a signed helper per order flow. */
function clientClass(orderFlow: MethodModel[]): string[] {
  const lines = [
    '/**',
    ' * The client of this interface: the core (`ApiClient`) typed by its method and channel maps and given',
    ' * its tables, with one signed helper per order-flow method (nonce and expiry filled in when absent,',
    ' * then signed and sent). Create it with createClient.',
    ' */',
    'export class ExchangeClient extends ApiClient<Methods, ExchangeChannels> {',
    '  /** Typed raw calls, one per method of the spec, named by operation id. */',
    '  readonly rpc: Rpc = createRpc(this);',
    '',
    '  /** A client of this interface; `options.WebSocket` is required where there is no global WebSocket. */',
    '  constructor(options: ClientOptions) {',
    '    super({ ...options, api: exchangeApi });',
    '  }',
  ];
  for (const m of orderFlow) {
    lines.push(docOf(m, '  '));
    lines.push(
      `  ${tsKey(m.id)}(params: ActionInput<${tsString(m.name)}>, options?: CallOptions): ` +
        `Promise<CallResult<${tsString(m.name)}>> {`,
    );
    lines.push(`    return this.action(${tsString(m.name)}, params, options);`);
    lines.push('  }');
  }
  lines.push('}', '');
  return lines;
}

/** The `rpc` namespace: one raw call per method, order-flow ones signed. */
function rpcFactory(methods: MethodModel[]): string[] {
  const lines = [
    '/**',
    ' * Typed raw calls, one per method, named by operation id. Order-flow methods are signed; the',
    ' * others go through `call` unchanged (subscribe here is the bare JSON-RPC method: use',
    ' * `client.subscribe()` for handlers).',
    ' */',
    'export function createRpc(core: SurfaceCore) {',
    '  return {',
  ];
  for (const m of methods) {
    lines.push(docOf(m, '    '));
    const name = tsString(m.name);
    const [params, send] = m.orderFlow ? ['ActionInput', 'core.action'] : ['CallParams', 'core.call'];
    lines.push(
      `    ${tsKey(m.id)}: (params: ${params}<${name}>, options?: CallOptions) => ${send}(${name}, params, options),`,
    );
  }
  lines.push('  } as const;', '}', '');
  lines.push('/** The `rpc` namespace of a client. */', 'export type Rpc = ReturnType<typeof createRpc>;');
  return lines;
}

/**
 * The client surface of `model`: tables, channel map, type aliases, `ExchangeClient`, `rpc`; one file (slot
 * `client`).
 */
export function emitClientSurface(model: ApiModel): EmittedFile[] {
  const lines = [...HEAD, ...clientClass(model.methods.filter((m) => m.orderFlow)), ...rpcFactory(model.methods)];
  return [{ slot: 'client', path: 'surface.gen.ts', content: lines.join('\n') + '\n' }];
}

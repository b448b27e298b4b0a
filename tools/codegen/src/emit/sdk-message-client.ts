/**
 * Emitter: model → the typed client of a generated SDK for a spec that speaks its own messages
 * (model.wire, model/wire.ts), in src/client.gen.ts: the wire table and the message validators given to
 * @exchange-api/client's `createMessageClient`, typed by this API's operation map: `send`, `request`
 * (correlated reply) and `stream`, by the spec's own operation ids, and one typed member per operation.
 */
import type { ApiModel, JsonSchema, WireModel, WireOperation } from '../model/types';
import { payloadTypeOf } from '../model/naming';
import type { EmittedFile } from './emitted-file';
import { tsComment, tsKey, tsString } from './escape';

/** A TS type of a query or parameter value from its schema: what a URL can carry, else unknown. */
function scalarType(schema: unknown): string {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as JsonSchema;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'integer' || s.type === 'number') return 'number';
  if (s.type === 'string') return 'string';
  return 'unknown';
}

function paramsType(model: ApiModel, wire: WireModel, channelId: string): string {
  const channel = wire.channels.find((c) => c.id === channelId)!;
  const described = model.channels.find((c) => c.id === channelId);
  const fields = channel.parameters.map((name) => {
    const values = described?.parameters.find((p) => p.name === name)?.enum;
    return `${tsKey(name)}: ${values ? values.map((v) => tsString(v)).join(' | ') : 'string'}`;
  });
  return fields.length > 0 ? `{ ${fields.join('; ')} }` : 'Record<string, never>';
}

/** The type of a channel's `ws` bindings' query or headers: one field per property of its schema. */
function bindingType(wire: WireModel, channelId: string, which: 'query' | 'headers'): string {
  const schema = wire.channels.find((c) => c.id === channelId)![which];
  const props = Object.entries((schema?.properties ?? {}) as Record<string, unknown>);
  return props.length > 0
    ? `{ ${props.map(([k, v]) => `${tsKey(k)}: ${scalarType(v)}`).join('; ')} }`
    : 'Record<string, never>';
}

/** The union of the payload types of messages, by id. */
function unionOf(wire: WireModel, ids: string[]): string {
  const types = ids.map((id) => payloadTypeOf(wire.messages.find((m) => m.id === id)!.payload));
  return types.includes('unknown') || types.length === 0 ? 'unknown' : [...new Set(types)].join(' | ');
}

function operationType(model: ApiModel, wire: WireModel, op: WireOperation): string[] {
  return [
    `  /** ${tsComment(op.summary || `${op.action === 'send' ? 'Sent' : 'Received'} on ${op.channel}`)} */`,
    `  ${tsKey(op.id)}: {`,
    `    action: '${op.action}';`,
    `    payload: ${unionOf(wire, op.messages)};`,
    `    reply: ${op.reply ? unionOf(wire, op.reply.messages) : 'never'};`,
    `    params: ${paramsType(model, wire, op.channel)};`,
    `    query: ${bindingType(wire, op.channel, 'query')};`,
    `    headers: ${bindingType(wire, op.channel, 'headers')};`,
    '  };',
  ];
}

/** The runtime table: only what the client reads. */
function table(wire: WireModel): string {
  const t = {
    channels: Object.fromEntries(wire.channels.map((c) => [c.id, { address: c.address, parameters: c.parameters }])),
    messages: Object.fromEntries(
      wire.messages.map((m) => [m.id, { key: m.key, correlation: m.correlation, discriminators: m.discriminators }]),
    ),
    operations: Object.fromEntries(
      wire.operations.map((o) => [
        o.id,
        {
          action: o.action,
          channel: o.channel,
          messages: o.messages,
          correlation: o.correlation,
          correlationType: o.correlationType,
          reply: o.reply,
        },
      ]),
    ),
  };
  return JSON.stringify(t, null, 2);
}

/** One member per operation: a request, a send or a stream. */
function member(op: WireOperation): string {
  const key = tsString(op.id);
  if (op.action === 'receive')
    return (
      `    ${tsKey(op.id)}: (options?: AddressOptions<Operations[${key}]> & StreamOptions) ` +
      `=> core.stream(${key}, options),`
    );
  if (op.reply)
    return (
      `    ${tsKey(op.id)}: (payload: Operations[${key}]['payload'], options?: ` +
      `RequestOptions<Operations[${key}]>) => core.request(${key}, payload, options),`
    );
  return (
    `    ${tsKey(op.id)}: (payload: Operations[${key}]['payload'], options?: ` +
    `AddressOptions<Operations[${key}]>) => core.send(${key}, payload, options),`
  );
}

/** The client interface and `createClient`: the core's calls, and the typed members by operation. */
function clientLines(model: ApiModel): string[] {
  return [
    `/** ${tsComment(`A client of ${model.title}.`)} */`,
    'export interface ApiClient {',
    '  readonly core: ApiCore;',
    '  /** `error` (a frame no request or receive operation takes, garbage) and ' +
      '`validation` events; returns the function that stops listening. */',
    "  on: ApiCore['on'];",
    "  send: ApiCore['send'];",
    "  request: ApiCore['request'];",
    "  stream: ApiCore['stream'];",
    '  readonly ops: ReturnType<typeof opsOf>;',
    '  close(): Promise<void>;',
    '}',
    '',
    "/** Create a client; `url` is the server's URL with its pathname (each channel's " +
      'address is appended). Nothing is sent until the first use. */',
    'export function createClient(options: MessageClientOptions): ApiClient {',
    '  const core: ApiCore = createMessageClient<Operations>({ table: wireTable, ' +
      'validators: wireValidators }, options);',
    '  return {',
    '    core,',
    '    on: (event, fn) => core.on(event, fn),',
    '    send: (op, payload, o) => core.send(op, payload, o),',
    '    request: (op, payload, o) => core.request(op, payload, o),',
    '    stream: (op, o) => core.stream(op, o),',
    '    ops: opsOf(core),',
    '    close: () => core.close(),',
    '  };',
    '}',
    '',
  ];
}

/** The client surface of a generated SDK for a spec that speaks its own messages (slot `sdk`). */
export function emitMessageClient(model: ApiModel, wire: WireModel): EmittedFile[] {
  const lines = [
    "import { failuresOf } from '@exchange-api/validators';",
    'import { createMessageClient, type AddressOptions, type MessageClient, type ' +
      'MessageClientOptions, type RequestOptions, type StreamOptions, type WireTable, ' +
      "type WireValidators } from '@exchange-api/client';",
    "import { messagesValidators } from './guards.gen';",
    "import type * as T from './types.gen';",
    '',
    `/** ${tsComment(`How ${model.title} meets the wire: its own messages (${wire.reason}), not JSON-RPC.`)} */`,
    `export const wireTable: WireTable = ${table(wire)};`,
    '',
    '/** The validator of each message, in the shape @exchange-api/client takes them. */',
    'export const wireValidators: WireValidators = { messages: messagesValidators, failuresOf };',
    '',
    "/** This API's operations, by the spec's own ids, as the client sees them " +
      '(`send`: it sends; `receive`: it receives). */',
    'export interface Operations {',
    ...wire.operations.flatMap((op) => operationType(model, wire, op)),
    '}',
    '',
    'export type ApiCore = MessageClient<Operations>;',
    '',
    '/** One typed member per operation: a request resolves with its reply, a ' +
      'send resolves once sent, a receive streams. */',
    'function opsOf(core: ApiCore) {',
    '  return {',
    ...wire.operations.map(member),
    '  } as const;',
    '}',
    '',
    ...clientLines(model),
  ];
  return [{ slot: 'sdk', path: 'client.gen.ts', content: lines.join('\n') }];
}

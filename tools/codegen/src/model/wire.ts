/**
 * How a spec meets the wire, decided once for the client, the mock and the runner. Our JSON-RPC frames
 * where the spec says so (`x-framing: json-rpc`, or our `x-role` / `x-method`) or shows nothing else;
 * otherwise the spec's own messages: each channel's address joined to the server's URL, a `send`'s
 * messages going out as plain JSON, a `receive`'s coming in, told apart by their constants first, and
 * replies matched by the `correlationId` location (docs/generating.md, "Specs that speak their own
 * messages").
 */
import { fromPointer, toPointer } from '../load/spec-error';
import {
  isObj,
  isRef,
  type Channel,
  type Obj,
  type Operation,
  type OperationReply,
  type SpecDocument,
} from '../load/spec-types';
import { templateParameters } from './channel-template';
import { channelOf, clientAction, type View } from './plain-spec';
import type { SpecReader } from './spec-reader';
import { cleanSchema } from './schema-tools';
import { obj, str } from './read-values';
import type { JsonSchema } from './types';
import type { Discriminator, Framing, WireChannel, WireMessage, WireModel, WireOperation } from './types';

/** The framing a spec speaks, and why (for the note). */
export function framingOf(data: SpecDocument): { framing: Framing; reason: string } {
  const stated = data['x-framing'];
  if (stated === 'json-rpc' || stated === 'messages') return { framing: stated, reason: 'x-framing' };
  const operations = Object.values(data.operations ?? {}).filter((o): o is Operation => !isRef(o));
  const ours =
    operations.some((o) => o['x-method'] !== undefined || o['x-role'] !== undefined) ||
    Object.values(data.components?.schemas ?? {}).some((s) => isObj(s) && s['x-role'] !== undefined);
  if (ours) return { framing: 'json-rpc', reason: 'x-role / x-method' };
  const messages = [
    ...Object.values(data.components?.messages ?? {}),
    ...Object.values(data.channels ?? {}).flatMap((c) => (isRef(c) ? [] : Object.values(c.messages ?? {}))),
  ];
  if (messages.some((m) => isObj(m) && (m as Obj).correlationId !== undefined))
    return { framing: 'messages', reason: 'a message declares a correlationId' };
  const channels = Object.values(data.channels ?? {}).filter((c): c is Channel => !isRef(c));
  if (channels.some((c) => isObj(obj(c.bindings).ws)))
    return { framing: 'messages', reason: 'a channel has ws bindings' };
  const addresses = channels.map((c) => c.address).filter((a): a is string => typeof a === 'string');
  if (addresses.length > 0 && addresses.every((a) => a.startsWith('/')))
    return { framing: 'messages', reason: 'every channel address is a URL path' };
  return { framing: 'json-rpc', reason: 'the default' };
}

/** `$message.payload#/reqid` → `/reqid`; a header location (no place in a WebSocket frame) or none → null. */
export function correlationPointer(correlationId: unknown, read: SpecReader): string | null {
  const location = read.resolve(correlationId).location;
  if (typeof location !== 'string') return null;
  const m = /^\$message\.payload#(.*)$/.exec(location.trim());
  return m ? m[1]! : null;
}

/** The pointer a `$ref` chain ends at (the message's own place), or null for an inline node. */
function targetOf(data: SpecDocument, node: unknown): string[] | null {
  let path: string[] | null = null;
  let current = node;
  for (let hops = 0; hops < 16 && isObj(current) && typeof current.$ref === 'string'; hops++) {
    path = fromPointer(current.$ref);
    current = path.reduce<unknown>((t, k) => (isObj(t) ? t[k] : Array.isArray(t) ? t[Number(k)] : undefined), data);
  }
  return path;
}

/**
 * The constants of a payload's top-level properties, through `$ref`, `allOf` (any part's) and
 * `oneOf` / `anyOf` (a key every option fixes, their values together).
 */
export function discriminatorsOf(schema: unknown, schemas: Record<string, JsonSchema>): Discriminator[] {
  const found = constantsOf(schema, schemas, 0);
  return [...found].map(([key, values]) => ({ pointer: toPointer([key]).slice(1), values: [...values] }));
}

type Constants = Map<string, Set<string | number | boolean | null>>;
type Scalar = string | number | boolean | null;

function constantsOf(schema: unknown, schemas: Record<string, JsonSchema>, depth: number): Constants {
  const out: Constants = new Map();
  if (!isObj(schema) || depth > 16) return out;
  if (typeof schema.$ref === 'string') {
    const name = /^#\/definitions\/(.+)$/.exec(schema.$ref)?.[1];
    return name ? constantsOf(schemas[name], schemas, depth + 1) : out;
  }
  for (const [key, prop] of Object.entries(obj(schema.properties))) {
    const values = fixedValues(prop, schemas, depth);
    if (values) out.set(key, new Set(values));
  }
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : [])
    for (const [k, v] of constantsOf(part, schemas, depth + 1)) if (!out.has(k)) out.set(k, v);
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (options && options.length > 0) {
    const each = options.map((o) => constantsOf(o, schemas, depth + 1));
    for (const key of each[0]!.keys()) {
      if (out.has(key) || !each.every((c) => c.has(key))) continue;
      out.set(key, new Set(each.flatMap((c) => [...c.get(key)!])));
    }
  }
  return out;
}

/** A property's constant values (`const`, or an enum of one), through a `$ref`; null when it has none. */
function fixedValues(prop: unknown, schemas: Record<string, JsonSchema>, depth: number): Scalar[] | null {
  if (!isObj(prop) || depth > 16) return null;
  if (typeof prop.$ref === 'string') {
    const name = /^#\/definitions\/(.+)$/.exec(prop.$ref)?.[1];
    return name ? fixedValues(schemas[name], schemas, depth + 1) : null;
  }
  const scalar = (v: unknown): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (prop.const !== undefined) return scalar(prop.const) ? [prop.const] : null;
  if (Array.isArray(prop.enum) && prop.enum.length === 1 && scalar(prop.enum[0])) return [prop.enum[0]];
  return null;
}

/** The messages operations name, each added once (by where its `$ref` chain ends) as it is met. */
function messageRegistry(data: SpecDocument, read: SpecReader, schemas: Record<string, JsonSchema>) {
  const messages = new Map<string, WireMessage>();
  const add = (node: unknown, at: string[]): string => {
    const path = targetOf(data, node) ?? at;
    const id = toPointer(path);
    if (messages.has(id)) return id;
    const key = path.at(-1) ?? id;
    const message = read.resolve(node);
    const { payload, examples } = read.payloadOf(node, key, at);
    messages.set(id, {
      id,
      key,
      ...(typeof message.name === 'string' ? { name: message.name } : {}),
      ...(typeof message.summary === 'string' ? { summary: message.summary } : {}),
      payload,
      correlation: correlationPointer(message.correlationId, read),
      discriminators: discriminatorsOf(payload.schema, schemas),
      examples,
    });
    return id;
  };
  /** The ids of the messages an operation or reply lists, or (no list) of every message of its channel. */
  const listed = (owner: Operation | OperationReply, channelId: string, at: string[]): string[] => {
    if (Array.isArray(owner.messages)) return owner.messages.map((m, i) => add(m, [...at, 'messages', String(i)]));
    const ch = read.resolve(data.channels?.[channelId]);
    return Object.entries(obj(ch.messages)).map(([key, m]) => add(m, ['channels', channelId, 'messages', key]));
  };
  const correlationOf = (ids: string[]) => ids.map((id) => messages.get(id)!.correlation).find((c) => c) ?? null;
  return { messages, listed, correlationOf };
}

/** Builds the wire of a spec that speaks its own messages. */
export function buildWire(
  data: SpecDocument,
  view: View,
  read: SpecReader,
  schemas: Record<string, JsonSchema>,
  reason: string,
): WireModel {
  const { messages, listed, correlationOf } = messageRegistry(data, read, schemas);
  const operations: WireOperation[] = [];
  for (const [id, op] of Object.entries(data.operations ?? {})) {
    const channel = isRef(op) ? null : channelOf(op);
    if (isRef(op) || channel === null) continue;
    const own = listed(op, channel, ['operations', id]);
    let reply: WireOperation['reply'] = null;
    if (isObj(op.reply)) {
      const replyChannel = channelOf(op.reply) ?? channel;
      const ids = listed(op.reply, replyChannel, ['operations', id, 'reply']);
      reply = { channel: replyChannel, messages: ids, correlation: correlationOf(ids) ?? correlationOf(own) };
    }
    const correlation = correlationOf(own) ?? reply?.correlation ?? null;
    operations.push({
      id,
      action: clientAction(op, view) === 'send' ? 'send' : 'receive',
      channel,
      summary: str(op.summary) || str(op.description),
      messages: own,
      correlation,
      correlationType:
        correlation === null ? null : valueType(messages.get(own[0] ?? '')?.payload.schema, correlation, schemas),
      reply,
    });
  }
  return {
    framing: 'messages',
    reason,
    servers: Object.entries(data.servers ?? {}).map(([id, raw]) => {
      const s = read.resolve(raw);
      const protocol = str(s.protocol);
      return { id, url: `${protocol}://${str(s.host)}${str(s.pathname)}`, ws: /^wss?$/i.test(protocol) };
    }),
    channels: Object.entries(data.channels ?? {}).map(([id, raw]) => wireChannel(id, read.resolve(raw))),
    messages: [...messages.values()],
    operations,
  };
}

/** Whether the schema at a pointer of a payload is a string (else a number is filled in). */
function valueType(schema: unknown, pointer: string, schemas: Record<string, JsonSchema>): 'number' | 'string' {
  const at = (s: unknown, keys: string[], depth: number): unknown => {
    if (!isObj(s) || depth > 32) return undefined;
    const name = typeof s.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(s.$ref)?.[1] : undefined;
    if (name) return at(schemas[name], keys, depth + 1);
    if (keys.length === 0) return s;
    const direct = obj(s.properties)[keys[0]!];
    if (direct !== undefined) return at(direct, keys.slice(1), depth + 1);
    for (const part of [s.allOf, s.oneOf, s.anyOf].flatMap((l) => (Array.isArray(l) ? l : []))) {
      const found = at(part, keys, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const target = obj(at(schema, fromPointer('#' + pointer), 0));
  return target.type === 'string' ? 'string' : 'number';
}

function wireChannel(id: string, ch: Obj): WireChannel {
  const address = typeof ch.address === 'string' ? ch.address : null;
  const ws = obj(obj(ch.bindings).ws);
  const schemaOf = (v: unknown) => (isObj(v) ? cleanSchema(v) : null);
  return {
    id,
    address,
    parameters: address === null ? [] : templateParameters(address),
    query: schemaOf(ws.query),
    headers: schemaOf(ws.headers),
  };
}

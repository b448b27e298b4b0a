/**
 * The surface of the model: the servers, the subscription channels and the methods, read from the
 * spec's servers, channels and operations (plain-spec.ts says which channels and operations are
 * which, for a spec without our extensions).
 */
import {
  isObj,
  isRef,
  type Channel,
  type Operation,
  type OperationReply,
  type Ref,
  type Server,
} from '../load/spec-types';
import { fromPointer } from '../load/spec-error';
import { templateParameters } from './channel-template';
import { channelOf, clientAction, isMethod, methodDefaults, type View } from './plain-spec';
import { channelPayload, messagesPayload, type SpecReader } from './spec-reader';
import { withMarkers } from './markers';
import { operationGroup } from './build-groups';
import { obj, str } from './read-values';
import type { ChannelModel, MethodModel, ServerModel } from './types';

/**
 * The messages the client receives on each channel: those its receive operations list. A channel
 * maps to null when one of them lists none (it carries every message of the channel, AsyncAPI 3.0);
 * a channel no receive operation names is not in the map.
 */
export function receivedMessages(
  operations: Record<string, Operation | Ref>,
  view: View,
): Map<string, unknown[] | null> {
  const received = new Map<string, unknown[] | null>();
  for (const op of Object.values(operations)) {
    const id = isRef(op) ? null : channelOf(op);
    if (isRef(op) || id === null || clientAction(op, view) !== 'receive') continue;
    const listed = received.get(id);
    if (!Array.isArray(op.messages)) received.set(id, null);
    else if (listed !== null) received.set(id, [...(listed ?? []), ...(op.messages as unknown[])]);
  }
  return received;
}

/**
 * A subscription channel of the model, or null for a channel with no address (the RPC socket).
 * `received` lists the messages the client receives on it (receivedMessages), null or undefined for all.
 */
export function buildChannel(
  id: string,
  ch: Channel | Ref,
  read: SpecReader,
  received?: unknown[] | null,
): ChannelModel | null {
  if (isRef(ch) || typeof ch.address !== 'string') return null; // the RPC channel has no address
  // What the client sends on the channel (a request, a ping) is no payload it receives there.
  const targets = received ? new Set(received.map((m) => read.resolve(m))) : null;
  const own = Object.entries(ch.messages ?? {}).filter(([, m]) => targets === null || targets.has(read.resolve(m)));
  const { payload, examples, addresses, exampleInfo, messages } = channelPayload(id, own, read);
  if (ch['x-access'] === undefined) read.defaults.applied('access', `channel ${id}`);
  const channel: ChannelModel = {
    id,
    address: ch.address,
    title: str(ch.title, id),
    description: str(ch.description),
    access: ch['x-access'] ?? 'public',
    parameters: templateParameters(ch.address).map((name) => {
      const p = read.resolve(ch.parameters?.[name]);
      return { name, description: str(p.description), enum: Array.isArray(p.enum) ? p.enum.map(String) : null };
    }),
    payload,
    examples,
    exampleAddresses: addresses,
    exampleInfo,
    messages,
  };
  return withMarkers(channel, ch);
}

/** The payload of every message of the channel an operation (or its reply) names (none without a channel). */
function channelMessages(op: Operation | OperationReply, fallbackName: string, read: SpecReader) {
  const target = channelOf(op);
  if (target === null) return read.payloadOf(undefined, fallbackName);
  return channelPayload(target, Object.entries(obj(read.resolve(op.channel).messages)), read);
}

/**
 * The payload of an operation's (or its reply's) `messages` list: its one message's, or any one of
 * several (their anyOf, each matched by its key in the channel).
 */
function listedMessages(list: unknown[], id: string, side: 'request' | 'reply', at: string[], read: SpecReader) {
  if (list.length <= 1) return read.payloadOf(list[0], `${id} ${side}`, [...at, '0']);
  const keyOf = (m: unknown, i: number) =>
    isObj(m) && typeof m.$ref === 'string'
      ? (fromPointer(m.$ref).at(-1) ?? `${id} ${side} ${i + 1}`)
      : `${id} ${side} ${i + 1}`;
  const entries = list.map((message, i) => ({ key: keyOf(message, i), message, at: [...at, String(i)] }));
  return messagesPayload(entries, `operation ${id} ${side}`, `${id} ${side}`, read);
}

/** A method of the model, or null for an operation that is not one (plain-spec.ts says which are). */
export function buildMethod(id: string, op: Operation | Ref, view: View, read: SpecReader): MethodModel | null {
  if (isRef(op) || !isMethod(id, op, view, read.defaults)) return null;
  const { name, transports, rateLimitClass, auth } = methodDefaults(id, op, read.defaults);
  const reply = op.reply ?? {};
  // Without a `messages` list, an operation (or its reply) carries every message of its channel (AsyncAPI 3.0).
  const request = Array.isArray(op.messages)
    ? listedMessages(op.messages, id, 'request', ['operations', id, 'messages'], read)
    : channelMessages(op, `${id} request`, read);
  const group = operationGroup(op, read);
  const response = Array.isArray(reply.messages)
    ? listedMessages(reply.messages, id, 'reply', ['operations', id, 'reply', 'messages'], read)
    : channelMessages(reply, `${id} reply`, read);
  const method: MethodModel = {
    id,
    name,
    summary: str(op.summary),
    description: str(op.description),
    params: request.payload,
    result: response.payload,
    assumedParams: op['x-assumed-params'] ?? null,
    assumedResult: op['x-assumed-result'] ?? null,
    rateLimitClass,
    rateLimitBudget: op['x-rate-limit-budget'] ?? null,
    rateLimitRule: op['x-rate-limit-rule'] ?? null,
    transports,
    httpPath: op['x-http-path'] ?? null,
    auth,
    orderFlow: op['x-order-flow'] === true,
    rateLimitKey: op['x-rate-limit-key'] ?? name,
    actionModule: op['x-action-module'] ?? null,
    actionData: [op['x-action-data'] ?? []].flat(),
    source: op['x-source'] ?? 'document',
    paramsExamples: request.examples,
    resultExamples: response.examples,
    paramsExampleInfo: request.exampleInfo,
    resultExampleInfo: response.exampleInfo,
    ...(request.messages[0] ? { requestMessage: request.messages[0] } : {}),
    ...(response.messages[0] ? { replyMessage: response.messages[0] } : {}),
    ...(group !== undefined ? { group } : {}),
  };
  return withMarkers(method, op);
}

/** A server of the model (a `$ref` to one is read as a server with nothing given). */
export function buildServer(id: string, server: Server | Ref): ServerModel {
  const s: Partial<Server> = isRef(server) ? {} : server;
  const variableDefaults: Record<string, string> = {};
  for (const [name, raw] of Object.entries(s.variables ?? {})) {
    if (isRef(raw)) continue;
    const value = raw.default ?? (Array.isArray(raw.enum) ? raw.enum[0] : undefined);
    if (value !== undefined && value !== null) variableDefaults[name] = String(value);
  }
  return {
    id,
    host: str(s.host),
    protocol: str(s.protocol),
    pathname: str(s.pathname),
    transport: s['x-transport'] === 'http' || /^https?$/.test(str(s.protocol)) ? 'http' : 'ws',
    title: str(s.title, id),
    description: str(s.description),
    variables: Object.keys(s.variables ?? {}),
    ...(Object.keys(variableDefaults).length > 0 ? { variableDefaults } : {}),
  };
}

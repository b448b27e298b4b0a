/**
 * The surface of the model: the servers, the subscription channels and the methods, read from the
 * spec's servers, channels and operations (plain-spec.ts says which channels and operations are
 * which, for a spec without our extensions).
 */
import { isRef, type Channel, type Operation, type OperationReply, type Ref, type Server } from '../load/spec-types';
import { templateParameters } from './channel-template';
import { channelOf, isMethod, methodDefaults, type View } from './plain-spec';
import { channelPayload, type SpecReader } from './spec-reader';
import { withMarkers } from './markers';
import { obj, str } from './read-values';
import type { ChannelModel, MethodModel, ServerModel } from './types';

/** A subscription channel of the model, or null for a channel with no address (the RPC socket). */
export function buildChannel(id: string, ch: Channel | Ref, read: SpecReader): ChannelModel | null {
  if (isRef(ch) || typeof ch.address !== 'string') return null; // the RPC channel has no address
  const { payload, examples, addresses, exampleInfo, messages } = channelPayload(
    id,
    Object.entries(ch.messages ?? {}),
    read,
  );
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

/** A method of the model, or null for an operation that is not one (plain-spec.ts says which are). */
export function buildMethod(id: string, op: Operation | Ref, view: View, read: SpecReader): MethodModel | null {
  if (isRef(op) || !isMethod(id, op, view, read.defaults)) return null;
  const { name, transports, rateLimitClass, auth } = methodDefaults(id, op, read.defaults);
  const reply = op.reply ?? {};
  // Without a `messages` list, an operation (or its reply) carries every message of its channel (AsyncAPI 3.0).
  const request = Array.isArray(op.messages)
    ? read.payloadOf(op.messages[0], `${id} request`, ['operations', id, 'messages', '0'])
    : channelMessages(op, `${id} request`, read);
  const response = Array.isArray(reply.messages)
    ? read.payloadOf(reply.messages[0], `${id} reply`, ['operations', id, 'reply', 'messages', '0'])
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
    source: op['x-source'] ?? 'document',
    paramsExamples: request.examples,
    resultExamples: response.examples,
    paramsExampleInfo: request.exampleInfo,
    resultExampleInfo: response.exampleInfo,
    ...(request.messages[0] ? { requestMessage: request.messages[0] } : {}),
    ...(response.messages[0] ? { replyMessage: response.messages[0] } : {}),
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

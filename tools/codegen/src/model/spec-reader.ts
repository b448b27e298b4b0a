/**
 * How the model builder reads a spec: local refs followed, and a message's payload described with its
 * examples (an inline payload given a named type of its own, plain-spec.ts).
 */
import { fromPointer, toPointer } from '../load/spec-error';
import { anyMessage, cleanSchema, refName } from './schema-tools';
import { payloadTypeName, type DefaultsLog } from './plain-spec';
import { unwrapMultiFormat } from './schema-ajv';
import type { ExampleInfo, JsonSchema, MessageInfo, PayloadModel } from './types';
import { isObj, type Obj, type SpecDocument } from '../load/spec-types';
import { obj } from './read-values';

/** A message's payload as the model holds it, with its examples and where they were seen. */
interface MessagePayload {
  payload: PayloadModel;
  examples: unknown[];
  addresses: Array<string | null>;
  exampleInfo: ExampleInfo[];
  messages: MessageInfo[];
}

/** The strings among `keys` of an object, the others left out. */
const strings = <K extends string>(o: Obj, keys: readonly K[]): Partial<Record<K, string>> =>
  Object.fromEntries(keys.filter((k) => typeof o[k] === 'string').map((k) => [k, o[k] as string])) as Partial<
    Record<K, string>
  >;

/** How the model builder reads a spec: local refs followed, and a message's payload with its examples. */
export interface SpecReader {
  resolve(node: unknown): Obj;
  /**
   * `fallbackName` names the message when it is inline (not a `$ref`), for an inline payload's type;
   * `at` is where such an inline message stands in the spec.
   */
  payloadOf(messageRef: unknown, fallbackName: string, at?: string[]): MessagePayload;
  /** Inline payloads given a name of their own (raw schemas), in the order met. */
  hoisted: Map<string, Obj>;
  /** Where each hoisted payload is in the spec (its JSON path). */
  origins: Map<string, string[]>;
  defaults: DefaultsLog;
}

/** An inline payload worth a type of its own: anything but a `$ref` or an array of `$ref`s. */
const isInlinePayload = (raw: unknown): raw is Obj =>
  isObj(raw) &&
  Object.keys(raw).length > 0 &&
  raw.$ref === undefined &&
  !(raw.type === 'array' && isObj(raw.items) && raw.items.$ref !== undefined);

/** The reader of one spec: refs resolve against its data, payload records against its named schemas. */
export function specReader(data: SpecDocument, schemas: Record<string, JsonSchema>, defaults: DefaultsLog): SpecReader {
  const inline = inlinePayloads(schemas, defaults);
  const resolve = (node: unknown): Obj => resolveIn(data, node);
  const payloadOf = (messageRef: unknown, fallbackName: string, at: string[] = []): MessagePayload => {
    const message = resolve(messageRef);
    const path = [...messagePath(messageRef, at), 'payload'];
    // A multi-format schema: JSON Schema and AsyncAPI formats are read, others are an open payload.
    const { schema: rawPayload, foreign } = unwrapMultiFormat(message.payload);
    if (foreign !== null) defaults.applied('foreignSchema', `${toPointer(path)} (${foreign})`);
    const payload = cleanSchema(
      inline.named(
        rawPayload,
        messageRef,
        fallbackName,
        isObj(message.payload) && message.payload.schemaFormat !== undefined ? [...path, 'schema'] : path,
      ),
    );
    return { payload: describePayload(payload, schemas), ...examplesOf(message, foreign) };
  };
  return { resolve, payloadOf, hoisted: inline.hoisted, origins: inline.origins, defaults };
}

/** A node with its local refs followed (to messages, parameters); schema refs are kept as references. */
function resolveIn(data: SpecDocument, node: unknown): Obj {
  let current = node;
  for (let hops = 0; hops < 16 && isObj(current) && typeof current.$ref === 'string'; hops++) {
    let target: unknown = data;
    for (const key of fromPointer(current.$ref))
      target = isObj(target) ? target[key] : Array.isArray(target) ? target[Number(key)] : undefined;
    current = target;
  }
  return obj(current);
}

/** The JSON path of a message: its `$ref` target, or `at` (where an inline message stands). */
const messagePath = (messageRef: unknown, at: string[]): string[] =>
  isObj(messageRef) && typeof messageRef.$ref === 'string' ? fromPointer(messageRef.$ref) : at;

/**
 * A spec without our conventions may describe a payload inline: it becomes a named schema (added to
 * `schemas`), so it has a type. `hoisted` and `origins` list those named so, and where each stands.
 */
function inlinePayloads(schemas: Record<string, JsonSchema>, defaults: DefaultsLog) {
  const hoisted = new Map<string, Obj>();
  const origins = new Map<string, string[]>();
  // One inline payload reached from several places (a channel and its operations) is one type.
  const nameOf = new Map<Obj, string>();
  const named = (raw: unknown, messageRef: unknown, fallbackName: string, path: string[]): unknown => {
    if (!isInlinePayload(raw)) return raw;
    const known = nameOf.get(raw);
    if (known) return { $ref: `#/components/schemas/${known}` };
    const ref =
      isObj(messageRef) && typeof messageRef.$ref === 'string' ? fromPointer(messageRef.$ref).at(-1) : undefined;
    const base = payloadTypeName(ref ?? fallbackName);
    let name = base;
    for (let n = 2; schemas[name] !== undefined; n++) name = `${base}${n}`;
    schemas[name] = cleanSchema(raw);
    hoisted.set(name, raw);
    nameOf.set(raw, name);
    origins.set(name, path);
    defaults.applied('inlinePayload', `${ref ? 'message ' + ref : 'message ' + fallbackName} → ${name}`);
    return { $ref: `#/components/schemas/${name}` };
  };
  return { named, hoisted, origins };
}

/**
 * A message's examples that carry a payload (none of a payload not read), with their address, names and the message's
 * own.
 */
function examplesOf(message: Obj, foreign: string | null): Omit<MessagePayload, 'payload'> {
  const withPayload = (foreign === null && Array.isArray(message.examples) ? message.examples : [])
    .map(obj)
    .filter((e) => e.payload !== undefined);
  const examples = withPayload.map((e) => e.payload);
  // Where the examples were recorded, the message's x-address says on which filled-in address.
  const address = typeof message['x-address'] === 'string' ? message['x-address'] : null;
  const addresses = withPayload.map(() => address);
  const exampleInfo = withPayload.map((e) => strings(e, ['name', 'summary'] as const));
  const messages =
    isObj(message.payload) || Object.keys(message).length > 0
      ? [strings(message, ['name', 'title', 'summary'] as const)]
      : [];
  return { examples, addresses, exampleInfo, messages };
}

/**
 * One message of a list: its key (a variant is matched by it), the message (or its `$ref`) and where an inline one
 * stands.
 */
export interface ListedMessage {
  key: string;
  message: unknown;
  at: string[];
}

/**
 * The payload of a list of messages (a channel's, an operation's or a reply's): its one message's, or
 * (several messages) any one of theirs, examples of all. `place` names the list in the note; `fallback`
 * names the payload of an empty list.
 */
export function messagesPayload(
  list: ListedMessage[],
  place: string,
  fallback: string,
  read: SpecReader,
): MessagePayload {
  const each = list.map(({ key, message, at }) => {
    const p = read.payloadOf(message, key, at);
    // One entry a message, in the order of the payload's variants, so that the diff can match them by id.
    return { ...p, messages: [{ id: key, ...p.messages[0] }] };
  });
  if (each.length <= 1) return each[0] ?? read.payloadOf(undefined, fallback);
  read.defaults.applied('messages', place);
  return {
    // anyOf, not oneOf: two messages whose schemas overlap (all fields optional) would make a value that
    // fits both invalid under oneOf, and strict validation would drop a payload the spec allows.
    payload: { schema: anyMessage(each.map((p) => p.payload.schema)), record: null, array: false },
    examples: each.flatMap((p) => p.examples),
    addresses: each.flatMap((p) => p.addresses),
    exampleInfo: each.flatMap((p) => p.exampleInfo),
    messages: each.flatMap((p) => p.messages),
  };
}

/**
 * The payload of a channel: its one message's, or (several messages) any one of theirs, examples of
 * all. `messages` are the channel's messages by key: an inline one's payload is named by its key.
 */
export function channelPayload(id: string, messages: Array<[string, unknown]>, read: SpecReader): MessagePayload {
  const list = messages.map(([key, message]) => ({ key, message, at: ['channels', id, 'messages', key] }));
  return messagesPayload(list, `channel ${id}`, id, read);
}

/** A payload schema described: the named record it is (or of each element, for an array of records). */
function describePayload(schema: JsonSchema, schemas: Record<string, JsonSchema>): PayloadModel {
  const named = refName(schema);
  const target = named ? (schemas[named] ?? {}) : schema;
  const array = target.type === 'array';
  if (array) {
    const element = refName(target.items);
    return { schema, record: element ?? named, array: true };
  }
  return { schema, record: named, array: false };
}

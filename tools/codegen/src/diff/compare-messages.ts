/**
 * The messages of a channel of several messages (its payload is any one of theirs): each old message
 * matched with a new one, by id, by name, by the same payload, by the record it carries, then by the
 * fields they share; each pair compared field by field, whatever its form (a `$ref` to a named
 * record, an inline schema, an array of either). A message's payload flows to clients (`output`).
 */
import type { ApiModel, ChannelModel, JsonSchema } from '../model/types';
import { describeType, messageVariants, refName } from '../model/schema-tools';
import { pascal } from '../model/naming';
import { change, type Change } from './change';
import { isObj } from '../load/spec-types';
import { meaning, pointerOf } from './schema-shapes';
import { Walk } from './schema-walk';

interface Message {
  id?: string;
  name?: string;
  schema: JsonSchema;
}

/** The messages of a channel that carries several, in order; null for a channel of one message. */
export function messagesOf(c: ChannelModel): Message[] | null {
  if (c.payload.record !== null || c.payload.array) return null;
  const variants = messageVariants(c.payload.schema);
  if (!variants) return null;
  // Ids and names count only where the model lists one message a variant, in order (spec-reader.ts does).
  const infos = c.messages?.length === variants.length ? c.messages : [];
  return variants.map((schema, i) => ({ id: infos[i]?.id, name: infos[i]?.name, schema }));
}

const label = (m: Message) => m.id ?? m.name ?? describeType(m.schema);

/** The named record a payload carries (or carries an array of), or null. */
const recordOf = (s: JsonSchema) => refName(s) ?? (s.type === 'array' ? refName(s.items) : null);

/** Every change between the messages of two versions of a channel. */
export function compareMessages(
  channel: string,
  old: Message[],
  now: Message[],
  before: ApiModel,
  after: ApiModel,
): Change[] {
  const { pairs, removed, added } = matchMessages(old, now, before, after);
  const names = [`${pascal(channel)}ChannelPayload`, `ChannelPayloads['${channel}']`];
  const subject = (m: Message) => `channel ${channel}, message ${label(m)}`;
  return [
    ...pairs.flatMap(([a, b]) => compareMessage(subject(b), a, b, names, before, after)),
    ...removed.map((m) =>
      change('union.variant-removed', subject(m), `message removed: ${describeType(m.schema)}`, {
        flows: ['output'],
        names,
      }),
    ),
    ...added.map((m) =>
      change('union.variant-added', subject(m), `message added: ${describeType(m.schema)}`, { flows: ['output'] }),
    ),
  ];
}

/** Old and new messages paired, each pass among those left: by a key both sides give once, then by shared fields. */
function matchMessages(old: Message[], now: Message[], before: ApiModel, after: ApiModel) {
  const pairs: Array<[Message, Message]> = [];
  let left = [...old];
  let right = [...now];
  const take = (a: Message, b: Message) => {
    pairs.push([a, b]);
    left = left.filter((x) => x !== a);
    right = right.filter((x) => x !== b);
  };
  const keys: Array<(m: Message) => string | null | undefined> = [
    (m) => m.id,
    (m) => m.name,
    (m) => meaning(m.schema),
    (m) => recordOf(m.schema),
  ];
  for (const key of keys) {
    const once = (list: Message[], k: string) => list.filter((m) => key(m) === k).length === 1;
    for (const a of [...left]) {
      const k = key(a);
      const b = right.find((m) => key(m) === k);
      if (k && b && once(left, k) && once(right, k)) take(a, b);
    }
  }
  // What is left pairs by the field names the two payloads share, most first; a last one of each side pairs anyway.
  const fields = (m: Message, model: ApiModel) => Object.keys(propertiesOf(element(m.schema, model).schema));
  while (left.length && right.length) {
    const scored = left.flatMap((a) =>
      right.map((b) => {
        const fb = fields(b, after);
        return { a, b, score: fields(a, before).filter((f) => fb.includes(f)).length };
      }),
    );
    const best = scored.sort((x, y) => y.score - x.score)[0]!;
    if (best.score === 0 && (left.length > 1 || right.length > 1)) break;
    take(best.a, best.b);
  }
  return { pairs, removed: left, added: right };
}

const propertiesOf = (s: JsonSchema): Record<string, unknown> => (isObj(s.properties) ? s.properties : {});

/**
 * A payload seen through its form: the array's own schema (null when it is none), its element resolved, and the
 * element's name.
 */
function element(schema: JsonSchema, model: ApiModel) {
  const resolve = (s: JsonSchema, at: string) => {
    const name = refName(s);
    return name !== null
      ? { schema: model.schemas[name] ?? {}, pointer: pointerOf(model, name), name }
      : { schema: s, pointer: at, name: null };
  };
  const outer = resolve(schema, '');
  if (outer.schema.type !== 'array' || !isObj(outer.schema.items)) return { array: null, ...outer };
  const { items, ...array } = outer.schema;
  const inner = resolve(items as JsonSchema, `${outer.pointer}/items`);
  return { array: { schema: array, pointer: outer.pointer }, ...inner, name: inner.name ?? outer.name };
}

/**
 * Two messages matched: the same payload is no change (a named record is compared as its own type); else compared field
 * by field.
 */
function compareMessage(
  subject: string,
  a: Message,
  b: Message,
  names: string[],
  before: ApiModel,
  after: ApiModel,
): Change[] {
  if (meaning(a.schema) === meaning(b.schema)) return [];
  const ea = element(a.schema, before);
  const eb = element(b.schema, after);
  if ((ea.array === null) !== (eb.array === null)) {
    const form = (e: typeof ea) => `${e.array ? 'array of ' : ''}${e.name ?? 'an inline schema'}`;
    return [change('channel.payload-changed', subject, `${form(ea)} → ${form(eb)}`, { names })];
  }
  const walk = new Walk({ head: subject, names: () => names }, ['output'], before, after);
  if (ea.array && eb.array)
    walk.pair(ea.array.schema, eb.array.schema, { path: '', field: null, pa: ea.array.pointer, pb: eb.array.pointer });
  walk.pair(ea.schema, eb.schema, { path: ea.array ? '[]' : '', field: null, pa: ea.pointer, pb: eb.pointer });
  return walk.out;
}

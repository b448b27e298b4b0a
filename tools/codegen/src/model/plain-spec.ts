/**
 * How a spec without our x- extensions maps onto the model: which channels are subscription channels,
 * which operations are methods, and the stated default of every extension that is absent. Each default
 * applied is recorded once per kind (with the places it applied to), so the generator prints one note
 * line per kind rather than an error per place. The table of these defaults is in docs/generating.md,
 * "Regenerate an SDK for another spec", and in full in spec/README.md, "Our extension vocabulary".
 */
import { isObj, isRef, type Operation, type OperationReply, type Ref, type View } from '../load/spec-types';
import type { DefaultApplied } from './types';

/** The operations of a spec, by id. */
type Operations = Record<string, Operation | Ref>;

/**
 * The JSON-RPC frames assumed for subscriptions when the spec names none by `x-role` (the frames of
 * spec/README.md that @exchange-api/client speaks): the method names of subscribing and of pushed frames.
 */
export const DEFAULT_FRAMES = {
  subscribe: 'subscribe',
  unsubscribe: 'unsubscribe',
  notification: 'subscription',
} as const;

/** The kinds of default, with the sentence the note prints (in this order). */
export const DEFAULT_KINDS = {
  access: 'a channel without x-access is public',
  method: 'an operation in which the client sends and gets a reply is a method named by its operation id (no x-method)',
  transports: 'a method without x-transports is served over the WebSocket only (ws)',
  rateLimitClass: 'a method without x-rate-limit-class has no rate-limit class',
  auth: 'a method without x-auth needs no login (none)',
  serverView:
    "the operations are written from the server's side (it receives requests and replies, it sends what " +
    'clients receive): a receive with a reply is a method, a channel the server sends on is a subscription ' +
    'channel (x-view: client at the root reads them the other way)',
  framing:
    "the spec speaks its own messages, not JSON-RPC: plain JSON on each channel's address, replies matched " +
    'by their correlationId (x-framing: json-rpc at the root says otherwise)',
  roles:
    'no x-role: subscriptions assume the exchange-api JSON-RPC frames ' +
    `(methods ${DEFAULT_FRAMES.subscribe}/${DEFAULT_FRAMES.unsubscribe} with params {channels}; ` +
    `pushed notifications with method "${DEFAULT_FRAMES.notification}" and params {channel, data}), ` +
    'as spec/README.md of the exchange-api repository describes',
  messages:
    'a channel, an operation or a reply with several messages carries any one of them ' +
    "(the payload is their anyOf; a channel's, the messages the client receives on it)",
  sharedAddress:
    'subscription channels at one address are one channel (a pushed frame names only its address), ' +
    'the first, carrying any one of their payloads (their anyOf)',
  oneWay:
    'an operation by which the client sends without a reply is not a method (nothing to wait for): ' +
    'left out of the method map',
  inlinePayload: 'an inline message payload becomes a named type <Message>Payload',
  foreignSchema:
    'a payload in a schema format other than JSON Schema or AsyncAPI (Avro, Protobuf, RAML…) is not read: ' +
    'its type is unknown and any value passes its validator',
  ignoredKeyword: 'a schema keyword that neither JSON Schema nor AsyncAPI defines is ignored (as JSON Schema says)',
  unknownFormat: 'a string format the validators do not know is not checked',
} as const;

export type DefaultKind = keyof typeof DEFAULT_KINDS;

/** Collects the defaults applied while a model is built. */
export class DefaultsLog {
  private readonly places = new Map<DefaultKind, string[]>();

  /** Record that the default of `kind` applied at `place` (e.g. `channel trades`). */
  applied(kind: DefaultKind, place: string): void {
    const list = this.places.get(kind) ?? [];
    if (!list.includes(place)) list.push(place);
    this.places.set(kind, list);
  }

  /** One entry per kind applied, in the order of DEFAULT_KINDS. */
  list(): DefaultApplied[] {
    return (Object.keys(DEFAULT_KINDS) as DefaultKind[])
      .filter((k) => this.places.has(k))
      .map((kind) => ({ kind, text: DEFAULT_KINDS[kind], places: this.places.get(kind)! }));
  }
}

/** The one line a note of an applied default prints: the rule, how many places, and the first few. */
export function defaultNote(d: DefaultApplied): string {
  const shown = d.places.slice(0, 3).join(', ');
  const more = d.places.length > 3 ? `, … ${d.places.length - 3} more` : '';
  return `note: ${d.text} (${d.places.length} place${d.places.length === 1 ? '' : 's'}: ${shown}${more})`;
}

/** The channel id an operation (or its reply) names (`channel: {$ref: '#/channels/<id>'}`), or null. */
export function channelOf(op: Operation | OperationReply): string | null {
  const ref = isObj(op.channel) ? op.channel.$ref : undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/channels/')) return null;
  return ref.slice('#/channels/'.length).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Whose side a spec's operations are written from. Ours, and any spec with `x-method`, from the
 * client's: it sends requests (with a reply) and receives what it subscribed to. Many public specs
 * (the AsyncAPI project's own WebSocket examples among them) describe the server instead: it receives
 * requests and replies, and sends the pushes. A spec whose operations are more often the server's
 * (a receive with a reply, a send without one) than the client's is read that way, and noted, unless
 * its root says `x-view` (client or server), which settles it. On a tie, so is one whose one-way sends
 * carry more messages than its one-way receives.
 */
export type { View };

export function viewOf(operations: Operations, stated: View | undefined, log: DefaultsLog): View {
  if (stated !== undefined) return stated;
  let client = 0;
  let server = 0;
  // On a tie: the messages sent without a reply against those received without one (the pushes).
  let pushed = 0;
  let pulled = 0;
  for (const op of Object.values(operations)) {
    if (isRef(op)) continue;
    if (op['x-method'] !== undefined) return 'client';
    if (op.action !== 'send' && op.action !== 'receive') continue;
    if ((op.action === 'send') === isObj(op.reply)) client++;
    else server++;
    if (isObj(op.reply)) continue;
    if (op.action === 'send') pushed += Array.isArray(op.messages) ? op.messages.length : 1;
    else pulled += Array.isArray(op.messages) ? op.messages.length : 1;
  }
  // A server pushes many kinds of message to its clients and a client sends few: when the operations
  // tie, the side that sends more kinds of message without a reply is the server (Slack's RTM API: one
  // message received, 46 events sent). A full tie reads as the client's side.
  if (server < client || (server === client && pushed <= pulled)) return 'client';
  const tie = server === client ? `, a tie: ${pushed} of ${pushed + pulled} one-way messages sent` : '';
  log.applied('serverView', `${server} of ${server + client} operations${tie}`);
  return 'server';
}

/** What the client does in an operation: its action, or the other one for a spec written from the server's side. */
export function clientAction(op: Operation, view: View): Operation['action'] {
  if (view === 'client') return op.action;
  return op.action === 'send' ? 'receive' : op.action === 'receive' ? 'send' : op.action;
}

/**
 * The channels that only carry requests: on every operation on them the client sends. Such a channel
 * is where methods travel, not a subscription channel, even when it has an address.
 */
export function requestOnlyChannels(operations: Operations, view: View): Set<string> {
  const actions = new Map<string, Set<unknown>>();
  const replies = new Set<string>();
  for (const op of Object.values(operations)) {
    if (isRef(op)) continue;
    const reply = op.reply ? channelOf(op.reply) : null;
    if (reply !== null) replies.add(reply);
    const id = channelOf(op);
    if (id === null) continue;
    if (!actions.has(id)) actions.set(id, new Set());
    actions.get(id)!.add(clientAction(op, view));
  }
  const only = new Set([...actions].filter(([, a]) => a.size === 1 && a.has('send')).map(([id]) => id));
  // A channel that only carries replies (named by a reply, no operation of its own) is no subscription channel either.
  for (const id of replies) if (!actions.has(id)) only.add(id);
  return only;
}

/**
 * Whether an operation is a method: it says `x-method`, or (without our extensions) the client sends
 * in it and it has a reply. A client's send without a reply is recorded as left out.
 */
export function isMethod(id: string, op: Operation, view: View, log: DefaultsLog): boolean {
  if (op['x-method'] !== undefined) return true;
  if (clientAction(op, view) !== 'send') return false;
  if (op.reply) return true;
  log.applied('oneWay', `operation ${id}`);
  return false;
}

/** A method's extension value, or its default (recorded) when the extension is absent. */
export function methodDefaults(id: string, op: Operation, log: DefaultsLog) {
  const place = `operation ${id}`;
  // The value given, or undefined with the default recorded as applied.
  const given = <K extends keyof Operation>(key: K, kind: DefaultKind): Operation[K] => {
    if (op[key] === undefined) log.applied(kind, place);
    return op[key];
  };
  return {
    name: given('x-method', 'method') ?? id,
    transports: given('x-transports', 'transports') ?? ['ws'],
    rateLimitClass: given('x-rate-limit-class', 'rateLimitClass') ?? null,
    auth: given('x-auth', 'auth') ?? 'none',
  };
}

/** The type name an inline payload gets: `price update` → `PriceUpdatePayload`. */
export function payloadTypeName(message: string): string {
  const words = `${message} payload`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

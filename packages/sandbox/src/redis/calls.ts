/**
 * Order flow across a fleet. A request that names an instrument is served by the member that owns the
 * instrument's book: the member that received it has already checked everything the pipeline checks
 * (login, both tiers, params, the action signature and its nonce), then hands the call to the owner
 * over Redis and answers with the owner's result or error. The calls that span instruments
 * (cancel_all, cancel_by_label without an instrument, get_open_orders) go to every member, each
 * answering for the books it owns, and their answers are combined.
 *
 * Never lost: the owner acknowledges a call before it serves it, and keeps its answer by call id for
 * DEDUP_MS, so a call sent again (no acknowledgement within ACK_MS) is served once and answered again.
 * A call no owner acknowledged after SENDS sends was not served, and is answered so; one acknowledged
 * whose answer does not come within CALL_TIMEOUT_MS is answered with an error that says it may have
 * been. The owner verifies every call again (routed.ts): Redis is a trust boundary.
 */
import { randomUUID } from 'node:crypto';
import type { Session } from '../accounts';
import type { ActionVerifier } from '../actions';
import type { Accounts } from '../accounts';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure, wireErrorOf, type ErrorCode, type WireError } from '../rpc';
import { channels } from './keys';
import { LEASE_MS, CYCLE_MS } from './leases';
import { servingInstrument } from './rfq-route';
import { verifyRouted } from './routed';
import { guarded, publish, type RedisClient as Redis } from './connect';
import type { FaultSink } from './slots';

/** An owner that acknowledged a call but has not answered within this long is given up on. */
export const CALL_TIMEOUT_MS = 5000;
/** A call not acknowledged within this long is sent again (the owner serves it once). */
export const ACK_MS = 1000;
/** How many times a call is sent to an owner that does not acknowledge it. */
export const SENDS = 3;
/** How long an owner keeps a call's answer, for a sender that sends it again. */
const DEDUP_MS = 60_000;

type Combine = (results: unknown[]) => unknown;
const countOf = (r: unknown) => Number((r as { cancelled_orders?: number }).cancelled_orders ?? 0);
const ordersOf = (r: unknown) => (r as { orders: Array<{ creation_timestamp: number }> }).orders;

const byCreation = (x: { creation_timestamp: number }, y: { creation_timestamp: number }) =>
  x.creation_timestamp - y.creation_timestamp;

/**
 * Methods that span every instrument when they name none: each member answers for its books (trigger
 * and TWAP orders are held by their instrument's owner, as resting orders are), combined here.
 */
const SPANNING: Record<string, Combine> = {
  'private/cancel_all': () => 'ok',
  'private/cancel_all_trigger_orders': () => 'ok',
  'private/cancel_all_algo_orders': () => 'ok',
  'private/get_trigger_orders': (rs) => ({ ...(rs[0] as object), orders: rs.flatMap(ordersOf).sort(byCreation) }),
  'private/get_algo_orders': (rs) => (rs as Array<Array<{ creation_timestamp: number }>>).flat().sort(byCreation),
  'private/cancel_by_label': (rs) => ({ cancelled_orders: rs.reduce<number>((s, r) => s + countOf(r), 0) }),
  'private/get_open_orders': (rs) => ({
    ...(rs[0] as object),
    orders: rs.flatMap(ordersOf).sort(byCreation),
  }),
};
/**
 * Methods that name an order held by one member, whose instrument the caller does not say: every member
 * is asked, and the one holding it answers (the others' "not found" is the answer when none does).
 */
const ONE_OF = new Set(['private/cancel_trigger_order', 'private/cancel_algo_order']);

interface CallMessage {
  id: string;
  from: string;
  method: string;
  params: unknown;
  session: Session | null;
  ip: string;
  transport: 'ws' | 'http';
}

interface ReplyMessage {
  id: string;
  /** The owner received the call and serves it; its answer follows. */
  ack?: true;
  result?: unknown;
  error?: WireError;
  /** The member no longer owns the instrument (it moved since the sender looked). */
  notOwner?: true;
}

interface Pending {
  expected: number;
  replies: ReplyMessage[];
  acked: boolean;
  onAck(): void;
  resolve(replies: ReplyMessage[]): void;
}

/** What the calls need of the rest of the member. */
export interface CallParts {
  member: string;
  handlers: Readonly<Record<string, Handler>>;
  accounts: Accounts;
  /** Verifies a routed call's action signature again (its nonce must already be the fleet's). */
  actions: ActionVerifier;
  isInstrument(name: string): boolean;
  owns(instrument: string): boolean;
  ownerOf(instrument: string): string | null;
  /** The owner as Redis says now (the cache of ownerOf is a cycle old). */
  lookUpOwner(instrument: string): Promise<string | null>;
  /** Make sure the caller's account exists here before its call is served. */
  knowWallet(wallet: string): void;
  fault: FaultSink;
  /** The instrument whose owner serves the RFQ methods (rfq-route.ts). */
  rfqHome: string;
}

/** Wait for `p` at most `ms`; false when it did not settle in time. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Routing of calls to owners, and serving the calls routed here. */
export class FleetCalls {
  private readonly pending = new Map<string, Pending>();
  /** Answers of calls served here, by call id, kept DEDUP_MS for a sender that sends again. */
  private readonly served = new Map<string, Promise<ReplyMessage>>();
  private readonly forget = new Set<NodeJS.Timeout>();

  constructor(
    private readonly redis: Redis,
    private readonly parts: CallParts,
  ) {}

  /** The pipeline's last step: the owner's answer, or null when this member serves the call itself. */
  route(ctx: CallContext, method: string, params: unknown): Promise<unknown> | null {
    const instrument = servingInstrument(method, params, this.parts.rfqHome);
    const combine = Object.hasOwn(SPANNING, method) ? SPANNING[method] : ONE_OF.has(method) ? oneOf : undefined;
    if (combine && instrument === null) return this.everyone(ctx, method, params, combine);
    if (instrument === null || !this.parts.isInstrument(instrument) || this.parts.owns(instrument)) return null;
    return this.toOwner(ctx, method, params, instrument);
  }

  private message(ctx: CallContext, method: string, params: unknown): CallMessage {
    const { member: from } = this.parts;
    return { id: randomUUID(), from, method, params, session: ctx.session, ip: ctx.ip, transport: ctx.transport };
  }

  /** Send to the instrument's owner; once more to the owner Redis names when the cached one was wrong. */
  private async toOwner(ctx: CallContext, method: string, params: unknown, instrument: string): Promise<unknown> {
    let owner = this.parts.ownerOf(instrument) || (await this.parts.lookUpOwner(instrument));
    const message = this.message(ctx, method, params);
    for (let hop = 0; owner && hop < 2; hop++) {
      const reply = await this.sendToOwner(owner, message);
      if (reply && !reply.notOwner) return unwrap(reply);
      const now = await this.parts.lookUpOwner(instrument);
      if (now === owner) {
        if (reply === null) throw unheard(method, owner);
        break;
      }
      owner = now;
      // A new owner: a new call (the old one was answered notOwner, or never acknowledged).
      message.id = randomUUID();
    }
    // It moved here meanwhile: serve it.
    if (this.parts.owns(instrument)) return this.parts.handlers[method]!(ctx, params);
    throw moving(instrument);
  }

  /**
   * Send a call to one owner until it acknowledges it (at most SENDS times), then wait for its answer;
   * null when it never acknowledged (it did not serve it).
   */
  private async sendToOwner(owner: string, message: CallMessage): Promise<ReplyMessage | null> {
    const { pending, done } = this.expect(message.id, 1);
    const acked = new Promise<void>((resolve) => (pending.onAck = resolve));
    try {
      for (let send = 0; send < SENDS && !pending.acked; send++) {
        const receivers = await this.publish(channels.calls(owner), message);
        if (receivers === 0) return null;
        await within(acked, ACK_MS);
      }
      if (!pending.acked) return null;
      if (!(await within(done, CALL_TIMEOUT_MS))) throw noAnswer(message.method, owner);
      return (await done)[0] ?? null;
    } finally {
      this.pending.delete(message.id);
    }
  }

  private async everyone(ctx: CallContext, method: string, params: unknown, combine: Combine): Promise<unknown> {
    const message = this.message(ctx, method, params);
    const { pending, done } = this.expect(message.id, Infinity);
    try {
      const receivers = await this.publish(channels.everyone, message);
      pending.expected = receivers;
      if (pending.replies.length >= receivers) this.settle(message.id, pending);
      if (!(await within(done, CALL_TIMEOUT_MS)))
        throw noAnswer(method, `${receivers - pending.replies.length} of ${receivers} members`);
      const replies = await done;
      if (combine === oneOf) return unwrap(replies.find((r) => !r.error) ?? replies[0]!);
      return combine(replies.map(unwrap));
    } finally {
      this.pending.delete(message.id);
    }
  }

  /** Publish a call; a failure is reported and answers the request as not served. */
  private publish(channel: string, message: CallMessage): Promise<number> {
    return guarded(
      () => publish(this.redis, channel, JSON.stringify(message)),
      (err) => this.parts.fault(`routing ${message.method}`, err),
    );
  }

  /** Register a call waiting for `expected` answers (acknowledgements are not answers). */
  private expect(id: string, expected: number): { pending: Pending; done: Promise<ReplyMessage[]> } {
    let resolve!: (r: ReplyMessage[]) => void;
    const done = new Promise<ReplyMessage[]>((r) => (resolve = r));
    const pending: Pending = { expected, replies: [], acked: false, onAck: () => {}, resolve };
    this.pending.set(id, pending);
    return { pending, done };
  }

  private settle(id: string, p: Pending): void {
    this.pending.delete(id);
    p.resolve(p.replies);
  }

  /** A reply to one of our calls (an acknowledgement, or an answer). */
  reply(text: string): void {
    const m = parseMessage<ReplyMessage>(text);
    if (!m) return this.parts.fault('a fleet reply', new Error(`not a reply: ${text.slice(0, 80)}`));
    const p = this.pending.get(m.id);
    if (!p) return;
    p.acked = true;
    p.onAck();
    if (m.ack) return;
    p.replies.push(m);
    if (p.replies.length >= p.expected) this.settle(m.id, p);
  }

  /**
   * A call for this member: acknowledge it, serve it once (a call sent again gets the same answer),
   * reply to its sender. Throws when Redis fails (the caller reports it): an unacknowledged call is
   * then sent again, or answered as not served by its sender.
   */
  async serve(text: string): Promise<void> {
    const m = parseMessage<CallMessage>(text);
    if (!m || typeof m.from !== 'string' || !/^m[0-9]+$/.test(m.from))
      return this.parts.fault('a fleet call', new Error(`not a call: ${text.slice(0, 80)}`));
    const to = channels.replies(m.from);
    await publish(this.redis, to, JSON.stringify({ id: m.id, ack: true } satisfies ReplyMessage));
    let answer = this.served.get(m.id);
    if (!answer) {
      answer = this.answer(m);
      this.served.set(m.id, answer);
      const timer = setTimeout(() => {
        this.served.delete(m.id);
        this.forget.delete(timer);
      }, DEDUP_MS);
      timer.unref();
      this.forget.add(timer);
    }
    await publish(this.redis, to, JSON.stringify(await answer));
  }

  /** Serve a call, verified again, with the method's handler. */
  private async answer(m: CallMessage): Promise<ReplyMessage> {
    const reply: ReplyMessage = { id: m.id };
    try {
      const named = servingInstrument(m.method, m.params, this.parts.rfqHome);
      if (named !== null && this.parts.isInstrument(named) && !this.parts.owns(named))
        return { ...reply, notOwner: true };
      const { method, session, ip } = await verifyRouted(m, this.parts.accounts, this.parts.actions);
      // Only a verified login gets an account here (a forged message opens none).
      if (session) this.parts.knowWallet(session.wallet);
      const handler = this.parts.handlers[method];
      if (!handler) throw RpcFailure.of('RPC_METHOD_NOT_FOUND', `${method} is not served here`);
      const transport = m.transport === 'ws' ? 'ws' : 'http';
      const ctx: CallContext = { transport, ip, conn: null, session, headers: null, spent: null };
      reply.result = await handler(ctx, m.params);
    } catch (err) {
      reply.error = wireErrorOf(err);
    }
    return reply;
  }

  /** Give up on every call still waiting (closing). */
  clear(): void {
    for (const [id, p] of this.pending) {
      p.replies.push({ id, error: RpcFailure.of('RPC_INTERNAL_ERROR', 'the sandbox is closing').toWire() });
      p.acked = true;
      p.onAck();
      this.settle(id, p);
    }
    for (const timer of this.forget) clearTimeout(timer);
    this.forget.clear();
    this.served.clear();
  }
}

/** A message from the bus, or null when it is not a JSON object with a string id. */
function parseMessage<T extends { id: string }>(text: string): T | null {
  try {
    const m = JSON.parse(text) as T;
    return typeof m === 'object' && m !== null && typeof m.id === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** Marks a ONE_OF method's call to everyone (its replies are not combined: one of them is the answer). */
const oneOf: Combine = (rs) => rs[0];

function unwrap(r: ReplyMessage): unknown {
  if (r.error) throw new RpcFailure(r.error.code as ErrorCode, r.error.data);
  return r.result;
}

function moving(instrument: string): RpcFailure {
  return RpcFailure.of(
    'RPC_INTERNAL_ERROR',
    `${instrument} has no owner right now (its book is moving to another sandbox of the fleet, ` +
      `within ${(LEASE_MS + CYCLE_MS) / 1000} s): the request was not served; retry`,
  );
}

function unheard(method: string, owner: string): RpcFailure {
  return RpcFailure.of(
    'RPC_INTERNAL_ERROR',
    `${method}: the sandbox owning the book (${owner}) did not acknowledge it after ${SENDS} sends ` +
      `over ${(SENDS * ACK_MS) / 1000} s: it was not served; retry`,
  );
}

function noAnswer(method: string, who: string): RpcFailure {
  return RpcFailure.of(
    'RPC_INTERNAL_ERROR',
    `${method}: ${who} received it but did not answer within ${CALL_TIMEOUT_MS / 1000} s; ` +
      'it may or may not have been served',
  );
}

/**
 * Order flow across a fleet. A request that names an instrument is served by the member that owns the
 * instrument's book: the member that received it has already checked everything the pipeline checks
 * (login, both tiers, params, the action signature and its nonce), then hands the call to the owner
 * over Redis and answers with the owner's result or error. The calls that span instruments
 * (cancel_all, cancel_by_label without an instrument, get_open_orders) go to every member, each
 * answering for the books it owns, and their answers are combined.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Session } from '../accounts';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure, wireErrorOf, type ErrorCode, type WireError } from '../rpc';
import { channels } from './keys';
import { LEASE_MS, CYCLE_MS } from './leases';

/** An owner that has not answered within this long is given up on. */
export const CALL_TIMEOUT_MS = 5000;

type Combine = (results: unknown[]) => unknown;
const countOf = (r: unknown) => Number((r as { cancelled_orders?: number }).cancelled_orders ?? 0);
const ordersOf = (r: unknown) => (r as { orders: Array<{ creation_timestamp: number }> }).orders;

/** Methods that span every instrument when they name none: each member answers for its books, combined here. */
const SPANNING: Record<string, Combine> = {
  'private/cancel_all': () => 'ok',
  'private/cancel_by_label': (rs) => ({ cancelled_orders: rs.reduce<number>((s, r) => s + countOf(r), 0) }),
  'private/get_open_orders': (rs) => ({
    ...(rs[0] as object),
    orders: rs.flatMap(ordersOf).sort((x, y) => x.creation_timestamp - y.creation_timestamp),
  }),
};

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
  result?: unknown;
  error?: WireError;
  /** The member no longer owns the instrument (it moved since the sender looked). */
  notOwner?: true;
}

interface Pending {
  expected: number;
  replies: ReplyMessage[];
  resolve(replies: ReplyMessage[]): void;
  timer: NodeJS.Timeout;
}

/** What the calls need of the rest of the member. */
export interface CallParts {
  member: string;
  handlers: Readonly<Record<string, Handler>>;
  isInstrument(name: string): boolean;
  owns(instrument: string): boolean;
  ownerOf(instrument: string): string | null;
  /** The owner as Redis says now (the cache of ownerOf is a cycle old). */
  lookUpOwner(instrument: string): Promise<string | null>;
  /** Make sure the caller's account exists here before its call is served. */
  knowWallet(wallet: string): void;
}

/** Routing of calls to owners, and serving the calls routed here. */
export class FleetCalls {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly redis: Redis,
    private readonly parts: CallParts,
  ) {}

  /** The pipeline's last step: the owner's answer, or null when this member serves the call itself. */
  route(ctx: CallContext, method: string, params: unknown): Promise<unknown> | null {
    const p = (params ?? {}) as Record<string, unknown>;
    const instrument = typeof p.instrument_name === 'string' ? p.instrument_name : null;
    const combine = Object.hasOwn(SPANNING, method) ? SPANNING[method] : undefined;
    if (combine && instrument === null) return this.everyone(ctx, method, params, combine);
    if (instrument === null || !this.parts.isInstrument(instrument) || this.parts.owns(instrument)) return null;
    return this.toOwner(ctx, method, params, instrument);
  }

  /** Send to the instrument's owner; once more to the owner Redis names when the cached one was wrong. */
  private async toOwner(ctx: CallContext, method: string, params: unknown, instrument: string): Promise<unknown> {
    let owner = this.parts.ownerOf(instrument) || (await this.parts.lookUpOwner(instrument));
    for (let attempt = 0; owner && attempt < 2; attempt++) {
      const [reply] = await this.send(channels.calls(owner), ctx, method, params, 1);
      if (reply && !reply.notOwner) return unwrap(reply);
      const now = await this.parts.lookUpOwner(instrument);
      if (now === owner) break;
      owner = now;
    }
    // It moved here meanwhile: serve it.
    if (this.parts.owns(instrument)) return this.parts.handlers[method]!(ctx, params);
    throw moving(instrument);
  }

  private async everyone(ctx: CallContext, method: string, params: unknown, combine: Combine): Promise<unknown> {
    const replies = await this.send(channels.everyone, ctx, method, params, null);
    return combine(replies.map(unwrap));
  }

  /** Publish a call and wait for `expected` replies (null: as many as received it). */
  private async send(
    channel: string,
    ctx: CallContext,
    method: string,
    params: unknown,
    expected: number | null,
  ): Promise<ReplyMessage[]> {
    const id = randomUUID();
    const message: CallMessage = {
      id,
      from: this.parts.member,
      method,
      params,
      session: ctx.session,
      ip: ctx.ip,
      transport: ctx.transport,
    };
    const done = new Promise<ReplyMessage[]>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve([{ id, error: noAnswer(method).toWire() }]);
      }, CALL_TIMEOUT_MS);
      this.pending.set(id, { expected: expected ?? Infinity, replies: [], resolve, timer });
    });
    const receivers = await this.redis.publish(channel, JSON.stringify(message));
    const p = this.pending.get(id);
    if (p && receivers === 0) this.settle(id, p);
    else if (p && expected === null) {
      p.expected = receivers;
      if (p.replies.length >= receivers) this.settle(id, p);
    }
    return done;
  }

  private settle(id: string, p: Pending): void {
    clearTimeout(p.timer);
    this.pending.delete(id);
    p.resolve(p.replies);
  }

  /** A reply to one of our calls. */
  reply(text: string): void {
    const m = JSON.parse(text) as ReplyMessage;
    const p = this.pending.get(m.id);
    if (!p) return;
    p.replies.push(m);
    if (p.replies.length >= p.expected) this.settle(m.id, p);
  }

  /** A call for this member: serve it with the method's handler and reply to its sender. */
  async serve(text: string): Promise<void> {
    const m = JSON.parse(text) as CallMessage;
    const reply: ReplyMessage = { id: m.id };
    try {
      const handler = this.parts.handlers[m.method];
      if (!handler) throw RpcFailure.of('RPC_METHOD_NOT_FOUND', `${m.method} is not served here`);
      const named = (m.params as { instrument_name?: unknown } | null)?.instrument_name;
      if (typeof named === 'string' && this.parts.isInstrument(named) && !this.parts.owns(named)) {
        reply.notOwner = true;
        return void (await this.redis.publish(channels.replies(m.from), JSON.stringify(reply)));
      }
      if (m.session) this.parts.knowWallet(m.session.wallet);
      const ctx: CallContext = {
        transport: m.transport,
        ip: m.ip,
        conn: null,
        session: m.session,
        headers: null,
        spent: null,
      };
      reply.result = await handler(ctx, m.params);
    } catch (err) {
      reply.error = wireErrorOf(err);
    }
    await this.redis.publish(channels.replies(m.from), JSON.stringify(reply));
  }

  /** Give up on every call still waiting (closing). */
  clear(): void {
    for (const [id, p] of this.pending) {
      p.replies.push({ id, error: noAnswer('the call').toWire() });
      this.settle(id, p);
    }
  }
}

function unwrap(r: ReplyMessage): unknown {
  if (r.error) throw new RpcFailure(r.error.code as ErrorCode, r.error.data);
  return r.result;
}

function moving(instrument: string): RpcFailure {
  return RpcFailure.of(
    'RPC_INTERNAL_ERROR',
    `${instrument} has no owner right now (its book is moving to another sandbox of the fleet, within ${(LEASE_MS + CYCLE_MS) / 1000} s): the request was not served; retry`,
  );
}

function noAnswer(method: string): RpcFailure {
  return RpcFailure.of(
    'RPC_INTERNAL_ERROR',
    `${method}: the sandbox owning the book did not answer within ${CALL_TIMEOUT_MS / 1000} s; it may or may not have been served`,
  );
}

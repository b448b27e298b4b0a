/**
 * Channel subscriptions: one wire subscription per address however many handlers, subscriptions
 * asked for in the same tick sent as one `subscribe`, delivery of notifications to the handlers, and
 * the resubscription after a reconnect.
 */
import { ClientError, ConnectionClosedError, ProtocolError, UsageError } from './errors';
import { asClientError, isDrop } from './faults';
import type { Emitter } from './events';
import type { Validation } from './validation';
import type { ClientEvents, Subscription, ValidatorFn } from './types';

/** A subscribe answer as the client reads it: per address "ok" or the reason, and what is subscribed after it. */
interface SubscriptionResult {
  status?: Record<string, string>;
  current_subscriptions?: string[];
}

/** A call on the socket; `restoring` sends on a connection not yet open (the restore after connecting). */
export type WireCall = (
  method: 'subscribe' | 'unsubscribe',
  params: { channels: string[] },
  restoring: boolean,
) => Promise<unknown>;

interface Listener {
  fn: (payload: unknown) => void;
}

/** Everything known about one subscribed address. */
interface ChannelSubscription {
  address: string;
  channelId: string;
  listeners: Set<Listener>;
  /** Null when validation is off (or its validators not loaded yet). */
  validate: ValidatorFn | null;
  /** Settles with the server's answer to the subscribe that created it. */
  confirmed: Promise<void>;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Addresses to send in one `subscribe`, with who waits for each. */
interface SubscribeBatch {
  addresses: string[];
  waiters: Map<string, Waiter>;
}

/** The subscribed channels and their handlers. */
export class Subscriptions {
  private readonly byAddress = new Map<string, ChannelSubscription>();
  /** Addresses unsubscribed on this connection: a notification still in flight for one is expected, not a fault. */
  private readonly unsubscribed = new Set<string>();
  private batch: SubscribeBatch | null = null;

  constructor(
    private readonly wire: WireCall,
    private readonly isOpen: () => boolean,
    private readonly validation: Validation,
    private readonly events: Emitter<ClientEvents>,
    /** The id of the channel an address belongs to (the API's channel table), or undefined. */
    private readonly channelIdOf: (address: string) => string | undefined,
  ) {}

  /** Addresses with at least one handler. */
  get addresses(): string[] {
    return [...this.byAddress.keys()];
  }

  /** Call `handler` with every payload of `address`; resolves once the server confirmed the subscription. */
  async subscribe(address: string, handler: (payload: unknown) => void): Promise<Subscription> {
    const sub = this.byAddress.get(address) ?? this.create(address);
    const listener: Listener = { fn: handler };
    sub.listeners.add(listener);
    try {
      await sub.confirmed;
    } catch (err) {
      this.removeListener(sub, listener);
      throw err;
    }
    let active = true;
    return {
      address,
      unsubscribe: async () => {
        if (!active) return;
        active = false;
        if (this.removeListener(sub, listener)) await this.unsubscribeWire(address);
      },
    };
  }

  private create(address: string): ChannelSubscription {
    // Matched once per subscription: a live subscription keeps its channelId.
    const channelId = this.channelIdOf(address);
    if (channelId === undefined) throw new UsageError(`${address} matches no channel of the API`);
    const sub: ChannelSubscription = {
      address,
      channelId,
      listeners: new Set(),
      validate: this.validation.channelValidator(channelId),
      confirmed: Promise.resolve(),
    };
    this.byAddress.set(address, sub);
    this.unsubscribed.delete(address);
    sub.confirmed = this.enqueue(address);
    return sub;
  }

  /** Remove one listener; true when it was the last one of a still-current subscription (now gone). */
  private removeListener(sub: ChannelSubscription, listener: Listener): boolean {
    sub.listeners.delete(listener);
    if (sub.listeners.size > 0 || this.byAddress.get(sub.address) !== sub) return false;
    this.byAddress.delete(sub.address);
    return true;
  }

  private async unsubscribeWire(address: string): Promise<void> {
    this.unsubscribed.add(address);
    if (!this.isOpen()) return;
    await this.wire('unsubscribe', { channels: [address] }, false).catch((err: unknown) => {
      if (!(err instanceof ConnectionClosedError)) this.events.emit('error', asClientError(err));
    });
  }

  /** Subscriptions asked for in the same tick go out as one request. */
  private enqueue(address: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!this.batch) {
        const batch: SubscribeBatch = { addresses: [], waiters: new Map() };
        this.batch = batch;
        queueMicrotask(() => void this.flush(batch));
      }
      this.batch.addresses.push(address);
      this.batch.waiters.set(address, { resolve, reject });
    });
  }

  private async flush(batch: SubscribeBatch): Promise<void> {
    if (this.batch === batch) this.batch = null;
    try {
      const res = (await this.wire('subscribe', { channels: batch.addresses }, false)) as SubscriptionResult;
      for (const [address, waiter] of batch.waiters) {
        if (confirmed(res, address)) waiter.resolve();
        else waiter.reject(refusal('subscribe', res, address));
      }
    } catch (err) {
      for (const waiter of batch.waiters.values()) waiter.reject(err);
    }
  }

  /** The connection is gone: a batch not yet sent fails with `err`. */
  failBatch(err: unknown): void {
    const batch = this.batch;
    this.batch = null;
    if (batch) for (const waiter of batch.waiters.values()) waiter.reject(err);
  }

  /** A new socket: late notifications of what was unsubscribed on the old one no longer come. */
  connectionOpened(): void {
    this.unsubscribed.clear();
  }

  /** Validators have loaded: give each subscription made before its validator. */
  attachValidators(): void {
    for (const sub of this.byAddress.values()) sub.validate ??= this.validation.channelValidator(sub.channelId);
  }

  /** A notification: validated, then handed to every handler of its address (a handler that throws is reported). */
  deliver(address: unknown, payload: unknown, frame: string): void {
    const sub = typeof address === 'string' ? this.byAddress.get(address) : undefined;
    if (!sub) {
      if (typeof address !== 'string' || !this.unsubscribed.has(address))
        this.events.emit(
          'error',
          new ProtocolError(
            'unknown-channel',
            `notification for a channel not subscribed: ${String(address)}`,
            frame.slice(0, 200),
          ),
        );
      return;
    }
    if (sub.validate !== null && !this.validation.admitPayload(sub.validate, sub.address, sub.channelId, payload))
      return;
    for (const listener of sub.listeners) {
      try {
        listener.fn(payload);
      } catch (err) {
        this.events.emit(
          'error',
          new ClientError(
            'HANDLER_FAILED',
            `handler of ${sub.address} threw: ${(err as Error)?.message ?? String(err)}`,
            undefined,
            { cause: err },
          ),
        );
      }
    }
  }

  /**
   * Resubscribe everything on a new connection: one batch, then one by one for what it refused (a
   * batch may be refused as a whole for one bad address). A drop, or the connection being replaced
   * (`isCurrent` false), throws; a refusal is reported.
   */
  async restore(isCurrent: () => boolean): Promise<void> {
    const addresses = this.addresses;
    if (addresses.length === 0) return;
    let refused = addresses;
    try {
      const res = await this.wire('subscribe', { channels: addresses }, true);
      refused = addresses.filter((a) => !confirmed(res as SubscriptionResult, a));
    } catch (err) {
      if (isDrop(err) || !isCurrent()) throw err;
    }
    for (const address of refused) {
      if (!this.byAddress.has(address)) continue;
      try {
        const res = (await this.wire('subscribe', { channels: [address] }, true)) as SubscriptionResult;
        if (!confirmed(res, address)) throw refusal('resubscribe', res, address);
      } catch (err) {
        if (isDrop(err) || !isCurrent()) throw err;
        this.events.emit('error', asClientError(err));
      }
    }
  }
}

/** Whether the server's answer confirms `address`: `status[address] === 'ok'` and listed in current_subscriptions. */
function confirmed(res: SubscriptionResult | null | undefined, address: string): boolean {
  if (!res || typeof res !== 'object') return false;
  const ok = res.status?.[address] === 'ok';
  const current = Array.isArray(res.current_subscriptions) ? res.current_subscriptions.includes(address) : ok;
  return ok && current;
}

function refusal(what: string, res: SubscriptionResult | null | undefined, address: string): ClientError {
  return new ClientError(
    'SUBSCRIBE_REFUSED',
    `${what} ${address}: ${res?.status?.[address] ?? 'not in current_subscriptions'}`,
  );
}

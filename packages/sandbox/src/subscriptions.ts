/**
 * The subscription index: which connections hold which address, and which addresses of each channel
 * are held at all (the market produces only for those). Pushes are serialized once per address and
 * the same buffer goes to every subscriber.
 */
import { channelTable } from '@exchange-api/types';
import type { Connection } from './connection';
import type { Publisher } from './market';
import { passes, type AddressFilter } from './market/types';
import { notificationFrame } from './rpc';

/** Subscriptions a single connection may hold; beyond it, subscribe reports the channel as refused. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1000;

/** Who holds which address. */
export class SubscriptionIndex {
  private readonly subscribers = new Map<string, Set<Connection>>();
  private readonly byChannel = new Map<string, Map<string, Record<string, string>>>(
    channelTable.map((c) => [c.id, new Map()]),
  );
  private readonly channelOf = new Map<string, string>();
  /**
   * Told when an address gets its first subscriber here and when it loses its last (a fleet member
   * tells the others, so that an instrument's owner produces for subscribers anywhere).
   */
  watcher: {
    held(address: string, channelId: string, params: Record<string, string>): void;
    dropped(address: string): void;
  } | null = null;

  /** Where the market sends what it produces. */
  readonly publisher: Publisher = {
    addresses: (channelId) => this.byChannel.get(channelId) ?? new Map(),
    publish: (address, data) => void this.push(address, data),
    publishTo: (channelId, data, to) => this.pushTo(channelId, data, to),
  };

  /** Push to every address of a channel held here whose parameters pass the filter. */
  pushTo(channelId: string, data: unknown, to: AddressFilter): void {
    for (const [address, params] of this.byChannel.get(channelId) ?? [])
      if (passes(params, to)) this.push(address, data);
  }

  /** Subscribe a connection to an address of a channel (its parameters as matched). */
  add(conn: Connection, address: string, channelId: string, params: Record<string, string>): void {
    conn.subscriptions.add(address);
    let set = this.subscribers.get(address);
    if (!set) {
      set = new Set();
      this.subscribers.set(address, set);
      this.byChannel.get(channelId)?.set(address, params);
      this.channelOf.set(address, channelId);
      this.watcher?.held(address, channelId, params);
    }
    set.add(conn);
  }

  /** Unsubscribe a connection from an address; returns whether it held it. */
  remove(conn: Connection, address: string): boolean {
    const held = conn.subscriptions.delete(address);
    const set = this.subscribers.get(address);
    if (!set) return held;
    set.delete(conn);
    if (set.size === 0) {
      this.subscribers.delete(address);
      const channelId = this.channelOf.get(address);
      if (channelId !== undefined) this.byChannel.get(channelId)?.delete(address);
      this.channelOf.delete(address);
      this.watcher?.dropped(address);
    }
    return held;
  }

  /** Unsubscribe a connection from everything (it closed). */
  removeAll(conn: Connection): void {
    for (const address of [...conn.subscriptions]) this.remove(conn, address);
  }

  /** Send a pushed frame to every subscriber of the exact address; returns how many got it. */
  push(address: string, data: unknown): number {
    const set = this.subscribers.get(address);
    if (!set || set.size === 0) return 0;
    const frame = Buffer.from(notificationFrame(address, data));
    for (const c of set) c.send(frame);
    return set.size;
  }

  /** How many addresses are held by at least one connection. */
  get addressCount(): number {
    return this.subscribers.size;
  }

  /** Forget every subscription (the sandbox is closing). */
  clear(): void {
    this.subscribers.clear();
    this.channelOf.clear();
    for (const m of this.byChannel.values()) m.clear();
  }
}

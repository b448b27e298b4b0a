/**
 * Pushes over a fleet. What any member produces is published once on Redis and every member delivers
 * it to its own subscribers, so a subscriber on one member gets what another produced (an order placed
 * through one member and matched by the instrument's owner is pushed to its subscribers on all).
 *
 * Periodic channels are produced by one member only: the owner of the instrument the address names
 * (an address naming a currency: the owner of that currency's first instrument; any other: the owner
 * of the first instrument), for the addresses held on any member: each member keeps the addresses its
 * connections hold in Redis and says when they change, and reads the others'.
 */
import { publish, type RedisClient as Redis } from './connect';
import type { Publisher } from '../market';
import type { AddressFilter } from '../market/types';
import type { SubscriptionIndex } from '../subscriptions';
import type { ResolvedOptions } from '../options';
import { channels, keys } from './keys';
import type { FaultSink } from './slots';

type Held = Map<string, { c: string; p: Record<string, string> }>;

/** A push as it travels between members: to one address, or to a channel's addresses that pass a filter. */
type PushMessage = { a: string; d: unknown } | { c: string; t: AddressFilter; d: unknown };

/** The fleet's side of pushing: the market's publisher, and delivery of what the others publish. */
export class FleetPushes {
  /** The addresses held on each member (ours included), by member id. */
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly redis: Redis,
    private readonly member: string,
    private readonly index: SubscriptionIndex,
    private readonly homeOf: (params: Record<string, string>) => string,
    private readonly owns: (instrument: string) => boolean,
    /** Told of every order pushed (the leases keep resting orders for the next owner). */
    private readonly onOrders: (address: string, data: unknown) => void,
    private readonly fault: FaultSink,
  ) {
    this.held.set(member, new Map());
    index.watcher = {
      held: (address, c, p) => {
        this.held.get(member)!.set(address, { c, p });
        this.write(this.redis.hset(keys.subscriptions(member), address, JSON.stringify({ c, p })));
      },
      dropped: (address) => {
        this.held.get(member)!.delete(address);
        this.write(this.redis.hdel(keys.subscriptions(member), address));
      },
    };
  }

  /** A change of our held addresses, then the word to the others; a failure is reported (rewrite() heals it). */
  private write(step: Promise<unknown>): void {
    step
      .then(() => publish(this.redis, channels.subscriptions, this.member))
      .catch((err) => this.fault('telling the fleet of a subscription', err));
  }

  /** What the market publishes to: produced here for every member's subscribers, sent through Redis. */
  readonly publisher: Publisher = {
    addresses: (channelId) => {
      const out = new Map<string, Record<string, string>>();
      for (const held of this.held.values())
        for (const [address, { c, p }] of held) if (c === channelId && this.owns(this.homeOf(p))) out.set(address, p);
      return out;
    },
    publish: (address, data) => {
      this.onOrders(address, data);
      const message: PushMessage = { a: address, d: data };
      publish(this.redis, channels.push, JSON.stringify(message)).catch((err) =>
        this.fault(`pushing ${address} to the fleet`, err),
      );
    },
    publishTo: (channelId, data, to) => {
      const message: PushMessage = { c: channelId, t: to, d: data };
      publish(this.redis, channels.push, JSON.stringify(message)).catch((err) =>
        this.fault(`pushing ${channelId} to the fleet`, err),
      );
    },
  };

  /** A message of the push channel: deliver it here. */
  deliver(text: string): void {
    const m = JSON.parse(text) as PushMessage;
    if ('a' in m) this.index.push(m.a, m.d);
    else this.index.pushTo(m.c, m.d, m.t);
  }

  /** Read a member's held addresses again (it said they changed, or it joined). */
  async reload(member: string): Promise<void> {
    if (member === this.member) return;
    const all = await this.redis.hgetall(keys.subscriptions(member));
    const held: Held = new Map();
    for (const [address, v] of Object.entries(all)) held.set(address, JSON.parse(v));
    this.held.set(member, held);
  }

  /** Keep only the live members' addresses; read those of members not seen before. */
  async sync(live: readonly string[]): Promise<void> {
    for (const m of [...this.held.keys()]) if (!live.includes(m) && m !== this.member) this.held.delete(m);
    for (const m of live) if (!this.held.has(m)) await this.reload(m);
    await this.redis.pexpire(keys.subscriptions(this.member), 10 * 60_000);
  }

  /** Write our held addresses again (after Redis came back, it may have lost them). */
  async rewrite(): Promise<void> {
    const mine = this.held.get(this.member)!;
    const key = keys.subscriptions(this.member);
    const multi = this.redis.multi().del(key);
    for (const [address, v] of mine) multi.hset(key, address, JSON.stringify(v));
    await multi.exec();
    await publish(this.redis, channels.subscriptions, this.member);
  }

  /** Forget ours in Redis (this member is closing). */
  async leave(): Promise<void> {
    this.index.watcher = null;
    await this.redis.del(keys.subscriptions(this.member));
    await publish(this.redis, channels.subscriptions, this.member);
  }
}

/** The instrument whose owner produces an address's periodic pushes. */
export function homeResolver(options: ResolvedOptions): (params: Record<string, string>) => string {
  const names = new Set(options.instruments.map((i) => i.instrument_name));
  const first = options.instruments[0]!.instrument_name;
  const byCurrency = new Map<string, string>();
  for (const i of options.instruments)
    if (!byCurrency.has(i.base_currency)) byCurrency.set(i.base_currency, i.instrument_name);
  return (p) => {
    if (p.instrument_name !== undefined) return names.has(p.instrument_name) ? p.instrument_name : first;
    if (p.currency !== undefined) return byCurrency.get(p.currency) ?? first;
    return first;
  };
}

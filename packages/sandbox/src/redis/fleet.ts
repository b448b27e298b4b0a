/**
 * A fleet member: a sandbox started with `redis`, acting with every other sandbox started with the same
 * URL as one exchange. Loaded (with the Redis client) only when `redis` is set.
 *
 * Shared in Redis, atomically: per-IP connection slots (shared-admission.ts), both rate-limit tiers
 * (shared-limits.ts), used nonces (shared-nonces.ts), the configuration with its accounts and session
 * keys (members.ts), the wallets that logged in, instrument ownership and resting orders (leases.ts).
 * Over pub/sub: pushes (pushes.ts) and order flow to each instrument's owner (calls.ts).
 */
import type { Redis } from 'ioredis';
import type { ResolvedOptions } from '../options';
import type { Clock } from '../clock';
import type { Accounts } from '../accounts';
import type { Faults } from '../faults';
import type { SubscriptionIndex } from '../subscriptions';
import type { Handler } from '../pipeline';
import type { Resting } from '../market/instrument';
import { openRedis, redacted } from './connect';
import { agreeOnConfig, Members } from './members';
import { CYCLE_MS, Leases, type BookKeeper } from './leases';
import { SharedAdmission } from './shared-admission';
import { SharedLimits } from './shared-limits';
import { SharedNonces } from './shared-nonces';
import { FleetPushes, homeResolver } from './pushes';
import { FleetCalls } from './calls';
import { channels, keys } from './keys';

export { RedisUnreachableError } from './connect';
export { FleetConfigError } from './members';

/** What the member needs of its sandbox once assembled. */
export interface MemberParts {
  index: SubscriptionIndex;
  accounts: Accounts;
  handlers: Readonly<Record<string, Handler>>;
  books: BookKeeper & { restingOf(orderId: string): Resting | undefined };
  faults: Faults;
}

/** One member of a fleet. */
export class Fleet {
  readonly limits: SharedLimits;
  readonly admission: SharedAdmission;
  readonly nonces: SharedNonces;
  readonly leases: Leases;
  private pushes: FleetPushes | null = null;
  private calls: FleetCalls | null = null;
  private timer: NodeJS.Timeout | undefined;
  private cycling: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: ResolvedOptions,
    private readonly cmd: Redis,
    private readonly sub: Redis,
    private readonly members: Members,
    clock: Clock,
  ) {
    this.limits = new SharedLimits(cmd);
    this.admission = new SharedAdmission(cmd, members.id, options.maxConnections);
    this.nonces = new SharedNonces(cmd, clock);
    this.leases = new Leases(
      cmd,
      members.id,
      options.instruments.map((i) => i.instrument_name),
    );
  }

  /** Join the fleet on `options.redis`; throws RedisUnreachableError or FleetConfigError (the command exits 2). */
  static async join(options: ResolvedOptions, clock: Clock): Promise<Fleet> {
    const url = options.redis!;
    const cmd = await openRedis(url, 'exchange-api-sandbox');
    let sub: Redis | null = null;
    try {
      sub = await openRedis(url, 'exchange-api-sandbox-pushes');
      await agreeOnConfig(cmd, redacted(url), options);
      return new Fleet(options, cmd, sub, await Members.join(cmd), clock);
    } catch (err) {
      cmd.disconnect();
      sub?.disconnect();
      throw err;
    }
  }

  /** This member's id. */
  get id(): string {
    return this.members.id;
  }

  /** The publisher the market sends to (through Redis to every member's subscribers). */
  publisherFor(index: SubscriptionIndex, restingOf: (orderId: string) => Resting | undefined) {
    this.pushes = new FleetPushes(
      this.cmd,
      this.members.id,
      index,
      homeResolver(this.options),
      (i) => this.leases.owns(i),
      (address, data) => this.keepOrders(address, data, restingOf),
    );
    return this.pushes.publisher;
  }

  /** Resting orders of the books we own go to Redis as they change, for the next owner. */
  private keepOrders(address: string, data: unknown, restingOf: (orderId: string) => Resting | undefined): void {
    if (!/^[0-9]+\.orders$/.test(address) || !Array.isArray(data)) return;
    for (const o of data as Array<{ order_id: string; instrument_name: string }>)
      if (this.leases.owns(o.instrument_name)) this.leases.record(o.instrument_name, o.order_id, restingOf(o.order_id));
  }

  /** Route calls to owners: the pipeline's last step. */
  router(parts: MemberParts) {
    const names = new Set(this.options.instruments.map((i) => i.instrument_name));
    this.calls = new FleetCalls(this.cmd, {
      member: this.members.id,
      handlers: parts.handlers,
      isInstrument: (n) => names.has(n),
      owns: (n) => this.leases.owns(n),
      ownerOf: (n) => this.leases.ownerOf(n),
      lookUpOwner: (n) => this.cmd.get(keys.lease(n)),
      knowWallet: (w) => void parts.accounts.subaccountsOf(w),
    });
    return this.calls;
  }

  /** Start serving: listen on the fleet's channels, take our share of the books, keep the leases. */
  async start(parts: MemberParts): Promise<void> {
    const me = this.members.id;
    this.cmd.on('error', (err) => parts.faults.report('server', 'the Redis connection', err));
    this.sub.on('error', (err) => parts.faults.report('server', 'the Redis push connection', err));
    this.sub.on('message', (channel: string, text: string) => {
      if (channel === channels.push) this.pushes?.deliver(text);
      else if (channel === channels.subscriptions) void this.pushes?.reload(text).catch(() => {});
      else if (channel === channels.replies(me)) this.calls?.reply(text);
      else void this.calls?.serve(text).catch((err) => parts.faults.report('server', 'a fleet call', err));
    });
    await this.sub.subscribe(
      channels.push,
      channels.subscriptions,
      channels.calls(me),
      channels.everyone,
      channels.replies(me),
    );
    // Redis came back (it may have restarted empty): say again what we hold.
    this.cmd.on('ready', () => {
      this.pushes?.rewrite().catch(() => {});
      this.leases.rewriteBooks(parts.books).catch(() => {});
      this.admission.resync().catch(() => {});
    });
    await this.knowAccounts(parts.accounts);
    await this.cycle(parts.books);
    this.timer = setInterval(() => {
      this.cycling = this.cycling
        .then(() => this.cycle(parts.books))
        .catch((err) => parts.faults.report('ticks', 'the fleet cycle (leases, members)', err));
    }, CYCLE_MS);
  }

  private async cycle(books: BookKeeper): Promise<void> {
    const live = await this.members.refresh();
    await this.pushes?.sync(live);
    await this.leases.cycle(live.length, books);
  }

  /** Wallets that logged in on any member get their accounts here too; ours are recorded as they log in. */
  private async knowAccounts(accounts: Accounts): Promise<void> {
    for (const wallet of Object.keys(await this.cmd.hgetall(keys.accounts))) accounts.subaccountsOf(wallet);
    accounts.registered = (wallet, subaccounts) =>
      void this.cmd.hsetnx(keys.accounts, wallet, JSON.stringify(subaccounts)).catch(() => {});
  }

  /** Leave the fleet: give the books back (the others take them at their next cycle) and close. */
  async leave(books: BookKeeper | null): Promise<void> {
    clearInterval(this.timer);
    await this.cycling.catch(() => {});
    this.calls?.clear();
    try {
      if (books) await this.leases.releaseAll(books);
      await this.pushes?.leave();
      await this.admission.clear();
      await this.members.leave();
      await Promise.all([this.cmd.quit(), this.sub.quit()]);
    } catch {
      // Redis is away: what we held expires by itself.
      this.cmd.disconnect();
      this.sub.disconnect();
    }
  }
}

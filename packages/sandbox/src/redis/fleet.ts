/**
 * A fleet member: a sandbox started with `redis` (or `redisCluster`), acting with every other sandbox
 * started with the same Redis as one exchange: the Redis adapters of the state ports (../state/ports.ts),
 * assembled. Loaded (with the Redis client) only when one of them is set.
 *
 * Shared in Redis, atomically: per-IP connection slots (slots.ts), fixed windows (windows.ts) and
 * token buckets (buckets.ts), used nonces (nonces.ts), the configuration with its accounts and session
 * keys (members.ts), the wallets that logged in, instrument ownership and the books' resting, trigger
 * and TWAP orders (leases.ts), the records every member holds alike: keys registered through the API,
 * whitelists, MMP, cancel on disconnect (shared.ts). Over pub/sub, the bus between members: pushes
 * (pushes.ts), order flow to each instrument's owner (calls.ts) and shared records' changes. Every failure
 * of a write nobody waits for goes to the fault counters and the log.
 *
 * Redis may lose it all (FLUSHALL, a restart without persistence): a generation marker tells (recovery.ts).
 * The member that sees the loss says so on the bus; each member then re-publishes what it holds (the
 * configuration, its id, the accounts it knows, the shared records at their versions, its connection
 * slots and subscriptions, its leases and their books' orders) and refuses signed requests and new
 * connections until every member alive before the loss has (or ALIVE_MS passed: a member that does not
 * re-publish by then is dead).
 */
import type { ResolvedOptions } from '../options';
import type { Clock } from '../clock';
import type { Accounts } from '../accounts';
import type { Faults } from '../faults';
import type { SubscriptionIndex } from '../subscriptions';
import type { Resting } from '../market/instrument';
import { ActionVerifier } from '../actions';
import type { BookKeeper } from '../state/ports';
import type { Forward, MemberParts, SandboxState } from '../state/sandbox-state';
import {
  guarded,
  openTarget,
  publish,
  redacted,
  redactedSeeds,
  subscribe,
  type RedisClient,
  type RedisTarget,
} from './connect';
import { agreeOnConfig, ALIVE_MS, Members, publishConfig } from './members';
import { Generation } from './recovery';
import { CYCLE_MS, Leases } from './leases';
import { RedisSlots, type FaultSink } from './slots';
import { RedisWindows } from './windows';
import { RedisBuckets } from './buckets';
import { RedisNonces } from './nonces';
import { FleetPushes, homeResolver } from './pushes';
import { FleetCalls } from './calls';
import { RfqKeep } from './rfq-keep';
import { rfqHome } from './rfq-route';
import { routedNonces } from './routed';
import { RedisShared } from './shared';
import { channels, keys } from './keys';

export { RedisUnreachableError } from './connect';

/** The fields of a pushed order that say it waits off the book (a trigger or TWAP order). */
type Waits = { trigger_type?: string | null; algo_type?: string | null };
export { FleetConfigError } from './members';

/** One member of a fleet. */
export class Fleet implements SandboxState {
  readonly windows: RedisWindows;
  readonly buckets: RedisBuckets;
  readonly slots: RedisSlots;
  readonly nonces: RedisNonces;
  readonly ownership: Leases;
  readonly shared: RedisShared;
  private pushes: FleetPushes | null = null;
  private calls: FleetCalls | null = null;
  /** The RFQ desk's open records, kept for the next member serving it (rfq-keep.ts). */
  private rfqKeep: RfqKeep | null = null;
  private timer: NodeJS.Timeout | undefined;
  private cycling: Promise<void> = Promise.resolve();
  /** Redis came back since the last cycle: our books are written again. */
  private healing = false;
  /** Leaving: messages of the bus are no longer ours to act on. */
  private leaving = false;
  private readonly fault: FaultSink;
  readonly generation: Generation;
  /** Restoring a lost state: the members whose re-publishing we wait for, since when, and whether ours is done. */
  private restore: { waitFor: string[]; since: number; published: boolean } | null = null;
  /** The books, once serving (a cycle needs them). */
  private books: BookKeeper | null = null;
  /** The wallets with accounts this member knows (to re-publish after a loss). */
  private readonly wallets = new Map<string, number[]>();

  private constructor(
    private readonly options: ResolvedOptions,
    private readonly cmd: RedisClient,
    private readonly sub: RedisClient,
    private readonly members: Members,
    private readonly clock: Clock,
    private readonly faults: Faults,
  ) {
    this.fault = (where, err) => faults.report('server', `the fleet: ${where}`, err);
    this.generation = new Generation(cmd, options.login.futureMs, this.fault);
    this.windows = new RedisWindows(cmd, options.windows.values(), this.fault);
    this.buckets = new RedisBuckets(cmd, this.fault);
    this.slots = new RedisSlots(cmd, members.id, options.maxConnections, this.generation, this.fault);
    this.nonces = new RedisNonces(cmd, clock, this.generation, this.fault);
    this.shared = new RedisShared(cmd, members.id, this.generation, this.fault);
    this.ownership = new Leases(
      cmd,
      members.id,
      options.instruments.map((i) => i.instrument_name),
      this.fault,
    );
    cmd.on('error', (err) => faults.report('server', 'the Redis connection', err));
    sub.on('error', (err) => faults.report('server', 'the Redis push connection', err));
  }

  /**
   * Join the fleet on `options.redis` or `options.redisCluster`; throws RedisUnreachableError or
   * FleetConfigError (the command exits 2).
   */
  static async join(options: ResolvedOptions, clock: Clock, faults: Faults): Promise<Fleet> {
    const target: RedisTarget = options.redisCluster
      ? { flag: '--redis-cluster', value: options.redisCluster }
      : { flag: '--redis', value: options.redis! };
    const cmd = await openTarget(target, 'exchange-api-sandbox');
    let sub: RedisClient | null = null;
    try {
      sub = await openTarget(target, 'exchange-api-sandbox-pushes', true);
      const shown = target.flag === '--redis' ? redacted(target.value) : redactedSeeds(target.value);
      await agreeOnConfig(cmd, `${target.flag} ${shown}`, options);
      const fleet = new Fleet(options, cmd, sub, await Members.join(cmd), clock, faults);
      await fleet.generation.join();
      return fleet;
    } catch (err) {
      cmd.disconnect();
      sub?.disconnect();
      throw err;
    }
  }

  /** This member's id and the instruments whose books it owns now (they move as members join or die). */
  get member() {
    return { id: this.members.id, owned: () => this.ownership.owned() };
  }

  /** The publisher the market sends to (through Redis to every member's subscribers). */
  publisher(index: SubscriptionIndex, restingOf: (orderId: string) => Resting | undefined) {
    this.pushes = new FleetPushes(
      this.cmd,
      this.members.id,
      index,
      homeResolver(this.options),
      (i) => this.ownership.owns(i),
      (address, data) => this.keepOrders(address, data, restingOf),
      this.fault,
    );
    return this.pushes.publisher;
  }

  /** Resting orders of the books we own go to Redis as they change, for the next owner. */
  private keepOrders(address: string, data: unknown, restingOf: (orderId: string) => Resting | undefined): void {
    if (!/^[0-9]+\.orders$/.test(address) || !Array.isArray(data)) return;
    for (const o of data as Array<{ order_id: string; instrument_name: string; order_status?: string } & Waits>)
      if (this.ownership.owns(o.instrument_name)) {
        this.ownership.record(o.instrument_name, o.order_id, restingOf(o.order_id));
        // A trigger or TWAP order: kept while it waits, forgotten once it is on the book or closed.
        if (o.trigger_type || o.algo_type)
          this.ownership.recordWaiting(o.instrument_name, o.order_id, this.books?.waitingOf(o.order_id));
      }
  }

  /** Route calls to owners: the pipeline's last step. */
  router(parts: MemberParts): Forward {
    const names = new Set(this.options.instruments.map((i) => i.instrument_name));
    const books = parts.books;
    this.calls = new FleetCalls(this.cmd, {
      member: this.members.id,
      handlers: parts.handlers,
      accounts: parts.accounts,
      actions: new ActionVerifier(
        this.clock,
        parts.accounts,
        routedNonces(this.nonces),
        this.options.actionDeployments,
        (n) => books.assetOf(n),
      ),
      isInstrument: (n) => names.has(n),
      owns: (n) => this.ownership.owns(n),
      ownerOf: (n) => this.ownership.ownerOf(n),
      lookUpOwner: (n) =>
        guarded(
          () => this.cmd.get(keys.lease(n)),
          (err) => this.fault(`looking up the owner of ${n}`, err),
        ),
      knowWallet: (w) => void parts.accounts.subaccountsOf(w),
      fault: this.fault,
      rfqHome: rfqHome(this.options),
    });
    const calls = this.calls;
    return (ctx, method, params) => calls.route(ctx, method, params);
  }

  /** Start serving: listen on the fleet's channels, take our share of the books, keep the leases. */
  async start(parts: MemberParts): Promise<void> {
    const me = this.members.id;
    await subscribe(
      this.sub,
      [
        channels.push,
        channels.subscriptions,
        channels.calls(me),
        channels.everyone,
        channels.replies(me),
        channels.lost,
        channels.shared,
        channels.sharedAcks(me),
      ],
      (channel, text) => this.onMessage(me, channel, text),
    );
    this.books = parts.books;
    const rfqDesk = parts.books.rfq;
    this.rfqKeep = new RfqKeep(
      this.cmd,
      me,
      rfqHome(this.options),
      (i) => this.ownership.epoch(i),
      rfqDesk,
      this.fault,
    );
    this.generation.onLost = () => this.kick();
    // Redis came back (it may have restarted empty): say again what we hold; our books once the next
    // cycle holds their leases again (a book write is fenced by its lease). The cycle, at once, also
    // tells whether it came back empty (then everything is re-published).
    this.cmd.on('ready', () => {
      this.healing = true;
      this.slots.sync().catch((err) => this.fault('holding our connection slots again', err));
      this.pushes?.rewrite().catch((err) => this.fault('writing our subscriptions again', err));
      this.kick();
    });
    await this.knowAccounts(parts.accounts);
    await this.cycle(parts.books);
    this.timer = setInterval(() => this.kick(), CYCLE_MS);
  }

  /** Run a cycle after the one running (every CYCLE_MS, and at once when a loss may have come). */
  private kick(): void {
    const books = this.books;
    if (this.leaving || !books) return;
    this.cycling = this.cycling
      .then(() => this.cycle(books))
      .catch((err) => this.faults.report('ticks', 'the fleet cycle (leases, members, slots)', err));
  }

  /** A message of the bus; nothing in it is trusted (a bad one is reported, never thrown). */
  private onMessage(me: string, channel: string, text: string): void {
    if (this.leaving) return;
    try {
      if (channel === channels.push) this.pushes?.deliver(text);
      else if (channel === channels.subscriptions)
        void this.pushes?.reload(text).catch((err) => this.fault(`reading the subscriptions of ${text}`, err));
      else if (channel === channels.replies(me)) this.calls?.reply(text);
      else if (channel === channels.lost) this.kick();
      else if (channel === channels.sharedAcks(me)) this.shared.acknowledged(text);
      else if (channel === channels.shared)
        void this.shared.receive(text).catch((err) => this.fault('applying a shared record', err));
      else void this.calls?.serve(text).catch((err) => this.fault('serving a call', err));
    } catch (err) {
      this.fault(`a message on ${channel}`, err);
    }
  }

  private async cycle(books: BookKeeper): Promise<void> {
    // A shared write may have seen the loss (and refused) between a cycle's look and its republishing; a
    // republishing that failed half-way (Redis went again) is done again.
    const unfinished = this.generation.restoring && !this.restore?.published;
    if ((await this.generation.changed()) || unfinished) await this.republish();
    const live = await this.members.refresh();
    await this.shared.reload();
    await this.pushes?.sync(live);
    // The cycle may give the RFQ desk's home back (balancing): its last write goes first.
    await this.rfqKeep?.flush();
    await this.ownership.cycle(live.length, books, this.restore === null);
    await this.rfqKeep?.follow();
    await this.slots.sync();
    if (this.healing) {
      await this.ownership.rewriteBooks(books);
      await this.rfqKeep?.rewrite();
      this.healing = false;
    }
    if (this.restore?.published) await this.settle();
  }

  /**
   * Redis lost the shared state: say so to every member, then write again what this member holds (its
   * leases and their books follow in this cycle). Signed requests and new connections wait (settle).
   */
  private async republish(): Promise<void> {
    const me = this.members.id;
    // A loss seen again before the last was restored waits for the same members, from the same moment.
    this.restore = { waitFor: this.members.recent, since: Date.now(), ...this.restore, published: false };
    this.fault(
      'the shared state',
      new Error(
        "Redis lost the fleet's shared state (flushed, or restarted empty): re-publishing what this member " +
          'holds; signed requests and new connections are refused until the fleet has',
      ),
    );
    await this.generation.lost();
    await publish(this.cmd, channels.lost, me);
    const differs = await publishConfig(this.cmd, this.options);
    if (differs.length > 0)
      this.fault(
        'the shared configuration',
        new Error(
          `a member started after the loss set another configuration (${differs.join(', ')} differ): ` +
            "stop it and start it with the fleet's --config and --seed",
        ),
      );
    await this.members.republish();
    const accounts = this.cmd.multi();
    for (const [wallet, subs] of this.wallets) accounts.hsetnx(keys.accounts, wallet, JSON.stringify(subs));
    await accounts.exec();
    await this.shared.republish();
    await this.pushes?.rewrite();
    this.healing = true;
    this.restore.published = true;
  }

  /** Ours is back: say so, and serve everything once every member we wait for has said so too. */
  private async settle(): Promise<void> {
    const restore = this.restore!;
    await this.cmd.hset(keys.generation, `restored:${this.members.id}`, '1');
    const marks = restore.waitFor.length
      ? await this.cmd.hmget(keys.generation, ...restore.waitFor.map((m) => `restored:${m}`))
      : [];
    if (marks.every((m) => m !== null) || Date.now() - restore.since > ALIVE_MS) {
      this.restore = null;
      this.generation.restoring = false;
    }
  }

  /** Wallets that logged in on any member get their accounts here too; ours are recorded as they log in. */
  private async knowAccounts(accounts: Accounts): Promise<void> {
    for (const wallet of Object.keys(await this.cmd.hgetall(keys.accounts)))
      this.wallets.set(wallet, accounts.subaccountsOf(wallet));
    accounts.registered = (wallet, subaccounts) => {
      this.wallets.set(wallet, subaccounts);
      void this.cmd
        .hsetnx(keys.accounts, wallet, JSON.stringify(subaccounts))
        .catch((err) => this.fault(`recording the accounts of ${wallet}`, err));
    };
  }

  /** Leave the fleet: give the books back (the others take them at their next cycle) and close. */
  async leave(books: BookKeeper | null): Promise<void> {
    this.leaving = true;
    this.shared.close();
    clearInterval(this.timer);
    // Never rejects: a cycle's failure is reported where it runs.
    await this.cycling;
    this.calls?.clear();
    try {
      await this.rfqKeep?.flush();
      if (books) await this.ownership.releaseAll(books);
      await this.pushes?.leave();
      await this.slots.clear();
      await this.members.leave();
      await Promise.all([this.cmd.quit(), this.sub.quit()]);
    } catch (err) {
      // Redis is away: what we held expires by itself.
      this.fault('leaving (what this member held expires by itself)', err);
      this.cmd.disconnect();
      this.sub.disconnect();
    }
  }
}

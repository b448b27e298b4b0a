/**
 * The simulated market: seeded and deterministic (the same seed gives the same prices, books and
 * synthetic trades tick for tick, whatever is subscribed: every consumer draws from its own stream),
 * with a synthetic market maker around a random-walk mid price, the users' resting orders on top,
 * simulated counterparties with real keys, and the matching engine behind the order-flow methods.
 * This class only wires the parts together and is the surface the server sees.
 */
import { matchChannel, type CancelReason, type Order } from '@exchange-api/types';
import type { ResolvedOptions } from '../options';
import type { Accounts, Session } from '../accounts';
import type { Clock } from '../clock';
import type { ChannelId } from '../channels';
import { priceText, type Instrument, type Resting } from './instrument';
import { Instruments } from './instruments';
import { Streams } from './random';
import { Counterparties } from './counterparties';
import { OpenOrders, insertResting } from './book';
import { Ledger } from './ledger';
import { Margin } from './margin';
import { Settlement } from './settlement';
import { Simulation, requote } from './simulation';
import { Rfqs } from './rfqs';
import { RfqDesk } from './rfq-desk';
import { Samples } from './samples';
import { History } from './history';
import { MoneyHistory } from './money-history';
import { MarketData } from './market-data';
import { Vaults } from './vaults';
import { SignedFeeds } from './signed-feeds';
import { Funding } from './funding';
import { Catalog } from './catalog';
import { Portfolios } from './portfolios';
import { OrderFlow, type OrderParams } from './orders';
import { hasTrigger, refuseTriggeredAlgo } from './order-rules';
import { AlgoBook, hasAlgo } from './algos';
import { TriggerBook } from './triggers';
import { Funds } from './funds';
import { Risk } from './risk';
import { RpcFailure } from '../rpc';
import { Mmp } from './mmp';
import { intervalValues, makeProducers, publishCadence, type Producers } from './producers';
import type { OrderOutcome, PrivateTrade, Publisher } from './types';

/** The slow channels (auctions, margin, RFQs and quotes) are pushed every this many ticks. */
const SLOW_EVERY = 10;

/**
 * A fleet member's share of the market (the `redis` option): the instruments whose books it owns,
 * and how many times each one's ownership was taken (its id streams are per instrument and epoch).
 */
export interface Ownership {
  owns(instrument: string): boolean;
  epoch(instrument: string): number;
}

/** The market and the matching engine. */
export class Market {
  /** Instruments by name. */
  readonly instruments: ReadonlyMap<string, Instrument>;
  /** Base currencies of the instruments. */
  readonly currencies: ReadonlySet<string>;
  /** Every channel of channelTable with its producer (a test checks none is missing). */
  readonly producers: Producers;
  /** The listing and market-data reads (currencies, instruments, ticker, funding). */
  readonly catalog: Catalog;
  /** The account reads (portfolios, open orders). */
  readonly portfolios: Portfolios;
  /** Orders and trades as they happened. */
  readonly history: History;
  /** Trigger orders waiting for their price (triggers.ts). */
  readonly triggers: TriggerBook;
  /** Deposits, withdrawals and own transfers (funds.ts). */
  readonly funds: Funds;
  /** Auctions, interest, option expiry, pending deposits and get_margin (risk.ts). */
  readonly risk: Risk;
  /** Market maker protection (mmp.ts). */
  readonly mmp: Mmp;
  /** TWAP orders working in slices (algos.ts). */
  readonly algos: AlgoBook;
  /** Deposits, withdrawals, funding, interest and option settlements as they were booked. */
  readonly money = new MoneyHistory();
  /** Tickers, currencies, assets, risk universes, candles, settlement and interest rates. */
  readonly marketData: MarketData;
  /** The seeded vaults, their shares and requests. */
  readonly vaults: Vaults;
  /** The oracle's signed feeds. */
  readonly signedFeeds: SignedFeeds;
  /** RFQs, quotes, their execution and the simulated maker (rfq-desk.ts). */
  readonly rfq: RfqDesk;
  private readonly funding: Funding;
  private readonly registry: Instruments;
  private readonly simulation: Simulation;
  private readonly orders: OrderFlow;
  private readonly open: OpenOrders;
  private tickCount = 0;

  constructor(
    options: ResolvedOptions,
    private readonly clock: Clock,
    accounts: Accounts,
    private readonly out: Publisher,
    /** A fleet member's share; null alone (every instrument is this process's). */
    private readonly ownership: Ownership | null = null,
  ) {
    const streams = new Streams(options.seed);
    if (ownership) streams.scope = (name) => `${name} epoch ${ownership.epoch(name)}`;
    const registry = new Instruments(options, streams);
    const counterparties = new Counterparties(options.seed, accounts, registry);
    const open = (this.open = new OpenOrders());
    const ledger = new Ledger(accounts);
    const margin = new Margin(registry, ledger, open, options.margin);
    const history = (this.history = new History());
    const settlement = new Settlement(registry, ledger, counterparties, open, streams, out, history);
    this.simulation = new Simulation(counterparties, settlement, (inst) =>
      streams.ofInstrument('takers', inst.cfg.instrument_name),
    );
    this.orders = new OrderFlow(registry, open, margin, settlement, streams, clock, out);
    this.mmp = this.newMmp(registry, accounts);
    settlement.filled = (inst, r, direction, lots) => this.mmp.filled(inst, r, direction, lots);
    this.funds = new Funds(accounts, registry, margin, streams, clock, out);
    this.algos = new AlgoBook(registry, this.orders, streams, clock, (o) => settlement.publishOrder(o));
    this.triggers = new TriggerBook(registry, this.orders, streams, clock, (o) => settlement.publishOrder(o));
    const rfqs = new Rfqs(registry, accounts, counterparties, margin, streams);
    this.catalog = new Catalog(registry, clock);
    const owns = (name: string) => !ownership || ownership.owns(name);
    this.risk = new Risk({
      ...{ registry, ledger, margin, accounts, money: this.money, streams, clock, out, counterparties },
      ...{ funds: this.funds, catalog: this.catalog, owns },
      cancelAll: (sub) => this.orders.cancelWhere(sub, () => true, 'insufficient_margin'),
      cancelOn: (name) => this.cancelOn(name),
    });
    const rfqParts = { instruments: registry, accounts, counterparties, ledger, margin, settlement, history };
    this.rfq = new RfqDesk({ ...rfqParts, streams, clock, out, settings: options.rfq });
    this.producers = makeProducers({
      instruments: registry,
      ledger,
      margin,
      liquidation: this.risk.liquidation,
      rfqs,
      samples: new Samples(accounts, counterparties, settlement, streams),
    });
    this.portfolios = new Portfolios(registry, ledger, margin, open);
    this.portfolios.inAuction = (sub) => this.risk.liquidation.inAuction(sub);
    this.marketData = new MarketData(registry, this.catalog, history, clock, accounts, margin.model.borrowRatePerYear);
    this.vaults = new Vaults(accounts, this.portfolios, clock);
    this.signedFeeds = new SignedFeeds(registry, options.seed);
    this.funding = new Funding(registry, accounts, this.money, out, owns, clock.now());
    this.registry = registry;
    this.instruments = registry.byName;
    this.currencies = registry.currencies;
    for (const inst of registry.all()) requote(inst);
  }

  /** Market-maker protection, which cancels a frozen currency's MMP orders through the order flow. */
  private newMmp(registry: Instruments, accounts: Accounts): Mmp {
    return new Mmp(this.clock, accounts.shared, (sub, currency) =>
      this.orders.cancelWhere(
        sub,
        (o) => o.mmp && registry.get(o.instrument_name)?.cfg.base_currency === currency,
        'mmp_trigger',
      ),
    );
  }

  /** public/get_all_live_instruments: the names of the instruments trading (an expired option is not). */
  liveInstruments(): string[] {
    return this.registry.live().filter((name) => !this.risk.expiry.expired(name));
  }

  /** The asset an order on this instrument signs for (undefined when it is not listed). */
  assetOf(name: string): { base_asset_address: string; base_asset_sub_id: string } | undefined {
    const inst = this.registry.get(name);
    return inst && { base_asset_address: inst.asset.address, base_asset_sub_id: inst.asset.subId };
  }

  /** The instrument type of a name, for the tier-2 bucket; undefined when unknown. */
  typeOf(name: string): string | undefined {
    return this.registry.get(name)?.cfg.instrument_type;
  }

  /**
   * One market step: every instrument moves, then the channels of this tick (and every tenth, the slow ones) are
   * pushed.
   */
  tick(): void {
    this.tickCount++;
    const now = this.clock.now();
    for (const inst of this.registry.all()) {
      const name = inst.cfg.instrument_name;
      if ((!this.ownership || this.ownership.owns(name)) && !this.risk.expiry.expired(name))
        this.simulation.step(inst, now);
    }
    this.triggers.sweep();
    this.algos.sweep();
    this.rfq.sweep();
    this.marketData.sample(now);
    this.settleClock(this.tickCount % SLOW_EVERY === 0);
    publishCadence(this.producers, this.out, 'tick', now);
    if (this.tickCount % SLOW_EVERY === 0) publishCadence(this.producers, this.out, 'slow', now);
  }

  /**
   * What the clock settles: funding, interest, option expiry, confirmed deposits; and, when `auctions`
   * (every tenth tick, a mark moved, the clock advanced), the auctions of accounts below maintenance.
   */
  settleClock(auctions = true): void {
    const now = this.clock.now();
    this.funding.settle(now);
    this.risk.settle(now, auctions);
  }

  /** Cancel every user order resting on an instrument's book (an option that expired). */
  private cancelOn(name: string): void {
    const subs = new Set(this.restingIn(name).map((r) => r.order.subaccount_id));
    for (const sub of subs) this.orders.cancelWhere(sub, (o) => o.instrument_name === name);
  }

  /** The values of the `interval` parameter the server runs a timer for. */
  intervals(): string[] {
    return intervalValues(this.producers);
  }

  /** Publish the channels whose `interval` parameter is this cadence. */
  publishInterval(interval: string): void {
    publishCadence(this.producers, this.out, 'interval', this.clock.now(), (p) => p.interval === interval);
  }

  /**
   * A schema-valid payload for any filled-in address (the control plane's `generate`), or null when it matches no
   * channel.
   */
  produce(addr: string): unknown {
    const m = matchChannel(addr);
    if (!m) return null;
    return this.producers[m.channel.id as ChannelId].make(m.params, this.clock.now());
  }

  /** A user's open order by id (a fleet keeps it in Redis for the next owner). */
  restingOf(orderId: string): Resting | undefined {
    return this.open.get(orderId);
  }

  /** The user orders resting on an instrument's book. */
  restingIn(name: string): Resting[] {
    const inst = this.registry.get(name);
    return inst ? [...inst.bids, ...inst.asks] : [];
  }

  /** Put a resting order back on its book (taken over from a fleet member that died). */
  restore(r: Resting): void {
    const inst = this.registry.get(r.order.instrument_name);
    if (!inst || this.open.get(r.order.order_id)) return;
    this.open.add(r);
    insertResting(inst, r);
  }

  /** Forget an instrument's user orders (a fleet member that lost its lease: the next owner restores them). */
  dropBook(name: string): void {
    const inst = this.registry.get(name);
    if (!inst) return;
    for (const r of [...inst.bids, ...inst.asks]) this.open.delete(r.order.order_id);
    inst.bids.length = 0;
    inst.asks.length = 0;
    this.triggers.kept.drop(name);
    this.algos.kept.drop(name);
  }

  /** An instrument's trigger and TWAP orders, as kept for the next owner of its book (order id, text). */
  waitingIn(name: string): Array<[string, string]> {
    return [...this.triggers.kept.in(name), ...this.algos.kept.in(name)];
  }

  /** A trigger or TWAP order as kept, or undefined once it no longer waits. */
  waitingOf(orderId: string): string | undefined {
    return this.triggers.kept.text(orderId) ?? this.algos.kept.text(orderId);
  }

  /** Take a kept trigger or TWAP order back (its book moved here); false when it is none of this market's. */
  restoreWaiting(text: string): boolean {
    const kept = JSON.parse(text) as Parameters<TriggerBook['kept']['restore']>[0];
    return (kept.order.algo_type ? this.algos : this.triggers).kept.restore(kept);
  }

  /** `order`: a trigger order waits off the book (triggers.ts), any other is placed at once. */
  place(session: Session, p: OrderParams): OrderOutcome {
    this.mmpOpen(p);
    refuseTriggeredAlgo(p);
    if (hasTrigger(p)) return this.triggers.add(session, p);
    return hasAlgo(p) ? this.algos.add(session, p) : this.orders.place(session, p);
  }

  /**
   * Move an instrument's mark to a price (the control plane's `mark`): the orders it runs through are
   * filled as a tick would fill them, and trigger orders see the new price. Returns the mark set, or
   * why it was not.
   */
  moveMark(name: string, price: number): { mark: string } | { error: string } {
    const inst = this.registry.get(name);
    if (!inst) return { error: `instrument ${name.slice(0, 80)} is not listed` };
    if (this.ownership && !this.ownership.owns(name)) return { error: `instrument ${name} is another member's` };
    const ticks = Math.round(price / Number(inst.cfg.tick_size));
    if (!(ticks > inst.halfSpread + 1)) return { error: `price ${price} is too low for ${name}` };
    this.simulation.moveTo(inst, ticks, this.clock.now());
    this.triggers.sweep();
    this.risk.liquidation.check(this.clock.now());
    return { mark: priceText(inst, inst.midTicks) };
  }

  /** `replace`. */
  replace(
    session: Session,
    p: OrderParams & { order_id_to_cancel: string },
  ): { cancelled_order: Order; order: Order; trades: PrivateTrade[] } {
    this.mmpOpen(p);
    return this.orders.replace(session, p);
  }

  /**
   * Refused before anything else: an order of a subaccount in auction, on an expired option, or with mmp
   * while its subaccount is frozen in its currency (mmp.ts).
   */
  private mmpOpen(p: OrderParams): void {
    if (this.risk.liquidation.inAuction(p.subaccount_id))
      throw RpcFailure.of('RPC_SUBACCOUNT_LIQUIDATING', `subaccount ${p.subaccount_id} is in a liquidation auction`);
    if (this.risk.expiry.expired(p.instrument_name))
      throw RpcFailure.of('RPC_INSTRUMENT_NOT_LIVE', `${p.instrument_name} has expired and settled`);
    const inst = this.registry.get(p.instrument_name);
    if (inst) this.mmp.assertOpen(p.subaccount_id, inst, p.mmp);
  }

  /** `cancel`: one open order by id (11001 when none). */
  cancel(subaccount: number, instrument: string, orderId: string): Order {
    return this.orders.cancel(subaccount, instrument, orderId);
  }

  /** The other cancels: every open order of the subaccount passing the filter; returns how many. */
  cancelWhere(subaccount: number, keep: (o: Order) => boolean, reason?: CancelReason): number {
    return this.orders.cancelWhere(subaccount, keep, reason);
  }
}

/**
 * The simulated market: seeded and deterministic (the same seed gives the same prices, books and
 * synthetic trades tick for tick), with a synthetic market maker around a random-walk mid price, the
 * users' resting orders on top, simulated counterparties with real keys, and the matching engine
 * behind the order-flow methods.
 *
 * Money is exact: prices are whole ticks, amounts whole amount steps, and every notional, fee,
 * balance and PnL is a fixed-point bigint (fixed.ts) formatted without binary noise.
 */
import { keccak256, toUtf8Bytes, TypedDataEncoder, Wallet } from 'ethers';
import { matchChannel } from '@exchange-api/types';
import type {
  AssumedLiveInstrument,
  AuctionResult,
  BalanceUpdate,
  BestQuoteChannelResult,
  MarginWatchResult,
  Order,
  PricedLegParamsAndResponse,
  PublicQuote,
  PublicRfq,
  PublicTrade,
  QuotePublishResult,
} from '@exchange-api/types';
import { actionMessage, canonicalJson, defaultActionLayout, normalizeAddress } from '@exchange-api/auth';
import type { InstrumentConfig, ResolvedOptions } from './options';
import { derivedSubaccounts, type Accounts, type Session } from './accounts';
import type { Clock } from './clock';
import { RpcFailure } from './rpc';
import { address, parameterEnum, type ChannelId } from './channels';
import { ONE, abs, bps, div, fixed, fmt, max, min, mul, parseFixed } from './fixed';

/** Where the market sends what it produces: the server's subscription index. */
export interface Publisher {
  /** Subscribed addresses of one channel id with their parameters. */
  addresses(channelId: string): ReadonlyMap<string, Record<string, string>>;
  /** Push data to every subscriber of the address. */
  publish(address: string, data: unknown): void;
}

/**
 * When a channel's payloads are pushed: every market tick, every 10 ticks (`slow`), at the cadence
 * its `interval` parameter names, or as events happen (trades, order updates, balances).
 */
export type Cadence = 'tick' | 'slow' | 'interval' | 'event';

/** How one channel's payloads come about: the cadence, and a schema-valid payload for an address's parameters. */
export interface Producer {
  cadence: Cadence;
  make(params: Record<string, string>, now: number): unknown;
}

/** A small, fast, seedable PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const decimalsOf = (s: string) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** Fees in basis points of the notional. */
const TAKER_FEE_BPS = 3;
const MAKER_FEE_BPS = 1;
/** Initial and maintenance margin of perp and option positions, in basis points of the notional. */
const INITIAL_MARGIN_BPS = 1000;
const MAINTENANCE_MARGIN_BPS = 500;
/** A buy may not exceed this many times the quote balance. */
const MAX_LEVERAGE = 10n;
const LEVELS = 150;
/** Simulated counterparties: index 0 is the synthetic market maker, the others take liquidity and quote RFQs. */
const COUNTERPARTIES = 6;
/** An RFQ of the simulation stays open this long. */
const RFQ_LIFETIME_MS = 60_000;
/**
 * The quotes of `{subaccount_id}.quotes` are signed by their counterparty with the action signature
 * (the action-signature assumption) for this method name over these fields of the record.
 */
export const QUOTE_ACTION_METHOD = 'send_quote';
export const QUOTE_SIGNED_FIELDS = ['direction', 'legs', 'max_fee', 'mmp', 'nonce', 'rfq_id', 'signature_expiry_sec', 'subaccount_id'] as const;

/** A user's order on the book; amounts in whole amount steps ("lots"), money exact. */
interface Resting {
  order: Order;
  priceTicks: number;
  remaining: number;
  filled: number;
  notional: bigint;
  fee: bigint;
  seq: number;
  wallet: string;
}

/** One instrument's state. */
interface Instrument {
  cfg: Required<InstrumentConfig>;
  index: number;
  tick: number;
  step: number;
  tickFx: bigint;
  stepFx: bigint;
  priceDp: number;
  amountDp: number;
  rng: () => number;
  midTicks: number;
  halfSpread: number;
  maxSpacing: number;
  publishId: number;
  /** Synthetic liquidity of the current tick: price in ticks → lots. Fills take from it until the next tick. */
  synBids: Map<number, number>;
  synAsks: Map<number, number>;
  /** User orders: bids best first (price desc, then time), asks best first (price asc, then time). */
  bids: Resting[];
  asks: Resting[];
  /** Daily statistics: contracts traded (lots), high/low/open (ticks), trade count, volume and premium volume (fixed). */
  stats: { c: number; h: number; l: number; n: number; v: bigint; pr: bigint; open: number };
  /** Open interest: the sum of long positions (perps and options), exact. */
  oi: bigint;
}

/** A fill of one taker against one maker (user order or synthetic level). */
interface Fill {
  priceTicks: number;
  lots: number;
  maker: Resting | null;
}

/** A simulated participant with a real key. */
interface Counterparty {
  wallet: Wallet;
  address: string;
  subaccount: number;
  lastNonce: bigint;
}

/** One side of a fill: a user's resting order or a simulated counterparty. */
interface Side {
  subaccount: number;
  wallet: string;
  resting: Resting | null;
}

/** An RFQ of the simulation with the side its taker wants and the quotes made on it. */
interface SimRfq {
  rfq: PublicRfq;
  wants: 'buy' | 'sell';
  quotes: Map<number, QuotePublishResult>;
}

/** Results of the order-flow methods (the Assumed*Result shapes). */
export interface OrderOutcome {
  order: Order;
  trades: PublicTrade[];
}

/** The market and the matching engine. */
export class Market {
  readonly instruments = new Map<string, Instrument>();
  readonly currencies = new Set<string>();
  /** Open orders only: filled and cancelled ones are forgotten, so memory follows the book, not history. */
  private readonly orders = new Map<string, Resting>();
  private readonly idRng: () => number;
  private readonly cpRng: () => number;
  private seq = 0;
  private tickCount = 0;
  private readonly counterparties: Counterparty[] = [];
  /** Average entry price of each perp position, by `subaccount|instrument`. */
  private readonly entries = new Map<string, bigint>();
  /** The current RFQ of each subaccount, and RFQs that expired since their wallet's last push. */
  private readonly rfqs = new Map<number, SimRfq>();
  private readonly expiredRfqs = new Map<number, PublicRfq[]>();

  /** Every channel of channelTable with its producer (a test checks none is missing). */
  readonly producers: { readonly [K in ChannelId]: Producer } = {
    auctionsWatch: { cadence: 'slow', make: (_p, now) => this.auctions(now) },
    marginWatch: { cadence: 'slow', make: (_p, now) => this.margins(now) },
    orderbook: { cadence: 'tick', make: (p, now) => this.orderbookPayload(this.nameOr(p.instrument_name), Number(p.group ?? 1), Number(p.depth ?? 10), now) },
    spotFeed: { cadence: 'tick', make: (p, now) => this.spotFeed(p.currency ?? this.first().cfg.base_currency, now) },
    subaccountBalances: { cadence: 'event', make: (p) => this.balanceSnapshot(Number(p.subaccount_id ?? 0)) },
    subaccountBestQuotes: { cadence: 'slow', make: (p, now) => [this.bestQuote(Number(p.subaccount_id ?? 0), now)] },
    subaccountOrders: { cadence: 'event', make: (p, now) => [this.sampleOrder(Number(p.subaccount_id ?? 0), now)] },
    subaccountQuotes: { cadence: 'slow', make: (p, now) => this.quote(Number(p.subaccount_id ?? 0), now) },
    subaccountTrades: { cadence: 'event', make: (p, now) => [this.sampleTrade(this.first().cfg.instrument_name, now, Number(p.subaccount_id ?? 0))] },
    tickerSlim: { cadence: 'interval', make: (p, now) => this.ticker(this.nameOr(p.instrument_name), now) },
    trades: { cadence: 'event', make: (p, now) => [this.sampleTrade(this.nameOr(p.instrument_name), now)] },
    tradesByType: { cadence: 'event', make: (p, now) => [this.sampleTrade(this.instrumentOf(p.instrument_type ?? '', p.currency ?? '') ?? this.first().cfg.instrument_name, now)] },
    walletRfqs: { cadence: 'slow', make: (p, now) => this.walletRfqs(normalizeAddress(p.wallet) ?? p.wallet ?? ZERO_ADDRESS, now) },
  };

  constructor(
    private readonly options: ResolvedOptions,
    private readonly clock: Clock,
    private readonly accounts: Accounts,
    private readonly out: Publisher,
  ) {
    this.idRng = prng(options.seed ^ 0x5eed1d);
    this.cpRng = prng(options.seed ^ 0xc0117e);
    options.instruments.forEach((cfg, index) => {
      const tick = Number(cfg.tick_size);
      const midTicks = Math.max(10, Math.round(cfg.price / tick));
      this.instruments.set(cfg.instrument_name, {
        cfg,
        index,
        tick,
        step: Number(cfg.amount_step),
        tickFx: fixed(cfg.tick_size),
        stepFx: fixed(cfg.amount_step),
        priceDp: decimalsOf(cfg.tick_size),
        amountDp: decimalsOf(cfg.amount_step),
        rng: prng(options.seed * 7919 + index * 104729 + 1),
        midTicks,
        halfSpread: Math.max(1, Math.round(midTicks * 0.0002)),
        maxSpacing: Math.max(1, Math.round(midTicks * 0.00005)),
        publishId: 0,
        synBids: new Map(),
        synAsks: new Map(),
        bids: [],
        asks: [],
        stats: { c: 0, h: midTicks, l: midTicks, n: 0, v: 0n, pr: 0n, open: midTicks },
        oi: 0n,
      });
      this.currencies.add(cfg.base_currency);
    });
    // Counterparties: keys derived from the seed, so their addresses (and signatures) repeat per seed.
    const starting: Record<string, string> = { USDC: '10000000' };
    for (const i of this.instruments.values()) if (i.cfg.instrument_type === 'erc20') starting[i.cfg.base_currency] = '1000';
    for (let i = 0; i < COUNTERPARTIES; i++) {
      const wallet = new Wallet(keccak256(toUtf8Bytes(`exchange-api sandbox counterparty ${options.seed} ${i}`)));
      const subaccount = derivedSubaccounts(wallet.address)[0]!;
      accounts.register(wallet.address, [subaccount], starting);
      this.counterparties.push({ wallet, address: wallet.address, subaccount, lastNonce: 0n });
    }
    for (const inst of this.instruments.values()) this.regenerate(inst);
  }

  /** The addresses of the simulated counterparties (index 0 is the market maker). */
  counterpartyAddresses(): string[] {
    return this.counterparties.map((c) => c.address);
  }

  private first(): Instrument {
    return this.instruments.values().next().value as Instrument;
  }

  /** The name if it is an instrument of the market, else the first instrument's (generated samples). */
  private nameOr(name: string | undefined): string {
    return name !== undefined && this.instruments.has(name) ? name : this.first().cfg.instrument_name;
  }

  /** public/get_all_live_instruments (the AssumedLiveInstrument shape). */
  liveInstruments(): AssumedLiveInstrument[] {
    return [...this.instruments.values()].map((i) => ({
      instrument_name: i.cfg.instrument_name,
      instrument_type: i.cfg.instrument_type,
      base_currency: i.cfg.base_currency,
      quote_currency: i.cfg.quote_currency,
      tick_size: i.cfg.tick_size,
      amount_step: i.cfg.amount_step,
      is_active: true,
    }));
  }

  // ---------------------------------------------------------------- exact units

  private px(inst: Instrument, ticks: number): bigint {
    return BigInt(ticks) * inst.tickFx;
  }

  private amt(inst: Instrument, lots: number): bigint {
    return BigInt(lots) * inst.stepFx;
  }

  private price(inst: Instrument, ticks: number): string {
    return fmt(this.px(inst, ticks));
  }

  private amount(inst: Instrument, lots: number): string {
    return fmt(this.amt(inst, lots));
  }

  private notional(inst: Instrument, ticks: number, lots: number): bigint {
    return mul(this.px(inst, ticks), this.amt(inst, lots));
  }

  private mid(inst: Instrument): bigint {
    return this.px(inst, inst.midTicks);
  }

  /** The spot price of a currency: the mid of its first perp or spot instrument (1 for the quote currency). */
  private spotPrice(currency: string): bigint {
    const inst = [...this.instruments.values()].find((i) => i.cfg.base_currency === currency && i.cfg.instrument_type !== 'option');
    if (inst) return this.mid(inst);
    return [...this.instruments.values()].some((i) => i.cfg.quote_currency === currency) ? ONE : 0n;
  }

  /** The index price of an instrument: the spot price of its base currency, else its own mid. */
  private index(inst: Instrument): bigint {
    return this.spotPrice(inst.cfg.base_currency) || this.mid(inst);
  }

  /** A UUID v4 from the seeded stream, so ids repeat across runs with the same seed. */
  uuid(): string {
    let hex = '';
    for (let i = 0; i < 4; i++) hex += Math.floor(this.idRng() * 0x100000000).toString(16).padStart(8, '0');
    const variant = '89ab'[parseInt(hex[16]!, 16) & 3]!;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  private pickTaker(): Counterparty {
    return this.counterparties[1 + Math.floor(this.cpRng() * (COUNTERPARTIES - 1))]!;
  }

  private get maker(): Counterparty {
    return this.counterparties[0]!;
  }

  // ---------------------------------------------------------------- the market tick

  /** Rebuild the synthetic market maker's levels around the mid, never crossing a user order. */
  private regenerate(inst: Instrument): void {
    const r = inst.rng;
    inst.synBids.clear();
    inst.synAsks.clear();
    const bestUserBid = inst.bids[0]?.priceTicks ?? -Infinity;
    const bestUserAsk = inst.asks[0]?.priceTicks ?? Infinity;
    let bid = inst.midTicks - inst.halfSpread;
    let ask = inst.midTicks + inst.halfSpread;
    for (let i = 0; i < LEVELS; i++) {
      const size = Math.max(1, Math.round((0.2 + r() * 3) / inst.step));
      const size2 = Math.max(1, Math.round((0.2 + r() * 3) / inst.step));
      if (bid > 0 && bid < bestUserAsk) inst.synBids.set(bid, size);
      if (ask > bestUserBid) inst.synAsks.set(ask, size2);
      bid -= 1 + Math.floor(r() * inst.maxSpacing);
      ask += 1 + Math.floor(r() * inst.maxSpacing);
    }
  }

  /** One market step: move every mid, let the simulated takers hit crossed user orders, refresh liquidity, print a trade now and then, publish. */
  tick(): void {
    this.tickCount++;
    const now = this.clock.now();
    for (const inst of this.instruments.values()) {
      const r = inst.rng;
      const move = Math.round((r() - 0.5) * 2 * Math.max(1, inst.midTicks * 0.0003));
      inst.midTicks = Math.max(inst.halfSpread + 2, inst.midTicks + move);
      this.fillCrossedUserOrders(inst, now);
      this.regenerate(inst);
      if (r() < 0.3) this.syntheticTrade(inst, now);
      inst.publishId++;
    }
    this.publishCadence('tick', now);
    if (this.tickCount % 10 === 0) this.publishCadence('slow', now);
  }

  /** Push every subscribed address of the channels of one cadence. */
  private publishCadence(cadence: Cadence, now: number, keep: (p: Record<string, string>) => boolean = () => true): void {
    for (const id of Object.keys(this.producers) as ChannelId[]) {
      const producer = this.producers[id];
      if (producer.cadence !== cadence) continue;
      for (const [addr, p] of this.out.addresses(id)) {
        if (!keep(p)) continue;
        const data = producer.make(p, now);
        if (data !== null) this.out.publish(addr, data);
      }
    }
  }

  /** The cadences (ms) of the channels pushed at their `interval` parameter, each with its parameter value. */
  intervals(): string[] {
    const values = new Set<string>();
    for (const id of Object.keys(this.producers) as ChannelId[]) if (this.producers[id].cadence === 'interval') for (const v of parameterEnum(id, 'interval')) values.add(v);
    return [...values];
  }

  /** Publish the channels whose `interval` parameter is this cadence (ticker_slim's 100 and 1000 ms). */
  publishInterval(interval: string): void {
    this.publishCadence('interval', this.clock.now(), (p) => p.interval === interval);
  }

  /** User orders the moved mid has run through are filled by the simulated takers, as on a real venue. */
  private fillCrossedUserOrders(inst: Instrument, now: number): void {
    const askEdge = inst.midTicks + inst.halfSpread;
    const bidEdge = inst.midTicks - inst.halfSpread;
    while (inst.bids[0] && inst.bids[0].priceTicks >= askEdge) {
      const maker = inst.bids[0];
      const trade = this.settleFill(inst, this.counterpartySide(this.pickTaker()), { priceTicks: maker.priceTicks, lots: maker.remaining, maker }, 'sell', now);
      this.publishPublicTrades(inst, [trade]);
    }
    while (inst.asks[0] && inst.asks[0].priceTicks <= bidEdge) {
      const maker = inst.asks[0];
      const trade = this.settleFill(inst, this.counterpartySide(this.pickTaker()), { priceTicks: maker.priceTicks, lots: maker.remaining, maker }, 'buy', now);
      this.publishPublicTrades(inst, [trade]);
    }
  }

  /** A simulated taker lifts or hits the synthetic market maker's best level. */
  private syntheticTrade(inst: Instrument, now: number): void {
    const r = inst.rng;
    const direction = r() < 0.5 ? 'buy' : 'sell';
    const book = direction === 'buy' ? inst.synAsks : inst.synBids;
    const best = direction === 'buy' ? Math.min(...book.keys()) : Math.max(...book.keys());
    if (!Number.isFinite(best)) return;
    const lots = Math.min(book.get(best)!, Math.max(1, Math.round((0.01 + r() * 0.5) / inst.step)));
    const trade = this.settleFill(inst, this.counterpartySide(this.pickTaker()), { priceTicks: best, lots, maker: null }, direction, now);
    this.publishPublicTrades(inst, [trade]);
  }

  private counterpartySide(c: Counterparty): Side {
    return { subaccount: c.subaccount, wallet: c.address, resting: null };
  }

  private recordStats(inst: Instrument, ticks: number, lots: number): void {
    const s = inst.stats;
    s.c += lots;
    s.n += 1;
    const notional = this.notional(inst, ticks, lots);
    s.v += notional;
    if (inst.cfg.instrument_type === 'option') s.pr += notional;
    s.h = Math.max(s.h, ticks);
    s.l = Math.min(s.l, ticks);
  }

  private tradeRecord(
    inst: Instrument,
    t: { direction: 'buy' | 'sell'; priceTicks: number; lots: number; role: 'maker' | 'taker'; wallet: string; subaccount: number; fee: bigint; realized: bigint; now: number; tradeId?: string },
  ): PublicTrade {
    return {
      direction: t.direction,
      expected_rebate: '0',
      extra_fee: '0',
      index_price: fmt(this.index(inst), inst.priceDp),
      mark_price: fmt(this.mid(inst)),
      realized_pnl: fmt(t.realized - t.fee),
      realized_pnl_excl_fees: fmt(t.realized),
      trade_amount: this.amount(inst, t.lots),
      trade_fee: fmt(t.fee),
      trade_id: t.tradeId ?? this.uuid(),
      trade_price: this.price(inst, t.priceTicks),
      instrument_name: inst.cfg.instrument_name,
      wallet: t.wallet,
      liquidity_role: t.role,
      subaccount_id: t.subaccount,
      timestamp: t.now,
      quote_id: null,
      rfq_id: null,
    };
  }

  private publishPublicTrades(inst: Instrument, trades: PublicTrade[]): void {
    if (trades.length === 0) return;
    this.out.publish(address('trades', { instrument_name: inst.cfg.instrument_name }), trades);
    this.out.publish(address('tradesByType', { instrument_type: inst.cfg.instrument_type, currency: inst.cfg.base_currency }), trades);
  }

  // ---------------------------------------------------------------- books, tickers, feeds

  /** Levels aggregated to the group (in ticks: bids round down, asks up), best first, at most depth. */
  book(name: string, group: number, depth: number): { bids: [string, string][]; asks: [string, string][] } | null {
    const inst = this.instruments.get(name);
    if (!inst) return null;
    const side = (syn: Map<number, number>, users: Resting[], isBid: boolean) => {
      const agg = new Map<number, number>();
      const add = (ticks: number, lots: number) => {
        const g = isBid ? Math.floor(ticks / group) * group : Math.ceil(ticks / group) * group;
        agg.set(g, (agg.get(g) ?? 0) + lots);
      };
      for (const [p, a] of syn) add(p, a);
      for (const u of users) add(u.priceTicks, u.remaining);
      const prices = [...agg.keys()].filter((p) => p > 0 && (agg.get(p) ?? 0) > 0).sort((a, b) => (isBid ? b - a : a - b));
      return prices.slice(0, depth).map((p): [string, string] => [this.price(inst, p), this.amount(inst, agg.get(p)!)]);
    };
    return { bids: side(inst.synBids, inst.bids, true), asks: side(inst.synAsks, inst.asks, false) };
  }

  /** The OrderbookPayload of one address. */
  orderbookPayload(name: string, group: number, depth: number, now = this.clock.now()) {
    const inst = this.instruments.get(name);
    const b = this.book(name, group, depth);
    if (!inst || !b) return null;
    return { instrument_name: name, publish_id: inst.publishId, timestamp: now, bids: b.bids, asks: b.asks };
  }

  /** TickerSlimPayload (fields not shown in the document; this shape embeds DailyTradingStatistics as stats and OptionPricing as option_pricing). */
  ticker(name: string, now = this.clock.now()): Record<string, unknown> | null {
    const inst = this.instruments.get(name);
    if (!inst) return null;
    const b = this.book(name, 1, 1)!;
    const s = inst.stats;
    const mark = this.mid(inst);
    const open = this.px(inst, s.open);
    const ticker: Record<string, unknown> = {
      t: now,
      A: b.asks[0]?.[1] ?? '0',
      a: b.asks[0]?.[0] ?? '0',
      B: b.bids[0]?.[1] ?? '0',
      b: b.bids[0]?.[0] ?? '0',
      f: inst.cfg.instrument_type === 'perp' ? '0.00001' : '0',
      I: fmt(this.index(inst), inst.priceDp),
      M: fmt(mark),
      minp: this.price(inst, Math.floor(inst.midTicks * 0.9)),
      maxp: this.price(inst, Math.ceil(inst.midTicks * 1.1)),
      stats: {
        c: this.amount(inst, s.c),
        h: this.price(inst, s.h),
        l: this.price(inst, s.l),
        n: s.n,
        oi: fmt(inst.oi),
        p: fmt(div((mark - open) * 100n, open), 6),
        pr: fmt(s.pr, 6),
        v: fmt(s.v, 6),
      },
      option_pricing:
        inst.cfg.instrument_type === 'option'
          ? { ai: '0.62', bi: '0.58', d: '0.52', df: '0.99', f: fmt(this.index(inst), 2), g: '0.0004', i: '0.6', m: fmt(mark), r: '1.2', t: '-2.1', v: '3.4' }
          : null,
    };
    return { timestamp: now, instrument_ticker: ticker };
  }

  /** SpotFeedPayload (fields not shown; this shape maps the currency to a SpotFeedEntry). */
  spotFeed(currency: string, now = this.clock.now()): Record<string, unknown> {
    const inst = [...this.instruments.values()].find((i) => i.cfg.base_currency === currency && i.cfg.instrument_type !== 'option');
    const price = inst ? this.mid(inst) : ONE;
    const open = inst ? this.px(inst, inst.stats.open) : price;
    const entry = { price: fmt(price, 6), confidence: '1', price_prev_daily: fmt(open, 6), confidence_prev_daily: '1', timestamp_prev_daily: now - 86_400_000 };
    return { timestamp: now, feeds: { [currency]: entry } };
  }

  // ---------------------------------------------------------------- accounts: auctions and margin

  /** auctions.watch: a simulated account in auction, and one whose auction ended. */
  auctions(now = this.clock.now()): AuctionResult[] {
    const inst = this.first();
    const mark = this.mid(inst);
    // Short 2 perps entered at 78 % of today's mark, with 1500 USDC: the unrealized loss leaves a
    // mark-to-market value under the 5 % maintenance margin, so the account is in auction.
    const position = -2n * ONE;
    const entry = bps(mark, 7800);
    const mtm = 1500n * ONE + mul(position, mark - entry);
    return [
      {
        state: 'ongoing',
        subaccount_id: 900_001,
        timestamp: now,
        details: {
          estimated_bid_price: fmt(bps(mark, 9500), 2),
          estimated_discount_pnl: fmt(-bps(mul(abs(position), mark), 500), 2),
          estimated_mtm: fmt(mtm, 2),
          estimated_percent_bid: '0.25',
          margin_type: 'SM',
          min_price_limit: fmt(bps(mark, 9000), 2),
          subaccount_balances: { USDC: '1500', [inst.cfg.instrument_name]: fmt(position) },
          currency: null,
        },
      },
      { state: 'ended', subaccount_id: 900_002, timestamp: now, details: null },
    ];
  }

  /** The value and margins of a subaccount at the mids: cash and spot assets at their price, options at their mark, perps by their unrealized PnL. */
  private valuation(subaccount: number): { value: bigint; initial: bigint; maintenance: bigint; collaterals: unknown[]; positions: unknown[] } {
    let value = 0n;
    let exposure = 0n;
    const collaterals: unknown[] = [];
    const positions: unknown[] = [];
    for (const [asset, amount] of this.accounts.balances.get(subaccount) ?? []) {
      const inst = this.instruments.get(asset);
      if (inst) {
        const mark = this.mid(inst);
        positions.push({ instrument_name: asset, amount: fmt(amount), mark_price: fmt(mark) });
        exposure += abs(mul(amount, mark));
        if (inst.cfg.instrument_type === 'perp') value += mul(amount, mark - (this.entries.get(`${subaccount}|${asset}`) ?? mark));
        else value += mul(amount, mark);
      } else {
        collaterals.push({ asset_name: asset, amount: fmt(amount) });
        value += mul(amount, this.spotPrice(asset));
      }
    }
    return { value, initial: bps(exposure, INITIAL_MARGIN_BPS), maintenance: bps(exposure, MAINTENANCE_MARGIN_BPS), collaterals, positions };
  }

  /** margin.watch: every known subaccount's margin state (first 50), valued at the mids. */
  margins(now = this.clock.now()): MarginWatchResult[] {
    const out: MarginWatchResult[] = [];
    for (const id of this.accounts.balances.keys()) {
      if (out.length >= 50) break;
      const v = this.valuation(id);
      out.push({
        collaterals: v.collaterals,
        currency: 'USDC',
        initial_margin: fmt(v.initial, 6),
        maintenance_margin: fmt(v.maintenance, 6),
        margin_type: 'SM',
        positions: v.positions,
        subaccount_id: id,
        subaccount_value: fmt(v.value, 6),
        valuation_timestamp: now,
      });
    }
    return out;
  }

  // ---------------------------------------------------------------- RFQs and quotes

  /** The open RFQ of a subaccount: a fresh one when it has none or its last one expired. */
  private rfqOf(subaccount: number, now: number): SimRfq {
    const current = this.rfqs.get(subaccount);
    if (current && current.rfq.valid_until > now) return current;
    if (current) {
      // Tell the wallet once that it expired, with the quotes made on it.
      const ended: PublicRfq = { ...current.rfq, status: 'expired', last_update_timestamp: current.rfq.valid_until };
      const list = this.expiredRfqs.get(subaccount) ?? [];
      list.push(ended);
      this.expiredRfqs.set(subaccount, list.slice(-5));
    }
    const list = [...this.instruments.values()];
    const leg = list[Math.floor(this.idRng() * list.length)]!;
    // A few thousand USDC of notional, in whole amount steps (at least one).
    const target = 1000 + Math.floor(this.idRng() * 19_000);
    const perLot = Number(this.notional(leg, leg.midTicks, 1)) / Number(ONE);
    const lots = Math.max(1, Math.round(target / perLot));
    const rfq: PublicRfq = {
      cancel_reason: '',
      creation_timestamp: now,
      fill_rate: null,
      filled_pct: '0',
      last_update_timestamp: now,
      legs: [{ amount: this.amount(leg, lots), direction: this.idRng() < 0.5 ? 'buy' : 'sell', instrument_name: leg.cfg.instrument_name }],
      // Fills come in whole amount steps, never more than the leg.
      partial_fill_step: leg.cfg.amount_step,
      recent_fill_rate: null,
      rfq_id: this.uuid(),
      status: 'open',
      subaccount_id: subaccount,
      total_cost: null,
      valid_until: now + RFQ_LIFETIME_MS,
      wallet: this.accounts.walletOf(subaccount) ?? ZERO_ADDRESS,
      filled_direction: null,
    };
    const sim: SimRfq = { rfq, wants: this.idRng() < 0.5 ? 'buy' : 'sell', quotes: new Map() };
    this.rfqs.set(subaccount, sim);
    return sim;
  }

  /** `{wallet}.rfqs`: the open RFQ of each of the wallet's subaccounts, and any that expired since the last push. */
  walletRfqs(wallet: string, now = this.clock.now()): PublicRfq[] {
    const out: PublicRfq[] = [];
    for (const sub of this.accounts.subaccountsOf(wallet)) {
      const open = this.rfqOf(sub, now).rfq;
      out.push(...(this.expiredRfqs.get(sub) ?? []), { ...open, legs: open.legs.map((l) => ({ ...l })) });
      this.expiredRfqs.delete(sub);
    }
    return out;
  }

  private nextNonce(c: Counterparty, now: number): string {
    let n = BigInt(Math.floor(now)) * 1000n;
    if (n <= c.lastNonce) n = c.lastNonce + 1n;
    c.lastNonce = n;
    return n.toString();
  }

  /**
   * A counterparty quotes the subaccount's open RFQ (replacing its own earlier quote on it, which is
   * returned cancelled): the RFQ's legs priced a few basis points off the mid in the maker's favour,
   * the maker fee on the notional, and a real action signature by the counterparty's key.
   */
  quote(subaccount: number, now = this.clock.now()): QuotePublishResult[] {
    const sim = this.rfqOf(subaccount, now);
    const cpIndex = 1 + Math.floor(this.cpRng() * (COUNTERPARTIES - 1));
    const cp = this.counterparties[cpIndex]!;
    const direction: 'buy' | 'sell' = sim.wants === 'buy' ? 'sell' : 'buy';
    const edge = 2 + Math.floor(this.cpRng() * 18);
    let notional = 0n;
    const legs: PricedLegParamsAndResponse[] = sim.rfq.legs.map((leg) => {
      const inst = this.instruments.get(leg.instrument_name)!;
      // The maker sells this leg when it sells the legs as given and the leg buys, or buys them and the leg sells.
      const makerSells = (direction === 'sell') === (leg.direction === 'buy');
      const ticks = makerSells ? Math.ceil(inst.midTicks * (1 + edge / 10_000)) : Math.max(1, Math.floor(inst.midTicks * (1 - edge / 10_000)));
      notional += mul(this.px(inst, ticks), fixed(leg.amount));
      return { amount: leg.amount, direction: leg.direction, instrument_name: leg.instrument_name, price: this.price(inst, ticks) };
    });
    const fee = bps(notional, MAKER_FEE_BPS);
    const signed = {
      direction,
      legs,
      max_fee: fmt(bps(notional, 10 * MAKER_FEE_BPS)),
      mmp: false,
      nonce: this.nextNonce(cp, now),
      rfq_id: sim.rfq.rfq_id,
      signature_expiry_sec: Math.floor(Math.min(now + 30_000, sim.rfq.valid_until) / 1000),
      subaccount_id: cp.subaccount,
    } satisfies Record<(typeof QUOTE_SIGNED_FIELDS)[number], unknown>;
    const digest = TypedDataEncoder.hash(defaultActionLayout.domain, defaultActionLayout.types, actionMessage(QUOTE_ACTION_METHOD, signed));
    const q: QuotePublishResult = {
      ...signed,
      creation_timestamp: now,
      extra_fee: '0',
      fee: fmt(fee),
      fill_pct: '0',
      is_transfer: false,
      label: '',
      last_update_timestamp: now,
      legs_hash: keccak256(toUtf8Bytes(canonicalJson(legs))),
      liquidity_role: 'maker',
      quote_id: this.uuid(),
      signature: cp.wallet.signingKey.sign(digest).serialized,
      signer: cp.address,
      status: 'open',
      batch_status: null,
      cancel_reason: null,
      tx_hash: null,
    };
    const out: QuotePublishResult[] = [];
    const previous = sim.quotes.get(cpIndex);
    if (previous) out.push({ ...previous, status: 'cancelled', cancel_reason: 'user_request', last_update_timestamp: now });
    sim.quotes.set(cpIndex, q);
    out.push(q);
    return out;
  }

  private publicQuote(q: QuotePublishResult): PublicQuote {
    return {
      cancel_reason: '',
      creation_timestamp: q.creation_timestamp,
      direction: q.direction,
      fill_pct: q.fill_pct,
      last_update_timestamp: q.last_update_timestamp,
      legs: q.legs.map((l) => ({ ...l })),
      legs_hash: q.legs_hash,
      liquidity_role: 'maker',
      quote_id: q.quote_id,
      rfq_id: q.rfq_id,
      status: q.status,
      subaccount_id: q.subaccount_id,
      wallet: q.signer,
    };
  }

  /**
   * `{subaccount_id}.best.quotes`: the best open quote on the subaccount's RFQ for the side its taker
   * wants, with the taker fee, the cost against the book and the initial margin before and after.
   */
  bestQuote(subaccount: number, now = this.clock.now()): BestQuoteChannelResult {
    const sim = this.rfqOf(subaccount, now);
    if (sim.quotes.size === 0) this.quote(subaccount, now);
    const sign = sim.wants === 'buy' ? 1n : -1n;
    // The taker pays the legs it buys and receives the ones it sells.
    const cost = (q: QuotePublishResult) =>
      q.legs.reduce((s, l) => s + (l.direction === 'buy' ? sign : -sign) * mul(fixed(l.price), fixed(l.amount)), 0n);
    const best = [...sim.quotes.values()].reduce((a, b) => (cost(b) < cost(a) ? b : a));
    let notional = 0n;
    let bookCost = 0n;
    let margin = 0n;
    for (const l of best.legs) {
      const inst = this.instruments.get(l.instrument_name)!;
      const amount = fixed(l.amount);
      const legNotional = mul(fixed(l.price), amount);
      notional += legNotional;
      const takerBuys = (l.direction === 'buy') === (sim.wants === 'buy');
      const top = this.book(l.instrument_name, 1, 1)!;
      const bookPrice = fixed((takerBuys ? top.asks[0]?.[0] : top.bids[0]?.[0]) ?? fmt(this.mid(inst)));
      bookCost += (takerBuys ? 1n : -1n) * mul(bookPrice, amount);
      if (inst.cfg.instrument_type !== 'erc20') margin += bps(legNotional, INITIAL_MARGIN_BPS);
    }
    const fee = bps(notional, TAKER_FEE_BPS);
    const pre = this.valuation(subaccount).initial;
    return {
      rfq_id: sim.rfq.rfq_id,
      error: null,
      result: {
        direction: sim.wants,
        down_liquidation_price: null,
        estimated_fee: fmt(fee),
        estimated_realized_pnl: fmt(-fee),
        estimated_realized_pnl_excl_fees: '0',
        estimated_total_cost: fmt(cost(best)),
        filled_pct: '0',
        is_valid: true,
        orderbook_total_cost: fmt(bookCost),
        post_initial_margin: fmt(pre + margin, 6),
        pre_initial_margin: fmt(pre, 6),
        suggested_max_fee: fmt(fee * 2n),
        post_liquidation_price: null,
        up_liquidation_price: null,
        best_quote: this.publicQuote(best),
        invalid_reason: null,
      },
    };
  }

  /** The current balances of a subaccount as BalanceUpdate records (used for generated samples). */
  balanceSnapshot(subaccount: number): BalanceUpdate[] {
    const book = this.accounts.balances.get(subaccount);
    const out: BalanceUpdate[] = [];
    for (const [name, amount] of book ?? []) out.push({ name, new_balance: fmt(amount), previous_balance: fmt(amount), update_type: 'trade' });
    return out.length > 0 ? out : [{ name: 'USDC', new_balance: '0', previous_balance: '0', update_type: 'asset_deposit' }];
  }

  // ---------------------------------------------------------------- order flow

  private instrumentOrReject(name: string): Instrument {
    const inst = this.instruments.get(name);
    if (!inst) throw new RpcFailure(11000, `unknown instrument ${JSON.stringify(name).slice(0, 80)} (see public/get_all_live_instruments)`);
    return inst;
  }

  /** The instrument type of a name, for the tier-2 bucket; undefined when unknown. */
  typeOf(name: string): string | undefined {
    return this.instruments.get(name)?.cfg.instrument_type;
  }

  /** A decimal input as whole units of `unit` (ticks or steps), or a rejection naming the field. */
  private units(field: string, value: string | number, unit: bigint, unitName: string, unitValue: string): number {
    const x = parseFixed(value);
    if (x === null) throw new RpcFailure(11000, `${field} ${String(value).slice(0, 40)} is not a decimal with at most 12 fractional digits`);
    if (x <= 0n) throw new RpcFailure(11000, `${field} must be above zero (got ${value})`);
    if (x % unit !== 0n) throw new RpcFailure(11000, `${field} ${value} is not a multiple of ${unitName} ${unitValue}`);
    const n = x / unit;
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RpcFailure(11000, `${field} ${String(value).slice(0, 40)} is too large`);
    return Number(n);
  }

  private checkOrder(p: OrderFields): { inst: Instrument; priceTicks: number; lots: number; maxFee: bigint; tif: string } {
    const inst = this.instrumentOrReject(p.instrument_name);
    const lots = this.units('amount', p.amount, inst.stepFx, 'amount_step', inst.cfg.amount_step);
    const priceTicks = this.units('limit_price', p.limit_price, inst.tickFx, 'tick_size', inst.cfg.tick_size);
    const maxFee = parseFixed(p.max_fee);
    if (maxFee === null || maxFee < 0n) throw new RpcFailure(11000, `max_fee must be a non-negative decimal (got ${String(p.max_fee).slice(0, 40)})`);
    const tif = p.time_in_force ?? 'gtc';
    if (!['gtc', 'ioc', 'fok', 'post_only'].includes(tif)) throw new RpcFailure(11000, `time_in_force ${JSON.stringify(tif).slice(0, 40)} is not one of gtc, ioc, fok, post_only`);
    return { inst, priceTicks, lots, maxFee, tif };
  }

  /** Best opposite liquidity at or better than the limit, in price-time priority (user orders before synthetic at one price). */
  private plan(inst: Instrument, direction: 'buy' | 'sell', limitTicks: number, lots: number): Fill[] {
    const users = direction === 'buy' ? inst.asks : inst.bids;
    const syn = direction === 'buy' ? inst.synAsks : inst.synBids;
    const synPrices = [...syn.keys()].sort((a, b) => (direction === 'buy' ? a - b : b - a));
    const better = (a: number, b: number) => (direction === 'buy' ? a <= b : a >= b);
    const fills: Fill[] = [];
    let left = lots;
    let ui = 0;
    let si = 0;
    while (left > 0) {
      const u = users[ui];
      const sp = synPrices[si];
      let pick: 'u' | 's' | null = null;
      if (u && (sp === undefined || better(u.priceTicks, sp))) pick = 'u';
      else if (sp !== undefined) pick = 's';
      if (pick === null) break;
      const price = pick === 'u' ? u!.priceTicks : sp!;
      // limit_price bounds market orders too: it is their worst acceptable price.
      if (!better(price, limitTicks)) break;
      const available = pick === 'u' ? u!.remaining : syn.get(sp!)!;
      const take = Math.min(left, available);
      fills.push({ priceTicks: price, lots: take, maker: pick === 'u' ? u! : null });
      left -= take;
      if (pick === 'u') ui++;
      else si++;
    }
    return fills;
  }

  /**
   * Book one side of a fill in its subaccount's ledger. Perps settle PnL and fees, not the notional:
   * the position moves, an average entry price is kept, and cash changes by the PnL realized on the
   * part that reduces the position, less the fee. Spot and options exchange the asset for its price.
   */
  private ledger(inst: Instrument, subaccount: number, direction: 'buy' | 'sell', fill: Fill, fee: bigint): { updates: BalanceUpdate[]; realized: bigint } {
    const sign = direction === 'buy' ? 1n : -1n;
    const amount = sign * this.amt(inst, fill.lots);
    const price = this.px(inst, fill.priceTicks);
    const quote = inst.cfg.quote_currency;
    const type = inst.cfg.instrument_type;
    const positionAsset = type === 'erc20' ? inst.cfg.base_currency : inst.cfg.instrument_name;
    const before = this.accounts.balance(subaccount, positionAsset);
    const after = before + amount;
    let cash: bigint;
    let realized = 0n;
    if (type === 'perp') {
      const key = `${subaccount}|${positionAsset}`;
      const entry = this.entries.get(key) ?? price;
      if (before === 0n || before > 0n === amount > 0n) {
        this.entries.set(key, div(mul(abs(before), entry) + mul(abs(amount), price), abs(after)));
      } else {
        const closed = min(abs(before), abs(amount));
        realized = mul(closed, price - entry) * (before > 0n ? 1n : -1n);
        if (after === 0n) this.entries.delete(key);
        else if (after > 0n !== before > 0n) this.entries.set(key, price);
      }
      cash = realized - fee;
    } else {
      cash = -sign * mul(price, this.amt(inst, fill.lots)) - fee;
    }
    if (type !== 'erc20') inst.oi += max(0n, after) - max(0n, before);
    const updates = [this.accounts.adjust(subaccount, positionAsset, amount), this.accounts.adjust(subaccount, quote, cash)];
    return { updates: updates.map((u) => ({ name: u.name, new_balance: fmt(u.next), previous_balance: fmt(u.previous), update_type: 'trade' })), realized };
  }

  /** Apply one fill to both sides: ledgers, order records, trades, and the pushes on the private channels. Returns the taker's trade. */
  private settleFill(inst: Instrument, taker: Side, fill: Fill, takerDirection: 'buy' | 'sell', now: number): PublicTrade {
    const tradeId = this.uuid();
    const notional = this.notional(inst, fill.priceTicks, fill.lots);
    this.recordStats(inst, fill.priceTicks, fill.lots);
    const maker: Side = fill.maker ? { subaccount: fill.maker.order.subaccount_id, wallet: fill.maker.wallet, resting: fill.maker } : this.counterpartySide(this.maker);
    const makerDirection = takerDirection === 'buy' ? 'sell' : 'buy';
    let takerRecord: PublicTrade | null = null;
    for (const [side, role, direction, feeBps] of [
      [taker, 'taker', takerDirection, TAKER_FEE_BPS],
      [maker, 'maker', makerDirection, MAKER_FEE_BPS],
    ] as const) {
      const fee = bps(notional, feeBps);
      const { updates, realized } = this.ledger(inst, side.subaccount, direction, fill, fee);
      const record = this.tradeRecord(inst, { direction, priceTicks: fill.priceTicks, lots: fill.lots, role, wallet: side.wallet, subaccount: side.subaccount, fee, realized, now, tradeId });
      if (role === 'taker') takerRecord = record;
      if (side.resting) this.applyToOrder(inst, side.resting, fill, notional, fee, now);
      this.out.publish(address('subaccountTrades', { subaccount_id: side.subaccount }), [record]);
      this.out.publish(address('subaccountBalances', { subaccount_id: side.subaccount }), updates);
    }
    if (fill.maker) {
      if (fill.maker.remaining === 0) this.removeResting(inst, fill.maker);
    } else {
      const syn = takerDirection === 'buy' ? inst.synAsks : inst.synBids;
      const left = (syn.get(fill.priceTicks) ?? 0) - fill.lots;
      if (left > 0) syn.set(fill.priceTicks, left);
      else syn.delete(fill.priceTicks);
    }
    return takerRecord!;
  }

  private applyToOrder(inst: Instrument, r: Resting, fill: Fill, notional: bigint, fee: bigint, now: number): void {
    const o = r.order;
    r.filled += fill.lots;
    r.remaining -= fill.lots;
    r.notional += notional;
    r.fee += fee;
    o.filled_amount = this.amount(inst, r.filled);
    o.average_price = fmt(div(r.notional, this.amt(inst, r.filled)), Math.min(12, inst.priceDp + 4));
    o.order_fee = fmt(r.fee);
    o.last_update_timestamp = now;
    if (r.remaining === 0) {
      o.order_status = 'filled';
      this.orders.delete(o.order_id);
    }
    this.out.publish(address('subaccountOrders', { subaccount_id: o.subaccount_id }), [{ ...o }]);
  }

  private removeResting(inst: Instrument, r: Resting): void {
    const side = r.order.direction === 'buy' ? inst.bids : inst.asks;
    const i = side.indexOf(r);
    if (i >= 0) side.splice(i, 1);
  }

  private insertResting(inst: Instrument, r: Resting): void {
    const side = r.order.direction === 'buy' ? inst.bids : inst.asks;
    const before = (a: Resting) => (r.order.direction === 'buy' ? r.priceTicks > a.priceTicks : r.priceTicks < a.priceTicks);
    const i = side.findIndex(before);
    if (i < 0) side.push(r);
    else side.splice(i, 0, r);
    // Keep the synthetic maker from crossing the new order until the next refresh.
    const syn = r.order.direction === 'buy' ? inst.synAsks : inst.synBids;
    for (const p of [...syn.keys()]) if (r.order.direction === 'buy' ? p <= r.priceTicks : p >= r.priceTicks) syn.delete(p);
  }

  /** `order`: check, match, rest or cancel the remainder, push. */
  place(session: Session, p: OrderFields & ActionFieldsLike, replaced: string | null = null): OrderOutcome {
    return this.execute(session, p, this.checkOrder(p), replaced);
  }

  private execute(session: Session, p: OrderFields & ActionFieldsLike, checked: ReturnType<Market['checkOrder']>, replaced: string | null): OrderOutcome {
    const { inst, priceTicks, lots, maxFee, tif } = checked;
    const now = this.clock.now();
    const isMarket = p.order_type === 'market';
    const fills = this.plan(inst, p.direction, priceTicks, lots);
    const fillable = fills.reduce((s, f) => s + f.lots, 0);
    if (tif === 'post_only' && fills.length > 0) throw new RpcFailure(11000, `post_only order would cross the book at ${this.price(inst, fills[0]!.priceTicks)}`);
    if (tif === 'fok' && fillable < lots) throw new RpcFailure(11000, `fok order cannot be filled in full (${this.amount(inst, fillable)} of ${this.amount(inst, lots)} available)`);
    const cash = this.accounts.balance(p.subaccount_id, inst.cfg.quote_currency);
    const notional = this.notional(inst, priceTicks, lots);
    if (p.direction === 'buy' && notional > max(0n, cash) * MAX_LEVERAGE) {
      throw new RpcFailure(11000, `insufficient margin: order notional ${fmt(notional, 2)} exceeds ${MAX_LEVERAGE}x the ${inst.cfg.quote_currency} balance`);
    }
    const order: Order = {
      amount: this.amount(inst, lots),
      average_price: '0',
      creation_timestamp: now,
      direction: p.direction,
      extra_fee: '0',
      filled_amount: '0',
      instrument_name: inst.cfg.instrument_name,
      is_transfer: false,
      last_update_timestamp: now,
      limit_price: this.price(inst, priceTicks),
      max_fee: fmt(maxFee),
      mmp: p.mmp ?? false,
      nonce: p.nonce,
      order_fee: '0',
      order_id: this.uuid(),
      order_status: 'open',
      order_type: p.order_type,
      quote_id: null,
      replaced_order_id: replaced,
      signature: p.signature,
      signature_expiry_sec: p.signature_expiry_sec,
      signed_limit_price: this.price(inst, priceTicks),
      signer: p.signer,
      subaccount_id: p.subaccount_id,
      time_in_force: tif,
      trigger_price: null,
      cancel_reason: '',
      label: p.label ?? '',
    };
    const taker: Resting = { order, priceTicks, remaining: lots, filled: 0, notional: 0n, fee: 0n, seq: ++this.seq, wallet: session.wallet };
    this.orders.set(order.order_id, taker);
    const trades: PublicTrade[] = [];
    for (const f of fills) trades.push(this.settleFill(inst, { subaccount: p.subaccount_id, wallet: session.wallet, resting: taker }, f, p.direction, now));
    this.publishPublicTrades(inst, trades);
    const ordersAddress = address('subaccountOrders', { subaccount_id: order.subaccount_id });
    if (taker.remaining > 0) {
      if (isMarket || tif === 'ioc' || tif === 'fok') {
        this.orders.delete(order.order_id);
        order.order_status = 'cancelled';
        order.cancel_reason = 'ioc_or_market_partial_fill';
        order.last_update_timestamp = now;
        this.out.publish(ordersAddress, [{ ...order }]);
      } else {
        this.insertResting(inst, taker);
        if (fills.length === 0) this.out.publish(ordersAddress, [{ ...order }]);
      }
    }
    return { order: { ...order }, trades };
  }

  /** `replace`: check the new order, cancel the old one (11001 when not open), place the new one. */
  replace(session: Session, p: OrderFields & ActionFieldsLike & { order_id_to_cancel: string }): { cancelled_order: Order; order: Order; trades: PublicTrade[] } {
    const checked = this.checkOrder(p);
    const old = this.openOrder(p.subaccount_id, p.order_id_to_cancel);
    const cancelled = this.cancelResting(old, 'user_request');
    const placed = this.execute(session, p, checked, isUuid(old.order.order_id) ? old.order.order_id : null);
    return { cancelled_order: cancelled, order: placed.order, trades: placed.trades };
  }

  private openOrder(subaccount: number, orderId: string, instrument?: string): Resting {
    const r = this.orders.get(orderId);
    if (!r || r.order.subaccount_id !== subaccount || r.order.order_status !== 'open' || (instrument !== undefined && r.order.instrument_name !== instrument)) {
      throw new RpcFailure(11001, `no open order ${JSON.stringify(orderId).slice(0, 60)} of subaccount ${subaccount}${instrument ? ` in ${instrument}` : ''}`);
    }
    return r;
  }

  private cancelResting(r: Resting, reason: 'user_request'): Order {
    const inst = this.instruments.get(r.order.instrument_name)!;
    this.removeResting(inst, r);
    this.orders.delete(r.order.order_id);
    r.order.order_status = 'cancelled';
    r.order.cancel_reason = reason;
    r.order.last_update_timestamp = this.clock.now();
    const copy = { ...r.order };
    this.out.publish(address('subaccountOrders', { subaccount_id: r.order.subaccount_id }), [copy]);
    return copy;
  }

  /** `cancel`: one open order by id (11001 when none). */
  cancel(subaccount: number, instrument: string, orderId: string): Order {
    this.instrumentOrReject(instrument);
    return this.cancelResting(this.openOrder(subaccount, orderId, instrument), 'user_request');
  }

  /** The other cancels: every open order of the subaccount passing the filter; returns how many. */
  cancelWhere(subaccount: number, keep: (o: Order) => boolean): number {
    let n = 0;
    for (const r of this.orders.values()) {
      if (r.order.subaccount_id === subaccount && r.order.order_status === 'open' && keep(r.order)) {
        this.cancelResting(r, 'user_request');
        n++;
      }
    }
    return n;
  }

  // ---------------------------------------------------------------- generated samples (control plane)

  /** A schema-valid payload for any filled-in address (the control plane's `generate`), or null when it matches no channel. */
  produce(addr: string): unknown {
    const m = matchChannel(addr);
    if (!m) return null;
    return this.producers[m.channel.id as ChannelId].make(m.params, this.clock.now());
  }

  /** A sample Order record for generated pushes (its signature is a placeholder: the sandbox holds no user's key). */
  sampleOrder(subaccount: number, now = this.clock.now()): Order {
    const inst = this.first();
    return {
      amount: this.amount(inst, 10),
      average_price: '0',
      creation_timestamp: now,
      direction: 'buy',
      extra_fee: '0',
      filled_amount: '0',
      instrument_name: inst.cfg.instrument_name,
      is_transfer: false,
      last_update_timestamp: now,
      limit_price: this.price(inst, inst.midTicks - inst.halfSpread * 10),
      max_fee: fmt(bps(this.notional(inst, inst.midTicks, 10), 10 * TAKER_FEE_BPS)),
      mmp: false,
      nonce: String(now * 1000),
      order_fee: '0',
      order_id: this.uuid(),
      order_status: 'open',
      order_type: 'limit',
      quote_id: null,
      replaced_order_id: null,
      signature: `0x${'11'.repeat(65)}`,
      signature_expiry_sec: Math.floor(now / 1000) + 3600,
      signed_limit_price: null,
      signer: this.accounts.walletOf(subaccount) ?? ZERO_ADDRESS,
      subaccount_id: subaccount,
      time_in_force: 'gtc',
      trigger_price: null,
      cancel_reason: '',
      label: '',
    };
  }

  /** A sample trade of an instrument at the mid, by a simulated taker or the given subaccount; does not touch the market. */
  sampleTrade(name: string, now = this.clock.now(), subaccount?: number): PublicTrade {
    const inst = this.instruments.get(name) ?? this.first();
    const cp = this.pickTaker();
    const lots = Math.max(1, Math.round(0.1 / inst.step));
    return this.tradeRecord(inst, {
      direction: 'buy',
      priceTicks: inst.midTicks,
      lots,
      role: 'taker',
      wallet: subaccount === undefined ? cp.address : (this.accounts.walletOf(subaccount) ?? ZERO_ADDRESS),
      subaccount: subaccount ?? cp.subaccount,
      fee: bps(this.notional(inst, inst.midTicks, lots), TAKER_FEE_BPS),
      realized: 0n,
      now,
    });
  }

  /** Any instrument of a type and currency (for trades.{type}.{currency} samples). */
  instrumentOf(type: string, currency: string): string | undefined {
    return [...this.instruments.values()].find((i) => i.cfg.instrument_type === type && i.cfg.base_currency === currency)?.cfg.instrument_name;
  }
}

/** The order fields of order and replace (AssumedOrderFields). */
export interface OrderFields {
  instrument_name: string;
  direction: 'buy' | 'sell';
  order_type: 'limit' | 'market';
  amount: string | number;
  limit_price: string | number;
  max_fee: string | number;
  time_in_force?: string;
  mmp?: boolean;
  label?: string;
}

/** The action fields every order-flow request carries (AssumedActionFields). */
export interface ActionFieldsLike {
  subaccount_id: number;
  nonce: string;
  signer: string;
  signature: string;
  signature_expiry_sec: number;
}

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

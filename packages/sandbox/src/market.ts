/**
 * The simulated market: seeded and deterministic (the same seed gives the same prices, books and
 * synthetic trades tick for tick), with a synthetic market maker around a random-walk mid price, the
 * users' resting orders on top, and the matching engine behind the order-flow methods.
 */
import type {
  AssumedLiveInstrument,
  AuctionResult,
  BalanceUpdate,
  BestQuoteChannelResult,
  MarginWatchResult,
  Order,
  PublicQuote,
  PublicRfq,
  PublicTrade,
  QuotePublishResult,
} from '@exchange-api/types';
import type { InstrumentConfig, ResolvedOptions } from './options';
import type { Accounts, Session } from './accounts';
import type { Clock } from './clock';
import { RpcFailure } from './rpc';

/** Where the market sends what it produces: the server's subscription index. */
export interface Publisher {
  /** Subscribed addresses of one channel id with their parameters. */
  addresses(channelId: string): ReadonlyMap<string, Record<string, string>>;
  /** Whether anyone is subscribed to this exact address. */
  wants(address: string): boolean;
  /** Push data to every subscriber of the address. */
  publish(address: string, data: unknown): void;
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

/** A number as a Decimal string: at most `dp` fractional digits, no trailing zeros, no `-0`. */
export function dec(x: number, dp = 12): string {
  if (!Number.isFinite(x)) return '0';
  let s = x.toFixed(Math.min(dp, 12));
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** Subaccount id of the synthetic market maker (the counterparty of fills against simulated liquidity). */
export const MARKET_MAKER_SUBACCOUNT = 0;
const TAKER_FEE = 0.0003;
const MAKER_FEE = 0.0001;
const LEVELS = 150;

/** A user's order on the book. */
interface Resting {
  order: Order;
  priceTicks: number;
  remaining: number;
  seq: number;
  wallet: string;
}

/** One instrument's state. */
interface Instrument {
  cfg: Required<InstrumentConfig>;
  index: number;
  tick: number;
  step: number;
  priceDp: number;
  amountDp: number;
  rng: () => number;
  midTicks: number;
  halfSpread: number;
  maxSpacing: number;
  publishId: number;
  /** Synthetic liquidity of the current tick: price in ticks → amount. Fills take from it until the next tick. */
  synBids: Map<number, number>;
  synAsks: Map<number, number>;
  /** User orders: bids best first (price desc, then time), asks best first (price asc, then time). */
  bids: Resting[];
  asks: Resting[];
  stats: { c: number; h: number; l: number; n: number; v: number; pr: number; open: number; oi: number; last: number };
}

/** A fill of one taker against one maker (user order or synthetic level). */
interface Fill {
  priceTicks: number;
  amount: number;
  maker: Resting | null;
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
  private seq = 0;
  private tickCount = 0;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly clock: Clock,
    private readonly accounts: Accounts,
    private readonly out: Publisher,
  ) {
    this.idRng = prng(options.seed ^ 0x5eed1d);
    options.instruments.forEach((cfg, index) => {
      const tick = Number(cfg.tick_size);
      const midTicks = Math.max(10, Math.round(cfg.price / tick));
      this.instruments.set(cfg.instrument_name, {
        cfg,
        index,
        tick,
        step: Number(cfg.amount_step),
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
        stats: { c: 0, h: cfg.price, l: cfg.price, n: 0, v: 0, pr: 0, open: cfg.price, oi: 0, last: cfg.price },
      });
      this.currencies.add(cfg.base_currency);
    });
    for (const inst of this.instruments.values()) this.regenerate(inst);
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

  private price(inst: Instrument, ticks: number): string {
    return dec(ticks * inst.tick, inst.priceDp);
  }

  private amount(inst: Instrument, a: number): string {
    return dec(a, inst.amountDp);
  }

  private mid(inst: Instrument): number {
    return inst.midTicks * inst.tick;
  }

  /** A UUID v4 from the seeded stream, so ids repeat across runs with the same seed. */
  uuid(): string {
    let hex = '';
    for (let i = 0; i < 4; i++) hex += Math.floor(this.idRng() * 0x100000000).toString(16).padStart(8, '0');
    const variant = '89ab'[parseInt(hex[16]!, 16) & 3]!;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

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
      const size = inst.step * Math.max(1, Math.round((0.2 + r() * 3) / inst.step));
      const size2 = inst.step * Math.max(1, Math.round((0.2 + r() * 3) / inst.step));
      if (bid > 0 && bid < bestUserAsk) inst.synBids.set(bid, size);
      if (ask > bestUserBid) inst.synAsks.set(ask, size2);
      bid -= 1 + Math.floor(r() * inst.maxSpacing);
      ask += 1 + Math.floor(r() * inst.maxSpacing);
    }
  }

  /** One market step: move every mid, let the simulated takers hit crossed user orders, refresh liquidity, print a trade now and then, publish the books. */
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
    this.publishBooks(now);
    if (this.tickCount % 10 === 0) this.publishSlow(now);
  }

  /** User orders the moved mid has run through are filled by the simulated takers, as on a real venue. */
  private fillCrossedUserOrders(inst: Instrument, now: number): void {
    const askEdge = inst.midTicks + inst.halfSpread;
    const bidEdge = inst.midTicks - inst.halfSpread;
    while (inst.bids[0] && inst.bids[0].priceTicks >= askEdge) {
      const maker = inst.bids[0];
      this.settleFill(inst, null, { priceTicks: maker.priceTicks, amount: maker.remaining, maker }, 'sell', now);
    }
    while (inst.asks[0] && inst.asks[0].priceTicks <= bidEdge) {
      const maker = inst.asks[0];
      this.settleFill(inst, null, { priceTicks: maker.priceTicks, amount: maker.remaining, maker }, 'buy', now);
    }
  }

  private syntheticTrade(inst: Instrument, now: number): void {
    const r = inst.rng;
    const direction = r() < 0.5 ? 'buy' : 'sell';
    const book = direction === 'buy' ? inst.synAsks : inst.synBids;
    const best = direction === 'buy' ? Math.min(...book.keys()) : Math.max(...book.keys());
    if (!Number.isFinite(best)) return;
    const amount = inst.step * Math.max(1, Math.round((0.01 + r() * 0.5) / inst.step));
    this.recordStats(inst, best * inst.tick, amount);
    const trade = this.tradeRecord(inst, {
      direction,
      priceTicks: best,
      amount,
      role: 'taker',
      wallet: ZERO_ADDRESS,
      subaccount: MARKET_MAKER_SUBACCOUNT + 1 + Math.floor(r() * 5),
      fee: 0,
      now,
    });
    this.publishPublicTrades(inst, [trade]);
  }

  private recordStats(inst: Instrument, price: number, amount: number): void {
    const s = inst.stats;
    s.c += amount;
    s.n += 1;
    s.v += price * amount;
    if (inst.cfg.instrument_type === 'option') s.pr += price * amount;
    s.h = Math.max(s.h, price);
    s.l = Math.min(s.l, price);
    s.last = price;
  }

  private tradeRecord(
    inst: Instrument,
    t: { direction: 'buy' | 'sell'; priceTicks: number; amount: number; role: 'maker' | 'taker'; wallet: string; subaccount: number; fee: number; now: number; tradeId?: string },
  ): PublicTrade {
    const mark = this.mid(inst);
    return {
      direction: t.direction,
      expected_rebate: '0',
      extra_fee: '0',
      index_price: dec(mark, inst.priceDp),
      mark_price: dec(mark, inst.priceDp),
      realized_pnl: '0',
      realized_pnl_excl_fees: '0',
      trade_amount: this.amount(inst, t.amount),
      trade_fee: dec(t.fee, 6),
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
    this.out.publish(`trades.${inst.cfg.instrument_name}`, trades);
    this.out.publish(`trades.${inst.cfg.instrument_type}.${inst.cfg.base_currency}`, trades);
  }

  /** Levels aggregated to the group (in ticks: bids round down, asks up), best first, at most depth. */
  book(name: string, group: number, depth: number): { bids: [string, string][]; asks: [string, string][] } | null {
    const inst = this.instruments.get(name);
    if (!inst) return null;
    const side = (syn: Map<number, number>, users: Resting[], isBid: boolean) => {
      const agg = new Map<number, number>();
      const add = (ticks: number, amt: number) => {
        const g = isBid ? Math.floor(ticks / group) * group : Math.ceil(ticks / group) * group;
        agg.set(g, (agg.get(g) ?? 0) + amt);
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

  private publishBooks(now: number): void {
    for (const [address, p] of this.out.addresses('orderbook')) {
      const payload = this.orderbookPayload(p.instrument_name!, Number(p.group), Number(p.depth), now);
      if (payload) this.out.publish(address, payload);
    }
    for (const [address, p] of this.out.addresses('spotFeed')) this.out.publish(address, this.spotFeed(p.currency!, now));
  }

  /** Channels with a slower cadence (about once a second of market ticks): auctions, margin, RFQs. */
  private publishSlow(now: number): void {
    if (this.out.wants('auctions.watch')) this.out.publish('auctions.watch', this.auctions(now));
    if (this.out.wants('margin.watch')) this.out.publish('margin.watch', this.margins(now));
    for (const [address, p] of this.out.addresses('walletRfqs')) this.out.publish(address, [this.rfq(p.wallet!, now)]);
    for (const [address, p] of this.out.addresses('subaccountQuotes')) this.out.publish(address, [this.quote(Number(p.subaccount_id), now)]);
    for (const [address, p] of this.out.addresses('subaccountBestQuotes')) this.out.publish(address, [this.bestQuote(Number(p.subaccount_id), now)]);
  }

  /** Publish the ticker channels of one cadence (100 or 1000 ms, the channel's interval parameter). */
  publishTickers(interval: string): void {
    const now = this.clock.now();
    for (const [address, p] of this.out.addresses('tickerSlim')) {
      if (p.interval === interval) {
        const t = this.ticker(p.instrument_name!, now);
        if (t) this.out.publish(address, t);
      }
    }
  }

  /** TickerSlimPayload (fields not shown in the document; this shape embeds DailyTradingStatistics as stats and OptionPricing as option_pricing). */
  ticker(name: string, now = this.clock.now()): Record<string, unknown> | null {
    const inst = this.instruments.get(name);
    if (!inst) return null;
    const b = this.book(name, 1, 1)!;
    const s = inst.stats;
    const mark = this.mid(inst);
    const ticker: Record<string, unknown> = {
      t: now,
      A: b.asks[0]?.[1] ?? '0',
      a: b.asks[0]?.[0] ?? '0',
      B: b.bids[0]?.[1] ?? '0',
      b: b.bids[0]?.[0] ?? '0',
      f: inst.cfg.instrument_type === 'perp' ? '0.00001' : '0',
      I: dec(mark, inst.priceDp),
      M: dec(mark, inst.priceDp),
      minp: dec(mark * 0.9, inst.priceDp),
      maxp: dec(mark * 1.1, inst.priceDp),
      stats: {
        c: dec(s.c, inst.amountDp),
        h: dec(s.h, inst.priceDp),
        l: dec(s.l, inst.priceDp),
        n: s.n,
        oi: dec(s.oi, inst.amountDp),
        p: dec(((mark - s.open) / s.open) * 100, 6),
        pr: dec(s.pr, 6),
        v: dec(s.v, 6),
      },
      option_pricing:
        inst.cfg.instrument_type === 'option'
          ? { ai: '0.62', bi: '0.58', d: '0.52', df: '0.99', f: dec(mark * 12, 2), g: '0.0004', i: '0.6', m: dec(mark, inst.priceDp), r: '1.2', t: '-2.1', v: '3.4' }
          : null,
    };
    return { timestamp: now, instrument_ticker: ticker };
  }

  /** SpotFeedPayload (fields not shown; this shape maps the currency to a SpotFeedEntry). */
  spotFeed(currency: string, now = this.clock.now()): Record<string, unknown> {
    const inst = [...this.instruments.values()].find((i) => i.cfg.base_currency === currency && i.cfg.instrument_type !== 'option');
    const price = inst ? this.mid(inst) : 1;
    const entry = { price: dec(price, 6), confidence: '1', price_prev_daily: dec(inst?.stats.open ?? price, 6), confidence_prev_daily: '1', timestamp_prev_daily: now - 86_400_000 };
    return { timestamp: now, feeds: { [currency]: entry } };
  }

  /** auctions.watch: a simulated account in auction, and one whose auction ended. */
  auctions(now = this.clock.now()): AuctionResult[] {
    const eth = this.instruments.values().next().value as Instrument;
    const mark = this.mid(eth);
    return [
      {
        state: 'ongoing',
        subaccount_id: 900_001,
        timestamp: now,
        details: {
          estimated_bid_price: dec(mark * 0.95, 2),
          estimated_discount_pnl: '-120.5',
          estimated_mtm: dec(mark * 2, 2),
          estimated_percent_bid: '0.25',
          margin_type: 'SM',
          min_price_limit: dec(mark * 0.9, 2),
          subaccount_balances: { USDC: '1500', [eth.cfg.instrument_name]: '-2' },
          currency: null,
        },
      },
      { state: 'ended', subaccount_id: 900_002, timestamp: now, details: null },
    ];
  }

  /** margin.watch: every known subaccount's margin state (first 50), valued at the mids. */
  margins(now = this.clock.now()): MarginWatchResult[] {
    const out: MarginWatchResult[] = [];
    for (const [id, book] of this.accounts.balances) {
      if (out.length >= 50) break;
      let value = 0;
      const collaterals: unknown[] = [];
      const positions: unknown[] = [];
      for (const [asset, amount] of book) {
        const inst = this.instruments.get(asset);
        if (inst) {
          positions.push({ instrument_name: asset, amount: dec(amount, inst.amountDp), mark_price: dec(this.mid(inst), inst.priceDp) });
          value += amount * this.mid(inst);
        } else {
          collaterals.push({ asset_name: asset, amount: dec(amount) });
          value += asset === 'USDC' ? amount : amount * this.spotPrice(asset);
        }
      }
      out.push({
        collaterals,
        currency: 'USDC',
        initial_margin: dec(value * 0.1, 6),
        maintenance_margin: dec(value * 0.05, 6),
        margin_type: 'SM',
        positions,
        subaccount_id: id,
        subaccount_value: dec(value, 6),
        valuation_timestamp: now,
      });
    }
    if (out.length === 0) {
      out.push({ collaterals: [], currency: 'USDC', initial_margin: '0', maintenance_margin: '0', margin_type: 'SM', positions: [], subaccount_id: 900_001, subaccount_value: '0', valuation_timestamp: now });
    }
    return out;
  }

  private spotPrice(currency: string): number {
    const inst = [...this.instruments.values()].find((i) => i.cfg.base_currency === currency && i.cfg.instrument_type !== 'option');
    return inst ? this.mid(inst) : 0;
  }

  private legs(): { leg: Instrument; amount: string; direction: 'buy' | 'sell'; price: string } {
    const list = [...this.instruments.values()];
    const leg = list[Math.floor(this.idRng() * list.length)]!;
    return { leg, amount: this.amount(leg, leg.step * 10), direction: this.idRng() < 0.5 ? 'buy' : 'sell', price: dec(this.mid(leg), leg.priceDp) };
  }

  /** An RFQ for `{wallet}.rfqs`. */
  rfq(wallet: string, now = this.clock.now()): PublicRfq {
    const { leg, amount, direction } = this.legs();
    const subs = this.accounts.subaccountsOf(wallet);
    return {
      cancel_reason: '',
      creation_timestamp: now,
      fill_rate: null,
      filled_pct: '0',
      last_update_timestamp: now,
      legs: [{ amount, direction, instrument_name: leg.cfg.instrument_name }],
      partial_fill_step: '1',
      recent_fill_rate: null,
      rfq_id: this.uuid(),
      status: 'open',
      subaccount_id: subs[0] ?? 0,
      total_cost: null,
      valid_until: now + 60_000,
      wallet,
      filled_direction: null,
    };
  }

  private publicQuote(subaccount: number, rfqId: string, now: number): PublicQuote {
    const { leg, amount, direction, price } = this.legs();
    return {
      cancel_reason: '',
      creation_timestamp: now,
      direction,
      fill_pct: '0',
      last_update_timestamp: now,
      legs: [{ amount, direction, instrument_name: leg.cfg.instrument_name, price }],
      legs_hash: `0x${this.uuid().replace(/-/g, '')}${this.uuid().replace(/-/g, '')}`,
      liquidity_role: 'maker',
      quote_id: this.uuid(),
      rfq_id: rfqId,
      status: 'open',
      subaccount_id: subaccount,
      wallet: this.accounts.walletOf(subaccount) ?? ZERO_ADDRESS,
    };
  }

  /** A quote for `{subaccount_id}.quotes`. */
  quote(subaccount: number, now = this.clock.now()): QuotePublishResult {
    const q = this.publicQuote(subaccount, this.uuid(), now);
    return {
      creation_timestamp: now,
      direction: q.direction,
      extra_fee: '0',
      fee: '0.5',
      fill_pct: '0',
      is_transfer: false,
      label: '',
      last_update_timestamp: now,
      legs: q.legs,
      legs_hash: q.legs_hash,
      liquidity_role: 'maker',
      max_fee: '10',
      mmp: false,
      nonce: String(now * 1000),
      quote_id: q.quote_id,
      rfq_id: q.rfq_id,
      signature: `0x${'11'.repeat(65)}`,
      signature_expiry_sec: Math.floor(now / 1000) + 3600,
      signer: q.wallet,
      status: 'open',
      subaccount_id: subaccount,
      batch_status: null,
      cancel_reason: null,
      tx_hash: null,
    };
  }

  /** A best-quote result for `{subaccount_id}.best.quotes`. */
  bestQuote(subaccount: number, now = this.clock.now()): BestQuoteChannelResult {
    const rfqId = this.uuid();
    const q = this.publicQuote(subaccount, rfqId, now);
    return {
      rfq_id: rfqId,
      error: null,
      result: {
        direction: q.direction,
        down_liquidation_price: null,
        estimated_fee: '0.5',
        estimated_realized_pnl: '0',
        estimated_realized_pnl_excl_fees: '0',
        estimated_total_cost: dec(Number(q.legs[0]!.price) * Number(q.legs[0]!.amount), 6),
        filled_pct: '0',
        is_valid: true,
        orderbook_total_cost: null,
        post_initial_margin: '100',
        pre_initial_margin: '0',
        suggested_max_fee: '1',
        post_liquidation_price: null,
        up_liquidation_price: null,
        best_quote: q,
        invalid_reason: null,
      },
    };
  }

  /** The current balances of a subaccount as BalanceUpdate records (used for generated samples). */
  balanceSnapshot(subaccount: number): BalanceUpdate[] {
    const book = this.accounts.balances.get(subaccount);
    const out: BalanceUpdate[] = [];
    for (const [name, amount] of book ?? []) out.push({ name, new_balance: dec(amount, 8), previous_balance: dec(amount, 8), update_type: 'trade' });
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

  private checkOrder(p: OrderFields): { inst: Instrument; priceTicks: number; amount: number; tif: string } {
    const inst = this.instrumentOrReject(p.instrument_name);
    const amount = Number(p.amount);
    const price = Number(p.limit_price);
    if (!(amount > 0)) throw new RpcFailure(11000, `amount must be above zero (got ${p.amount})`);
    if (!isMultiple(amount, inst.step)) throw new RpcFailure(11000, `amount ${p.amount} is not a multiple of amount_step ${inst.cfg.amount_step}`);
    if (!(price > 0)) throw new RpcFailure(11000, `limit_price must be above zero (got ${p.limit_price})`);
    if (!isMultiple(price, inst.tick)) throw new RpcFailure(11000, `limit_price ${p.limit_price} is not a multiple of tick_size ${inst.cfg.tick_size}`);
    if (!(Number(p.max_fee) >= 0)) throw new RpcFailure(11000, `max_fee must not be negative (got ${p.max_fee})`);
    const tif = p.time_in_force ?? 'gtc';
    if (!['gtc', 'ioc', 'fok', 'post_only'].includes(tif)) throw new RpcFailure(11000, `time_in_force ${JSON.stringify(tif).slice(0, 40)} is not one of gtc, ioc, fok, post_only`);
    return { inst, priceTicks: Math.round(price / inst.tick), amount: roundTo(amount, inst.step), tif };
  }

  /** Best opposite liquidity at or better than the limit, in price-time priority (user orders before synthetic at one price). */
  private plan(inst: Instrument, direction: 'buy' | 'sell', limitTicks: number, amount: number): Fill[] {
    const users = direction === 'buy' ? inst.asks : inst.bids;
    const syn = direction === 'buy' ? inst.synAsks : inst.synBids;
    const synPrices = [...syn.keys()].sort((a, b) => (direction === 'buy' ? a - b : b - a));
    const better = (a: number, b: number) => (direction === 'buy' ? a <= b : a >= b);
    const fills: Fill[] = [];
    let left = amount;
    let ui = 0;
    let si = 0;
    while (left > 1e-12) {
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
      fills.push({ priceTicks: price, amount: take, maker: pick === 'u' ? u! : null });
      left -= take;
      if (pick === 'u') ui++;
      else si++;
    }
    return fills;
  }

  /** Apply one fill: order records, balances, trades, and the pushes on the private and public channels. Returns the taker's trade. */
  private settleFill(inst: Instrument, taker: Resting | null, fill: Fill, takerDirection: 'buy' | 'sell', now: number): PublicTrade {
    const tradeId = this.uuid();
    const notional = fill.priceTicks * inst.tick * fill.amount;
    this.recordStats(inst, fill.priceTicks * inst.tick, fill.amount);
    const takerRecord = this.tradeRecord(inst, {
      direction: takerDirection,
      priceTicks: fill.priceTicks,
      amount: fill.amount,
      role: 'taker',
      wallet: taker?.wallet ?? ZERO_ADDRESS,
      subaccount: taker?.order.subaccount_id ?? MARKET_MAKER_SUBACCOUNT,
      fee: taker ? notional * TAKER_FEE : 0,
      now,
      tradeId,
    });
    if (taker) this.applyToOrder(inst, taker, fill, notional * TAKER_FEE, now, takerRecord);
    if (fill.maker) {
      const makerDirection = takerDirection === 'buy' ? 'sell' : 'buy';
      const makerRecord = this.tradeRecord(inst, {
        direction: makerDirection,
        priceTicks: fill.priceTicks,
        amount: fill.amount,
        role: 'maker',
        wallet: fill.maker.wallet,
        subaccount: fill.maker.order.subaccount_id,
        fee: notional * MAKER_FEE,
        now,
        tradeId,
      });
      this.applyToOrder(inst, fill.maker, fill, notional * MAKER_FEE, now, makerRecord);
      if (fill.maker.remaining <= 1e-12) this.removeResting(inst, fill.maker);
    } else {
      const syn = takerDirection === 'buy' ? inst.synAsks : inst.synBids;
      const left = (syn.get(fill.priceTicks) ?? 0) - fill.amount;
      if (left > 1e-12) syn.set(fill.priceTicks, left);
      else syn.delete(fill.priceTicks);
    }
    if (!taker) this.publishPublicTrades(inst, [takerRecord]);
    return takerRecord;
  }

  private applyToOrder(inst: Instrument, r: Resting, fill: Fill, fee: number, now: number, record: PublicTrade): void {
    const o = r.order;
    const filledBefore = Number(o.filled_amount);
    const filled = roundTo(filledBefore + fill.amount, inst.step);
    const price = fill.priceTicks * inst.tick;
    const avg = filled > 0 ? (Number(o.average_price) * filledBefore + price * fill.amount) / filled : 0;
    r.remaining = roundTo(r.remaining - fill.amount, inst.step);
    o.filled_amount = this.amount(inst, filled);
    o.average_price = dec(avg, Math.min(12, inst.priceDp + 4));
    o.order_fee = dec(Number(o.order_fee) + fee, 6);
    o.last_update_timestamp = now;
    if (r.remaining <= 1e-12) {
      o.order_status = 'filled';
      this.orders.delete(o.order_id);
    }
    const sub = o.subaccount_id;
    const sign = o.direction === 'buy' ? 1 : -1;
    const position = inst.cfg.instrument_type === 'erc20' ? inst.cfg.base_currency : inst.cfg.instrument_name;
    const updates = [
      this.accounts.adjust(sub, position, sign * fill.amount),
      this.accounts.adjust(sub, inst.cfg.quote_currency, -sign * price * fill.amount - fee),
    ];
    this.out.publish(`${sub}.orders`, [{ ...o }]);
    this.out.publish(`${sub}.trades`, [record]);
    this.out.publish(
      `${sub}.balances`,
      updates.map((u): BalanceUpdate => ({ name: u.name, new_balance: dec(u.next, 8), previous_balance: dec(u.previous, 8), update_type: 'trade' })),
    );
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
    const { inst, priceTicks, amount, tif } = this.checkOrder(p);
    return this.execute(session, p, inst, priceTicks, amount, tif, replaced);
  }

  private execute(session: Session, p: OrderFields & ActionFieldsLike, inst: Instrument, priceTicks: number, amount: number, tif: string, replaced: string | null): OrderOutcome {
    const now = this.clock.now();
    const isMarket = p.order_type === 'market';
    const fills = this.plan(inst, p.direction, priceTicks, amount);
    const fillable = fills.reduce((s, f) => s + f.amount, 0);
    if (tif === 'post_only' && fills.length > 0) throw new RpcFailure(11000, `post_only order would cross the book at ${this.price(inst, fills[0]!.priceTicks)}`);
    if (tif === 'fok' && fillable + 1e-12 < amount) throw new RpcFailure(11000, `fok order cannot be filled in full (${this.amount(inst, fillable)} of ${this.amount(inst, amount)} available)`);
    const cash = this.accounts.balances.get(p.subaccount_id)?.get(inst.cfg.quote_currency) ?? 0;
    if (p.direction === 'buy' && amount * priceTicks * inst.tick > Math.max(0, cash) * 10) {
      throw new RpcFailure(11000, `insufficient margin: order notional ${dec(amount * priceTicks * inst.tick, 2)} exceeds 10x the ${inst.cfg.quote_currency} balance`);
    }
    const order: Order = {
      amount: this.amount(inst, amount),
      average_price: '0',
      creation_timestamp: now,
      direction: p.direction,
      extra_fee: '0',
      filled_amount: '0',
      instrument_name: inst.cfg.instrument_name,
      is_transfer: false,
      last_update_timestamp: now,
      limit_price: this.price(inst, priceTicks),
      max_fee: dec(Number(p.max_fee)),
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
    const taker: Resting = { order, priceTicks, remaining: amount, seq: ++this.seq, wallet: session.wallet };
    this.orders.set(order.order_id, taker);
    const trades: PublicTrade[] = [];
    for (const f of fills) trades.push(this.settleFill(inst, taker, f, p.direction, now));
    this.publishPublicTrades(inst, trades);
    if (taker.remaining > 1e-12) {
      if (isMarket || tif === 'ioc' || tif === 'fok') {
        this.orders.delete(order.order_id);
        order.order_status = 'cancelled';
        order.cancel_reason = 'ioc_or_market_partial_fill';
        order.last_update_timestamp = now;
        this.out.publish(`${order.subaccount_id}.orders`, [{ ...order }]);
      } else {
        this.insertResting(inst, taker);
        if (fills.length === 0) this.out.publish(`${order.subaccount_id}.orders`, [{ ...order }]);
      }
    }
    return { order: { ...order }, trades };
  }

  /** `replace`: check the new order, cancel the old one (11001 when not open), place the new one. */
  replace(session: Session, p: OrderFields & ActionFieldsLike & { order_id_to_cancel: string }): { cancelled_order: Order; order: Order; trades: PublicTrade[] } {
    const checked = this.checkOrder(p);
    const old = this.openOrder(p.subaccount_id, p.order_id_to_cancel);
    const cancelled = this.cancelResting(old, 'user_request');
    const placed = this.execute(session, p, checked.inst, checked.priceTicks, checked.amount, checked.tif, isUuid(old.order.order_id) ? old.order.order_id : null);
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
    this.out.publish(`${r.order.subaccount_id}.orders`, [copy]);
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

  /** A sample Order record for generated pushes. */
  sampleOrder(subaccount: number): Order {
    const inst = this.instruments.values().next().value as Instrument;
    const now = this.clock.now();
    return {
      amount: this.amount(inst, inst.step * 10),
      average_price: '0',
      creation_timestamp: now,
      direction: 'buy',
      extra_fee: '0',
      filled_amount: '0',
      instrument_name: inst.cfg.instrument_name,
      is_transfer: false,
      last_update_timestamp: now,
      limit_price: this.price(inst, inst.midTicks - inst.halfSpread * 10),
      max_fee: '10',
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

  /** A sample public trade of an instrument (for generated pushes); does not touch the market. */
  sampleTrade(name: string, subaccount = MARKET_MAKER_SUBACCOUNT + 1, wallet = ZERO_ADDRESS): PublicTrade | null {
    const inst = this.instruments.get(name);
    if (!inst) return null;
    return this.tradeRecord(inst, { direction: 'buy', priceTicks: inst.midTicks, amount: inst.step * 10, role: 'taker', wallet, subaccount, fee: 0, now: this.clock.now() });
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

function isMultiple(x: number, step: number): boolean {
  const q = x / step;
  return Math.abs(q - Math.round(q)) < 1e-6;
}

function roundTo(x: number, step: number): number {
  return Math.round(x / step) * step;
}

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/**
 * Liquidation (docs/sandbox.md, "Margin and liquidation"): a subaccount whose value falls below its
 * maintenance margin (margin.ts, at the marks) goes to auction: its open orders are cancelled
 * (`insufficient_margin`), it takes no new order, and auctions.watch pushes it `ongoing` with its
 * AuctionDetails. A liquidator bids (private/liquidate) for a fraction of the account: it takes that
 * fraction of every position and spot holding at the mark (booked as trades at the mark, so neither side's
 * value moves by them) and is paid the auction's discount on that fraction of the account's value, out of
 * the liquidated account's cash. The auction ends (`ended`) once the account is back above maintenance,
 * holds no position, or has run `margin.auctionMs` on the sandbox clock. An account whose value is at
 * or below zero is in an insolvent auction: nothing of it is worth a bid, so bids are refused and it
 * ends unbid. The simulation's counterparties are the market's backstop and never go to auction.
 */
import type { AuctionDetails, AuctionResult } from '@exchange-api/types';
import { keccak256, toUtf8Bytes } from 'ethers';
import { address } from '../channels';
import type { Clock } from '../clock';
import { ONE, fixed, fmt, max, min, mul, parseFixed } from '../fixed';
import { RpcFailure } from '../rpc';
import { amt, type Instrument } from './instrument';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { Margin } from './margin';
import type { Streams } from './random';
import type { Publisher } from './types';

/** One bid, as derive-ts 3.0.13's AuctionBidEvent (src/api/subaccounts.ts) shows it. */
export interface AuctionBid {
  amounts_liquidated: Record<string, string>;
  cash_received: string;
  discount_pnl: string;
  percent_liquidated: string;
  positions_realized_pnl: Record<string, string>;
  positions_realized_pnl_excl_fees: Record<string, string>;
  realized_pnl: string;
  realized_pnl_excl_fees: string;
  timestamp: number;
  tx_hash: string;
  /** The bidder's subaccount (the liquidator history's). */
  liquidator_subaccount_id: number;
}

/** One auction, as derive-ts's AuctionHistory shows it. */
export interface Auction {
  auction_id: string;
  auction_type: 'solvent' | 'insolvent';
  bids: AuctionBid[];
  end_timestamp: number | null;
  fee: string;
  start_timestamp: number;
  subaccount_id: number;
  tx_hash: string;
}

/** What a bid names (LiquidateParams, less its signature). */
export interface Bid {
  subaccount_id: number;
  liquidated_account_id: number;
  percent_of_acc: string | number;
  price_limit: string | number;
  last_seen_trade_id: number;
}

const notOngoing = (data: string) => RpcFailure.of('RPC_AUCTION_NOT_ONGOING', data);
const rejected = (data: string) => RpcFailure.of('RPC_ORDER_REJECTED', data);
const HISTORY_KEPT = 5000;

/** The auctions: started, bid on, ended. */
export class Liquidation {
  private readonly live = new Map<number, Auction>();
  private readonly history: Auction[] = [];
  private operations = 0;

  constructor(
    private readonly instruments: Instruments,
    private readonly ledger: Ledger,
    private readonly margin: Margin,
    private readonly streams: Streams,
    private readonly clock: Clock,
    private readonly out: Publisher,
    /** Cancel every open order of a subaccount, with a reason. */
    private readonly cancelAll: (subaccount: number) => void,
    /** The simulation's own subaccounts, never liquidated. */
    private readonly exempt: (subaccount: number) => boolean,
  ) {}

  /** Whether a subaccount is in an auction now. */
  inAuction(subaccount: number): boolean {
    return this.live.has(subaccount);
  }

  /** Whether the subaccount holds a perp or option position. */
  private holdsPositions(subaccount: number): boolean {
    for (const [asset, amount] of this.ledger.accounts.balances.get(subaccount) ?? [])
      if (amount !== 0n && this.instruments.get(asset)?.cfg.instrument_type !== 'erc20' && this.instruments.get(asset))
        return true;
    return false;
  }

  /** Below maintenance with positions: what sends an account to auction. */
  private underwater(subaccount: number): boolean {
    if (this.exempt(subaccount) || !this.holdsPositions(subaccount)) return false;
    const v = this.margin.valuation(subaccount);
    return v.value < v.maintenance;
  }

  /** Start the auctions of every account under maintenance, and end those that are done. */
  check(now: number): void {
    for (const sub of this.ledger.accounts.balances.keys())
      if (!this.live.has(sub) && this.underwater(sub)) this.start(sub, now);
    for (const [sub, a] of this.live) if (this.done(sub, a, now)) this.end(sub, a, now);
  }

  private done(sub: number, a: Auction, now: number): boolean {
    return !this.underwater(sub) || now - a.start_timestamp >= this.margin.model.auctionMs;
  }

  /** public/start_auction: the subaccount's auction (started now when due), or why there is none. */
  startAuction(subaccount: number): { op_uuid: string; operation_id: number } {
    const now = this.clock.now();
    let a = this.live.get(subaccount);
    if (!a) {
      if (!this.ledger.accounts.balances.has(subaccount))
        throw notOngoing(`no subaccount ${subaccount} is known here, so none is in auction`);
      if (!this.underwater(subaccount)) {
        const v = this.margin.valuation(subaccount);
        throw notOngoing(
          `subaccount ${subaccount} is not below its maintenance margin (value ${fmt(v.value, 2)}, ` +
            `maintenance ${fmt(v.maintenance, 2)}), so it cannot be auctioned`,
        );
      }
      a = this.start(subaccount, now);
    }
    return this.operation(a.auction_id);
  }

  private start(subaccount: number, now: number): Auction {
    const v = this.margin.valuation(subaccount);
    const id = this.streams.uuid('auctions');
    const a: Auction = {
      auction_id: id,
      auction_type: v.value > 0n ? 'solvent' : 'insolvent',
      bids: [],
      end_timestamp: null,
      fee: '0',
      start_timestamp: now,
      subaccount_id: subaccount,
      tx_hash: keccak256(toUtf8Bytes(`exchange-api sandbox auction ${id}`)),
    };
    this.live.set(subaccount, a);
    this.keep(a);
    this.cancelAll(subaccount);
    this.out.publish(address('auctionsWatch', {}), [this.record(a, now)]);
    return a;
  }

  private end(subaccount: number, a: Auction, now: number): void {
    a.end_timestamp = now;
    this.live.delete(subaccount);
    this.out.publish(address('auctionsWatch', {}), [this.record(a, now)]);
  }

  private keep(a: Auction): void {
    this.history.push(a);
    if (this.history.length > HISTORY_KEPT) this.history.shift();
  }

  private operation(seed: string) {
    this.operations++;
    return { op_uuid: this.streams.uuid(`liquidation operations ${seed}`), operation_id: this.operations };
  }

  /** auctions.watch: every live auction. */
  watch(now: number): AuctionResult[] {
    return [...this.live.values()].map((a) => this.record(a, now));
  }

  private record(a: Auction, now: number): AuctionResult {
    if (a.end_timestamp !== null)
      return { state: 'ended', subaccount_id: a.subaccount_id, timestamp: now, details: null };
    return { state: 'ongoing', subaccount_id: a.subaccount_id, timestamp: now, details: this.details(a.subaccount_id) };
  }

  /**
   * The whole account's price is its value less the discount; the share a bid needs so that what is left
   * is back at maintenance: (maintenance - value) / (maintenance - value × discount), at most 1.
   */
  private details(subaccount: number): AuctionDetails {
    const v = this.margin.valuation(subaccount);
    const discount = fixed(this.margin.model.auctionDiscount.toFixed(12));
    const price = max(mul(v.value, ONE - discount), 0n);
    const gap = v.maintenance - mul(max(v.value, 0n), discount);
    const share = gap > 0n ? min(ONE, max(0n, ((v.maintenance - v.value) * ONE) / gap)) : ONE;
    const balances: Record<string, string> = {};
    for (const [asset, amount] of this.ledger.accounts.balances.get(subaccount) ?? []) balances[asset] = fmt(amount);
    return {
      estimated_bid_price: fmt(price, 6),
      estimated_discount_pnl: fmt(-mul(max(v.value, 0n), discount), 6),
      estimated_mtm: fmt(v.value, 6),
      estimated_percent_bid: fmt(share, 6),
      margin_type: 'SM',
      min_price_limit: fmt(price, 6),
      subaccount_balances: balances,
      currency: null,
    };
  }

  /** The auctions of these subaccounts (all, for null), newest first, within [from, to] of their start. */
  historyOf(subaccounts: readonly number[] | null, from?: number | null, to?: number | null): Auction[] {
    return this.history
      .filter((a) => subaccounts === null || subaccounts.includes(a.subaccount_id))
      .filter((a) => (from == null || a.start_timestamp >= from) && (to == null || a.start_timestamp <= to))
      .reverse();
  }

  /** The bids these subaccounts made as liquidators, newest first. */
  bidsBy(subaccounts: readonly number[]): AuctionBid[] {
    return this.history
      .flatMap((a) => a.bids)
      .filter((b) => subaccounts.includes(b.liquidator_subaccount_id))
      .sort((x, y) => y.timestamp - x.timestamp);
  }

  /** The live auction a bid names, and the fraction it asks for, or why the bid cannot be made. */
  auctionFor(bid: Bid): { auction: Auction; share: bigint } {
    const a = this.live.get(bid.liquidated_account_id);
    if (!a) throw notOngoing(`liquidated_account_id: subaccount ${bid.liquidated_account_id} is in no live auction`);
    if (bid.liquidated_account_id === bid.subaccount_id)
      throw rejected('subaccount_id: a subaccount cannot bid in its own auction');
    if (a.auction_type === 'insolvent')
      throw rejected(
        `subaccount ${a.subaccount_id}'s auction is insolvent: its value is not above zero, nothing to bid for`,
      );
    if (bid.last_seen_trade_id !== a.bids.length)
      throw RpcFailure.of(
        'RPC_LAST_TRADE_ID_MISMATCH',
        `last_seen_trade_id: ${bid.last_seen_trade_id} is stale; the auction has had ${a.bids.length} bid(s) ` +
          "(the sandbox numbers an auction's bids from 1; send the count seen)",
      );
    const share = parseFixed(String(bid.percent_of_acc));
    if (share === null || share <= 0n || share > ONE)
      throw rejected(`percent_of_acc: must be above 0 and at most 1 (got ${bid.percent_of_acc})`);
    return { auction: a, share };
  }

  /** The instruments a subaccount holds positions or spot tokens of, with the lots a share of each is. */
  shareOf(subaccount: number, share: bigint): { inst: Instrument; lots: number; sign: 1 | -1 }[] {
    const out: { inst: Instrument; lots: number; sign: 1 | -1 }[] = [];
    for (const inst of this.instruments.all()) {
      const held = this.ledger.accounts.balance(
        subaccount,
        inst.cfg.instrument_type === 'erc20' ? inst.cfg.base_currency : inst.cfg.instrument_name,
      );
      const lots = Number(mul(held < 0n ? -held : held, share) / amt(inst, 1));
      if (lots > 0) out.push({ inst, lots, sign: held > 0n ? 1 : -1 });
    }
    return out;
  }

  /** Record a bid that was carried out; ends the auction when it is done. */
  recordBid(a: Auction, bid: AuctionBid): { op_uuid: string; operation_id: number } {
    a.bids.push(bid);
    const now = this.clock.now();
    if (this.done(a.subaccount_id, a, now)) this.end(a.subaccount_id, a, now);
    else this.out.publish(address('auctionsWatch', {}), [this.record(a, now)]);
    return this.operation(`${a.auction_id} ${a.bids.length}`);
  }
}

/**
 * The RFQs and quotes of the sandbox's users and its simulated maker: their records, the wire views
 * of each (the taker's RFQPrivate, the makers' PublicRfq, the maker's QuotePrivate and
 * QuotePublishResult, the taker's PublicQuote), and the store that finds them, newest first.
 */
import type {
  PublicQuote,
  PublicRfq,
  QuotePrivate,
  QuotePublishResult,
  RFQCancelReason,
  RFQPrivate,
  RFQStatus,
} from '@exchange-api/types';
import { fmt } from '../fixed';
import { legsHash } from './rfqs';
import { markCost, pricedWire, quotedCost, unpricedWire, type Leg, type PricedLeg } from './rfq-legs';
import type { Direction } from './types';

/** Closed RFQs and quotes are kept, for the reads, up to this many of each (the oldest go first). */
const CLOSED_KEPT = 5000;

/** An RFQ as the sandbox keeps it. */
export interface RfqEntry {
  id: string;
  subaccount: number;
  wallet: string;
  legs: Leg[];
  label: string;
  /** The makers' wallets that may quote it (checksummed), or null: any but the taker's own. */
  counterparties: string[] | null;
  maxTotalCost: bigint | null;
  minTotalCost: bigint | null;
  partialFillStep: string;
  created: number;
  updated: number;
  validUntil: number;
  status: RFQStatus;
  cancelReason: RFQCancelReason;
  filledDirection: Direction | null;
  totalCost: bigint | null;
  /** Its quotes' ids, oldest first. */
  quotes: string[];
  /** Whether the simulated maker has answered it. */
  answered: boolean;
}

/** A quote (or, with `role` taker, the taker's execution record of one) as the sandbox keeps it. */
export interface QuoteEntry {
  id: string;
  rfqId: string;
  subaccount: number;
  wallet: string;
  signer: string;
  signature: string;
  direction: Direction;
  legs: PricedLeg[];
  maxFee: bigint;
  fee: bigint;
  nonce: string;
  expirySec: number;
  label: string;
  created: number;
  updated: number;
  status: RFQStatus;
  cancelReason: RFQCancelReason;
  isTransfer: boolean;
  txHash: string | null;
  /** `taker`: the taker's record of its execution (or of a position transfer's); else a maker's quote. */
  role?: 'taker';
}

export const isOpen = (e: { status: RFQStatus }) => e.status === 'open';

/** The makers' view of an RFQ (`{wallet}.rfqs`, poll_rfqs). */
export function publicRfq(e: RfqEntry): PublicRfq {
  return {
    cancel_reason: e.cancelReason,
    creation_timestamp: e.created,
    fill_rate: null,
    filled_pct: e.status === 'filled' ? '1' : '0',
    last_update_timestamp: e.updated,
    legs: e.legs.map(unpricedWire),
    partial_fill_step: e.partialFillStep,
    recent_fill_rate: null,
    rfq_id: e.id,
    status: e.status,
    subaccount_id: e.subaccount,
    total_cost: e.totalCost === null ? null : fmt(e.totalCost),
    valid_until: e.validUntil,
    wallet: e.wallet,
    filled_direction: e.filledDirection,
  };
}

/** The taker's view of its RFQ (send_rfq, get_rfqs): with the best open quotes' costs and the mark's, to buy. */
export function privateRfq(e: RfqEntry, openQuotes: readonly QuoteEntry[]): RFQPrivate {
  const best = (quoteSide: Direction) => {
    const costs = openQuotes.filter((q) => q.direction === quoteSide).map((q) => quotedCost(q.legs, 'buy'));
    return costs.length === 0
      ? null
      : fmt(costs.reduce((a, b) => (quoteSide === 'sell' ? (b < a ? b : a) : b > a ? b : a)));
  };
  const { fill_rate: _f, recent_fill_rate: _r, ...shared } = publicRfq(e);
  return {
    ...shared,
    ask_total_cost: best('sell'),
    bid_total_cost: best('buy'),
    counterparties: e.counterparties,
    label: e.label,
    mark_total_cost: fmt(markCost(e.legs, 'buy')),
    max_total_cost: e.maxTotalCost === null ? null : fmt(e.maxTotalCost),
    min_total_cost: e.minTotalCost === null ? null : fmt(e.minTotalCost),
    filled_direction: e.filledDirection,
  };
}

/** The maker's own record of its quote (send_quote, get_quotes, cancel_quote). */
export function privateQuote(q: QuoteEntry): QuotePrivate {
  const legs = q.legs.map(pricedWire);
  return {
    cancel_reason: q.cancelReason,
    creation_timestamp: q.created,
    direction: q.direction,
    extra_fee: '0',
    fee: fmt(q.fee),
    fill_pct: q.status === 'filled' ? '1' : '0',
    is_transfer: q.isTransfer,
    label: q.label,
    last_update_timestamp: q.updated,
    legs,
    legs_hash: legsHash(legs),
    liquidity_role: q.role ?? 'maker',
    max_fee: fmt(q.maxFee),
    mmp: false,
    nonce: q.nonce,
    quote_id: q.id,
    rfq_id: q.rfqId,
    signature_expiry_sec: q.expirySec,
    status: q.status,
    subaccount_id: q.subaccount,
    tx_hash: q.txHash,
    batch_status: q.txHash ? 'Settled' : null,
  };
}

/** The maker's channel record of its quote (`{subaccount_id}.quotes`): its own record with the signature. */
export function publishedQuote(q: QuoteEntry): QuotePublishResult {
  return { ...privateQuote(q), signature: q.signature, signer: q.signer };
}

/** The taker's view of a quote on its RFQ (poll_quotes, best_quote). */
export function publicQuote(q: QuoteEntry): PublicQuote {
  const legs = q.legs.map(pricedWire);
  return {
    cancel_reason: q.cancelReason,
    creation_timestamp: q.created,
    direction: q.direction,
    fill_pct: q.status === 'filled' ? '1' : '0',
    last_update_timestamp: q.updated,
    legs,
    legs_hash: legsHash(legs),
    liquidity_role: 'maker',
    quote_id: q.id,
    rfq_id: q.rfqId,
    status: q.status,
    subaccount_id: q.subaccount,
    wallet: q.wallet,
  };
}

/** RFQs and quotes by id, in the order they came. */
export class RfqBook {
  private readonly rfqs = new Map<string, RfqEntry>();
  private readonly quotes = new Map<string, QuoteEntry>();

  addRfq(e: RfqEntry): void {
    this.rfqs.set(e.id, e);
    forgetClosed(this.rfqs);
  }

  addQuote(q: QuoteEntry): void {
    this.quotes.set(q.id, q);
    this.rfqs.get(q.rfqId)?.quotes.push(q.id);
    forgetClosed(this.quotes);
  }

  rfq(id: string): RfqEntry | undefined {
    return this.rfqs.get(id);
  }

  quote(id: string): QuoteEntry | undefined {
    return this.quotes.get(id);
  }

  /** The RFQs passing `keep`, newest first. */
  rfqsWhere(keep: (e: RfqEntry) => boolean): RfqEntry[] {
    return [...this.rfqs.values()].filter(keep).reverse();
  }

  /** The quotes passing `keep`, newest first. */
  quotesWhere(keep: (q: QuoteEntry) => boolean): QuoteEntry[] {
    return [...this.quotes.values()].filter(keep).reverse();
  }

  /** Forget every RFQ and quote (a fleet's desk moved to another member). */
  clear(): void {
    this.rfqs.clear();
    this.quotes.clear();
  }

  /** The open quotes on an RFQ, oldest first. */
  openQuotesOf(e: RfqEntry): QuoteEntry[] {
    return e.quotes.map((id) => this.quotes.get(id)).filter((q): q is QuoteEntry => q !== undefined && isOpen(q));
  }
}

/** Drop the oldest closed records beyond CLOSED_KEPT, so that memory stays flat on a long run. */
function forgetClosed<T extends { status: RFQStatus }>(map: Map<string, T>): void {
  if (map.size <= CLOSED_KEPT * 2) return;
  let over = map.size - CLOSED_KEPT * 2;
  for (const [id, e] of map) {
    if (over <= 0) break;
    if (!isOpen(e)) {
      map.delete(id);
      over--;
    }
  }
}

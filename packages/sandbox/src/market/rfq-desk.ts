/**
 * The RFQ desk: takers' RFQs (send, cancel, expire on the sandbox clock), the quotes on them (kept in
 * rfq-book.ts, made by users through rfq-quotes.ts or by the simulated maker of rfq-maker.ts), and
 * the reads of both. Every state change is pushed on the RFQ channels (rfq-pushes.ts). In a fleet one
 * member's desk serves them all: every RFQ method is routed to its home's owner (redis/rfq-route.ts).
 */
import { normalizeAddress } from '@exchange-api/auth';
import type { RFQCancelReason, RFQPrivate, RFQStatus, SendRfqParams } from '@exchange-api/types';
import type { Accounts, Session } from '../accounts';
import type { Clock } from '../clock';
import { parseFixed } from '../fixed';
import type { RfqSettings } from '../options-rfq';
import { RpcFailure } from '../rpc';
import type { Counterparties } from './counterparties';
import type { History } from './history';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { Margin } from './margin';
import type { Streams } from './random';
import { RfqBook, isOpen, privateRfq, type QuoteEntry, type RfqEntry } from './rfq-book';
import { readLegs } from './rfq-legs';
import { openRecords, restoreRecords } from './rfq-records';
import { RfqMaker } from './rfq-maker';
import { RfqPushes } from './rfq-pushes';
import type { Settlement } from './settlement';
import type { Publisher } from './types';

/** What the desk works on. */
export interface RfqDeskParts {
  instruments: Instruments;
  accounts: Accounts;
  counterparties: Counterparties;
  ledger: Ledger;
  margin: Margin;
  settlement: Settlement;
  history: History;
  streams: Streams;
  clock: Clock;
  out: Publisher;
  settings: RfqSettings;
}

const rejected = (data: string) => RpcFailure.of('RPC_ORDER_REJECTED', data);
export const notFound = (data: string) => RpcFailure.of('RPC_ORDER_NOT_FOUND', data);

/** A decimal field of a request, or a rejection naming it; `positive` refuses zero. */
export function decimalField(field: string, v: string | number, positive = false): bigint {
  const x = parseFixed(v);
  if (x === null || x < 0n || (positive && x === 0n))
    throw rejected(`${field}: must be a decimal ${positive ? 'above' : 'from'} 0 (got ${String(v).slice(0, 40)})`);
  return x;
}

/** Refuse what the sandbox does not model: a nonzero extra_fee, a referral code. */
export function refuseUnmodelled(p: { extra_fee?: string | number | null; referral_code?: string | null }): void {
  if (p.extra_fee != null && decimalField('extra_fee', p.extra_fee) !== 0n)
    throw rejected('extra_fee: the sandbox charges no extra fee; send 0 or leave it out');
  if (p.referral_code != null && p.referral_code !== '')
    throw rejected('referral_code: the sandbox does not model referrals; leave it out');
}

/** RFQs, their quotes, the simulated maker and the channels. */
export class RfqDesk {
  readonly book = new RfqBook();
  readonly pushes: RfqPushes;
  private readonly maker: RfqMaker;

  /** Told of every change (a fleet keeps the open records for the desk's next member). */
  private changed: () => void = () => {};

  constructor(readonly parts: RfqDeskParts) {
    this.pushes = new RfqPushes(parts.out, { book: this.book, margin: parts.margin }, () => this.changed());
    this.maker = new RfqMaker(parts.settings.maker, parts.counterparties, parts.streams, () => this.home);
  }

  /** The instrument whose streams draw the RFQ and quote ids (a fleet scopes them by its ownership epoch). */
  get home(): string {
    return this.parts.instruments.first().cfg.instrument_name;
  }

  /** `send_rfq`: an RFQ open for the lifetime of the settings; the simulated maker answers it when due. */
  sendRfq(session: Session, p: SendRfqParams): RFQPrivate {
    refuseUnmodelled(p);
    const legs = readLegs(this.parts.instruments, p.legs);
    const counterparties =
      p.counterparties == null
        ? null
        : p.counterparties.map((w, i) => {
            const a = normalizeAddress(w);
            if (!a)
              throw RpcFailure.of(
                'INVALID_ADDRESS',
                `counterparties[${i}]: not an address (${String(w).slice(0, 60)})`,
              );
            return a;
          });
    const step = p.partial_fill_step == null ? 1n : decimalField('partial_fill_step', p.partial_fill_step, true);
    if (step > 10n ** 12n) throw rejected('partial_fill_step: a fraction of the RFQ, from above 0 to 1');
    const now = this.parts.clock.now();
    const e: RfqEntry = {
      id: this.parts.streams.uuid('rfq ids', this.home),
      subaccount: p.subaccount_id,
      wallet: session.wallet,
      legs,
      label: p.label ?? '',
      counterparties: counterparties && counterparties.length > 0 ? counterparties : null,
      maxTotalCost: p.max_total_cost == null ? null : decimalField('max_total_cost', p.max_total_cost),
      minTotalCost: p.min_total_cost == null ? null : decimalField('min_total_cost', p.min_total_cost),
      partialFillStep: p.partial_fill_step == null ? '1' : String(p.partial_fill_step),
      created: now,
      updated: now,
      validUntil: now + this.parts.settings.lifetimeMs,
      status: 'open',
      cancelReason: '',
      filledDirection: null,
      totalCost: null,
      quotes: [],
      answered: false,
    };
    this.book.addRfq(e);
    this.pushes.rfq(e);
    if (this.maker.due(e, now)) this.answer(e, now);
    return this.privateView(e);
  }

  /** The open RFQs and quotes as a fleet keeps them for the desk's next member (redis/rfq-keep.ts). */
  openRecords(): Array<[string, string]> {
    return openRecords(this.book);
  }

  /** Take the kept records over from the desk's last member. */
  takeOver(kept: Record<string, string>): void {
    restoreRecords(this.book, this.parts.instruments, kept);
  }

  /** Forget every RFQ and quote: the desk moved to another member. */
  forget(): void {
    this.book.clear();
  }

  /** Be told of every change (each is pushed: rfq-pushes.ts). */
  watch(changed: () => void): void {
    this.changed = changed;
  }

  /** The taker's view of an RFQ. */
  privateView(e: RfqEntry): RFQPrivate {
    return privateRfq(e, this.book.openQuotesOf(e));
  }

  /** Expire what the clock has passed, and let the simulated maker answer what is due. */
  sweep(): void {
    const now = this.parts.clock.now();
    for (const e of this.book.rfqsWhere(isOpen)) {
      if (e.validUntil <= now) this.closeRfq(e, 'expired', '', now);
      else if (this.maker.due(e, now)) this.answer(e, now);
    }
    for (const q of this.book.quotesWhere(isOpen))
      if (q.expirySec * 1000 <= now) this.closeQuote(q, 'expired', '', now);
  }

  private answer(e: RfqEntry, now: number): void {
    for (const q of this.maker.answer(e, now)) this.addQuote(q);
  }

  /** Record a quote and push it. */
  addQuote(q: QuoteEntry): void {
    this.book.addQuote(q);
    this.pushes.quote(q);
  }

  /** The subaccount's RFQ of this id (any status), or 11001. */
  ownRfq(subaccount: number, id: string): RfqEntry {
    const e = this.book.rfq(id);
    if (!e || e.subaccount !== subaccount) throw notFound(`no RFQ ${id.slice(0, 80)} of subaccount ${subaccount}`);
    return e;
  }

  /** The subaccount's open RFQ of this id, or 11001 saying what it is. */
  openRfq(subaccount: number, id: string): RfqEntry {
    const e = this.ownRfq(subaccount, id);
    if (!isOpen(e)) throw notFound(`RFQ ${id} is ${e.status}`);
    return e;
  }

  /** `cancel_rfq`. */
  cancelRfq(subaccount: number, id: string): 'ok' {
    this.closeRfq(this.openRfq(subaccount, id), 'cancelled', 'user_request', this.parts.clock.now());
    return 'ok';
  }

  /** `cancel_batch_rfqs`: the subaccount's open RFQs, or the one named, or those of a label; their ids. */
  cancelRfqs(
    subaccount: number,
    p: { rfq_id?: string | null; label?: string | null; nonce?: number | null },
  ): string[] {
    if (p.nonce != null) throw rejected('nonce: an RFQ is not signed and has no nonce; cancel by rfq_id or label');
    const now = this.parts.clock.now();
    const hit = this.book.rfqsWhere(
      (e) =>
        e.subaccount === subaccount &&
        isOpen(e) &&
        (p.rfq_id == null || e.id === p.rfq_id) &&
        (p.label == null || e.label === p.label),
    );
    for (const e of hit) this.closeRfq(e, 'cancelled', 'user_request', now);
    return hit.map((e) => e.id);
  }

  /** Cancel every open RFQ and quote of a subaccount, for `reason`. */
  cancelAllOf(subaccount: number, reason: RFQCancelReason): void {
    const now = this.parts.clock.now();
    for (const e of this.book.rfqsWhere((x) => x.subaccount === subaccount && isOpen(x)))
      this.closeRfq(e, 'cancelled', reason, now);
    for (const q of this.book.quotesWhere((x) => x.subaccount === subaccount && isOpen(x)))
      this.closeQuote(q, 'cancelled', reason, now);
  }

  /** Close an RFQ and its open quotes (no longer open), and push them. */
  closeRfq(e: RfqEntry, status: RFQStatus, reason: RFQCancelReason, now: number): void {
    e.status = status;
    e.cancelReason = reason;
    e.updated = now;
    for (const q of this.book.openQuotesOf(e))
      this.closeQuote(q, status === 'expired' ? 'expired' : 'cancelled', 'rfq_no_longer_open', now, false);
    this.pushes.rfq(e);
    this.pushes.best(e);
  }

  /** Close a quote and push it (with its RFQ's best quotes unless `best` is false). */
  closeQuote(q: QuoteEntry, status: RFQStatus, reason: RFQCancelReason, now: number, best = true): void {
    q.status = status;
    q.cancelReason = reason;
    q.updated = now;
    this.pushes.quote(q, best);
  }
}

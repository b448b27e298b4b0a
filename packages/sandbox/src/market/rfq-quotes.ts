/**
 * Makers' quotes on open RFQs (send_quote, replace_quote, cancel_quote, cancel_batch_quotes): a quote
 * prices the RFQ's legs exactly as they are (instruments, amounts, directions), each price in whole
 * ticks; its max_fee covers the maker fee; its signature stays valid while the RFQ is open; its maker
 * can carry every leg (margin.ts); and it is the maker's own subaccount's, never on its own wallet's
 * RFQ nor on one whose counterparties leave it out. The signature is checked by the handler between
 * `prepare` and `commit` (actions.ts).
 */
import type { ActionInstrument } from '@exchange-api/auth';
import type { QuotePrivate, SendQuoteParams } from '@exchange-api/types';
import type { Session } from '../accounts';
import { nonceText } from '../actions';
import { fmt } from '../fixed';
import { RpcFailure } from '../rpc';
import { MAKER_FEE_BPS } from './rates';
import { isOpen, privateQuote, type QuoteEntry, type RfqEntry } from './rfq-book';
import { decimalField, notFound, refuseUnmodelled, type RfqDesk } from './rfq-desk';
import { assetsOf, legSide, legsFee, readPricedLegs, sameLegs, type PricedLeg } from './rfq-legs';
import { mayQuote } from './rfq-pushes';
import type { Direction } from './types';

/** The params of send_quote and replace_quote that make the quote, as the spec types send_quote's. */
export type QuoteParams = SendQuoteParams;

/** A checked quote, its signature not yet verified. */
export interface PreparedQuote {
  entry: QuoteEntry;
  rfq: RfqEntry;
  /** The legs' assets, for the signature. */
  assets: Record<string, ActionInstrument>;
}

const rejected = (data: string) => RpcFailure.of('RPC_ORDER_REJECTED', data);

/** The open RFQ of this id, or 11001 saying why it cannot be quoted. */
function quotable(desk: RfqDesk, id: string): RfqEntry {
  const e = desk.book.rfq(id);
  if (!e) throw notFound(`no RFQ ${id.slice(0, 80)}`);
  if (!isOpen(e)) throw notFound(`RFQ ${id} is ${e.status}`);
  return e;
}

/** Check a quote (all but its signature) and make its record. */
export function prepareQuote(desk: RfqDesk, session: Session, p: QuoteParams): PreparedQuote {
  refuseUnmodelled(p);
  if (p.mmp === true) throw rejected('mmp: the sandbox keeps quotes out of market maker protection; send false');
  const rfq = quotable(desk, p.rfq_id);
  if (rfq.wallet === session.wallet) throw rejected(`RFQ ${rfq.id} is this wallet's own: a wallet cannot quote it`);
  if (!mayQuote(rfq, session.wallet))
    throw rejected(`RFQ ${rfq.id} names its counterparties, and ${session.wallet} is not one of them`);
  const legs = readPricedLegs(desk.parts.instruments, p.legs);
  if (!sameLegs(rfq.legs, legs))
    throw rejected(`legs: a quote prices RFQ ${rfq.id}'s legs as they are (instruments, amounts and directions)`);
  const fee = legsFee(legs, MAKER_FEE_BPS);
  const maxFee = decimalField('max_fee', p.max_fee);
  if (maxFee < fee)
    throw RpcFailure.of('RPC_MAX_FEE_TOO_LOW', `max_fee ${fmt(maxFee)} is below the maker fee ${fmt(fee)}`);
  if (p.signature_expiry_sec * 1000 < rfq.validUntil)
    throw rejected(
      `signature_expiry_sec ${p.signature_expiry_sec} ends before RFQ ${rfq.id} closes` +
        ` (${Math.ceil(rfq.validUntil / 1000)} s): a quote stays executable while its RFQ is open`,
    );
  assertCarries(desk, p.subaccount_id, legs, p.direction);
  const now = desk.parts.clock.now();
  const entry: QuoteEntry = {
    id: desk.parts.streams.uuid('rfq quote ids', desk.home),
    rfqId: rfq.id,
    subaccount: p.subaccount_id,
    wallet: session.wallet,
    signer: p.signer,
    signature: p.signature,
    direction: p.direction,
    legs,
    maxFee,
    fee,
    nonce: nonceText(p.nonce),
    expirySec: p.signature_expiry_sec,
    label: p.label ?? '',
    created: now,
    updated: now,
    status: 'open',
    cancelReason: '',
    isTransfer: false,
    txHash: null,
  };
  return { entry, rfq, assets: assetsOf(legs) };
}

/** Refuse legs the subaccount cannot carry, each as an order of its side at its price. */
export function assertCarries(
  desk: RfqDesk,
  subaccount: number,
  legs: readonly PricedLeg[],
  direction: Direction,
): void {
  for (const l of legs)
    desk.parts.margin.assertCanCarry({
      inst: l.inst,
      subaccount,
      direction: legSide(l, direction),
      priceTicks: l.priceTicks,
      lots: l.lots,
    });
}

/** Record a prepared quote whose signature held (its RFQ still open), and push it. */
export function commitQuote(desk: RfqDesk, q: PreparedQuote): QuotePrivate {
  quotable(desk, q.rfq.id);
  desk.addQuote(q.entry);
  return privateQuote(q.entry);
}

/** The subaccount's open quote named by id or by nonce (replace_quote, cancel_quote), or 11001. */
export function ownOpenQuote(
  desk: RfqDesk,
  subaccount: number,
  by: { quote_id?: string | null; nonce?: string | number | null },
): QuoteEntry {
  if (by.quote_id == null && by.nonce == null) throw rejected('name the quote: its quote_id or its nonce');
  const nonce = by.nonce == null ? null : nonceText(by.nonce);
  const [q] = desk.book.quotesWhere(
    (x) =>
      x.subaccount === subaccount &&
      x.role === undefined &&
      (by.quote_id == null || x.id === by.quote_id) &&
      (nonce === null || x.nonce === nonce),
  );
  const named = by.quote_id ?? `with nonce ${nonce}`;
  if (!q) throw notFound(`no quote ${String(named).slice(0, 80)} of subaccount ${subaccount}`);
  if (!isOpen(q)) throw notFound(`quote ${q.id} is ${q.status}`);
  return q;
}

/** Cancel the subaccount's open quotes matching every filter given; their ids. */
export function cancelQuotes(
  desk: RfqDesk,
  subaccount: number,
  f: { quote_id?: string | null; rfq_id?: string | null; label?: string | null; nonce?: string | number | null },
): string[] {
  const nonce = f.nonce == null ? null : nonceText(f.nonce);
  const now = desk.parts.clock.now();
  const hit = desk.book.quotesWhere(
    (q) =>
      q.subaccount === subaccount &&
      q.role === undefined &&
      isOpen(q) &&
      (f.quote_id == null || q.id === f.quote_id) &&
      (f.rfq_id == null || q.rfqId === f.rfq_id) &&
      (f.label == null || q.label === f.label) &&
      (nonce === null || q.nonce === nonce),
  );
  for (const q of hit) desk.closeQuote(q, 'cancelled', 'user_request', now);
  return hit.map((q) => q.id);
}

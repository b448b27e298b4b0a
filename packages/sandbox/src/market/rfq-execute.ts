/**
 * A taker's execution of a quote on its RFQ (execute_quote): the taker trades the opposite side of the
 * quote, over the quote's own legs and prices (what its signature commits to); its max_fee covers the
 * taker fee; the quote's total cost is within the RFQ's max_total_cost (buying) or min_total_cost
 * (selling); with enable_taker_protection no better open quote may exist; both sides can carry the
 * legs. Then the legs settle (rfq-trades.ts), the quote and the RFQ are filled, the RFQ's other
 * quotes cancelled, and everything is pushed. Fills are whole: the sandbox has no partial execution.
 */
import type { ActionInstrument } from '@exchange-api/auth';
import type { ExecuteQuoteParams, QuoteExecute } from '@exchange-api/types';
import type { Session } from '../accounts';
import { nonceText } from '../actions';
import { fmt } from '../fixed';
import { RpcFailure } from '../rpc';
import { MAKER_FEE_BPS, TAKER_FEE_BPS } from './rates';
import { bestOpenQuote, outOfBounds } from './rfq-best';
import { isOpen, privateQuote, type QuoteEntry, type RfqEntry } from './rfq-book';
import { decimalField, notFound, refuseUnmodelled, type RfqDesk } from './rfq-desk';
import { assetsOf, legsFee, opposite, quotedCost, readPricedLegs, sameLegs } from './rfq-legs';
import { assertCarries } from './rfq-quotes';
import { settleLegs } from './rfq-trades';

/** execute_quote's params as the spec types them (derive-ts's), with the extra fee the sandbox refuses by name. */
export type ExecuteParams = ExecuteQuoteParams & { extra_fee?: string | number | null };

/** A checked execution, its signature not yet verified. */
export interface PreparedExecution {
  rfq: RfqEntry;
  quote: QuoteEntry;
  maxFee: bigint;
  assets: Record<string, ActionInstrument>;
}

const rejected = (data: string) => RpcFailure.of('RPC_ORDER_REJECTED', data);

/** The quote of this id on the RFQ, open, or 11001 saying what it is. */
function openQuoteOn(desk: RfqDesk, rfq: RfqEntry, id: string): QuoteEntry {
  const q = desk.book.quote(id);
  if (!q || q.rfqId !== rfq.id || q.role !== undefined) throw notFound(`no quote ${id.slice(0, 80)} on RFQ ${rfq.id}`);
  if (!isOpen(q)) throw notFound(`quote ${id} is ${q.status}`);
  return q;
}

/** Check an execution (all but its signature). */
export function prepareExecution(desk: RfqDesk, p: ExecuteParams): PreparedExecution {
  refuseUnmodelled(p);
  const rfq = desk.openRfq(p.subaccount_id, p.rfq_id);
  const quote = openQuoteOn(desk, rfq, p.quote_id);
  if (p.direction !== opposite(quote.direction))
    throw rejected(
      `direction: the taker trades the opposite side of quote ${quote.id}` +
        ` (${opposite(quote.direction)}, got ${p.direction})`,
    );
  const legs = readPricedLegs(desk.parts.instruments, p.legs);
  if (!sameLegs(quote.legs, legs))
    throw rejected(`legs: an execution signs quote ${quote.id}'s legs and prices exactly as it has them`);
  const fee = legsFee(legs, TAKER_FEE_BPS);
  const maxFee = decimalField('max_fee', p.max_fee);
  if (maxFee < fee)
    throw RpcFailure.of('RPC_MAX_FEE_TOO_LOW', `max_fee ${fmt(maxFee)} is below the taker fee ${fmt(fee)}`);
  const bounds = outOfBounds(rfq, quote.legs, p.direction);
  if (bounds) throw rejected(bounds);
  if (p.enable_taker_protection === true) {
    const best = bestOpenQuote(desk.book, rfq, p.direction)!;
    if (quotedCost(best.legs, p.direction) < quotedCost(quote.legs, p.direction))
      throw rejected(`enable_taker_protection: quote ${best.id} on RFQ ${rfq.id} is better than ${quote.id}`);
  }
  assertCarries(desk, p.subaccount_id, legs, p.direction);
  return { rfq, quote, maxFee, assets: assetsOf(legs) };
}

/** Settle an execution whose signature held; the taker's record of it. */
export function commitExecution(desk: RfqDesk, session: Session, x: PreparedExecution, p: ExecuteParams): QuoteExecute {
  const now = desk.parts.clock.now();
  const { rfq, quote } = x;
  desk.openRfq(p.subaccount_id, rfq.id);
  openQuoteOn(desk, rfq, quote.id);
  if (quote.expirySec * 1000 <= now) {
    desk.closeQuote(quote, 'expired', '', now);
    throw notFound(`quote ${quote.id} has expired`);
  }
  try {
    assertCarries(desk, quote.subaccount, quote.legs, quote.direction);
  } catch (err) {
    desk.closeQuote(quote, 'cancelled', 'insufficient_margin', now);
    throw err instanceof RpcFailure ? rejected(`quote ${quote.id}'s maker can no longer carry it: ${err.data}`) : err;
  }
  const taker: QuoteEntry = {
    ...quote,
    id: desk.parts.streams.uuid('rfq quote ids', desk.home),
    subaccount: p.subaccount_id,
    wallet: session.wallet,
    signer: p.signer,
    signature: p.signature,
    direction: p.direction,
    maxFee: x.maxFee,
    nonce: nonceText(p.nonce),
    expirySec: p.signature_expiry_sec,
    label: p.label ?? '',
    created: now,
    role: 'taker',
  };
  const { fees, txHash } = settleLegs(
    desk.parts,
    {
      legs: quote.legs,
      sides: [
        { ...side(taker, 'taker', TAKER_FEE_BPS), recordId: quote.id },
        { ...side(quote, 'maker', MAKER_FEE_BPS), recordId: quote.id },
      ],
      rfqId: rfq.id,
      quoteId: quote.id,
    },
    false,
    now,
  );
  fill(taker, fees[0], txHash, now);
  fill(quote, fees[1], txHash, now);
  desk.book.addQuote(taker);
  rfq.filledDirection = p.direction;
  rfq.totalCost = quotedCost(quote.legs, p.direction);
  desk.closeRfq(rfq, 'filled', '', now);
  desk.pushes.quote(quote, false);
  return executionRecord(taker);
}

/** One side of an execution from its quote record. */
export const side = (q: QuoteEntry, role: 'maker' | 'taker', feeBps: number) => ({
  subaccount: q.subaccount,
  wallet: q.wallet,
  direction: q.direction,
  role,
  feeBps,
  label: q.label,
});

/** A quote record filled with its fee and transaction. */
export function fill(q: QuoteEntry, fee: bigint, txHash: string, now: number): void {
  q.status = 'filled';
  q.fee = fee;
  q.txHash = txHash;
  q.updated = now;
}

/** The taker's execution record (QuoteExecute). */
function executionRecord(q: QuoteEntry): QuoteExecute {
  const { tx_hash: _t, batch_status: _b, ...rest } = privateQuote(q);
  return { ...rest, rfq_filled_pct: '1' };
}

/**
 * A position transfer (transfer_positions): two subaccounts of one wallet trade the legs with each
 * other at the prices both signed, maker_params as a quote and taker_params as its execution (each
 * with its own nonce, verified by the handler), with no fee and off the public tape. Both halves carry
 * the same legs; the taker's direction is the opposite of the maker's; both sides must carry the result.
 */
import type { ActionInstrument } from '@exchange-api/auth';
import type { SignedTransferQuoteParams, TransferPositions } from '@exchange-api/types';
import type { Session } from '../accounts';
import { nonceText } from '../actions';
import { RpcFailure } from '../rpc';
import { privateQuote, type QuoteEntry } from './rfq-book';
import { decimalField, type RfqDesk } from './rfq-desk';
import { assetsOf, opposite, readPricedLegs, sameLegs, type PricedLeg } from './rfq-legs';
import { assertCarries } from './rfq-quotes';
import { fill, side } from './rfq-execute';
import { settleLegs } from './rfq-trades';

/** One half of transfer_positions as sent, as the spec types it. */
export type TransferHalf = SignedTransferQuoteParams;

const rejected = (data: string) => RpcFailure.of('RPC_ORDER_REJECTED', data);

/** Check a position transfer (all but its signatures): the legs' assets for them. */
export function prepareTransfer(
  desk: RfqDesk,
  maker: TransferHalf,
  taker: TransferHalf,
): { legs: PricedLeg[]; assets: Record<string, ActionInstrument> } {
  if (maker.subaccount_id === taker.subaccount_id)
    throw rejected(`maker_params and taker_params name one subaccount (${maker.subaccount_id}): name two`);
  if (taker.direction !== opposite(maker.direction))
    throw rejected(`taker_params.direction: the opposite of maker_params.direction (${opposite(maker.direction)})`);
  const legs = readPricedLegs(desk.parts.instruments, maker.legs, 'maker_params.legs');
  if (!sameLegs(legs, readPricedLegs(desk.parts.instruments, taker.legs, 'taker_params.legs')))
    throw rejected('taker_params.legs: the same legs and prices as maker_params.legs');
  decimalField('maker_params.max_fee', maker.max_fee);
  decimalField('taker_params.max_fee', taker.max_fee);
  assertCarries(desk, maker.subaccount_id, legs, maker.direction);
  assertCarries(desk, taker.subaccount_id, legs, taker.direction);
  return { legs, assets: assetsOf(legs) };
}

/** Move the positions; both halves' records. */
export function commitTransfer(
  desk: RfqDesk,
  session: Session,
  legs: PricedLeg[],
  halves: { maker: TransferHalf; taker: TransferHalf },
): TransferPositions {
  const now = desk.parts.clock.now();
  const rfqId = desk.parts.streams.uuid('rfq ids', desk.home);
  const entry = (h: TransferHalf, role?: 'taker'): QuoteEntry => ({
    id: desk.parts.streams.uuid('rfq quote ids', desk.home),
    rfqId,
    subaccount: h.subaccount_id,
    wallet: session.wallet,
    signer: h.signer,
    signature: h.signature,
    direction: h.direction,
    legs,
    maxFee: decimalField('max_fee', h.max_fee),
    fee: 0n,
    nonce: nonceText(h.nonce),
    expirySec: h.signature_expiry_sec,
    label: '',
    created: now,
    updated: now,
    status: 'open',
    cancelReason: '',
    isTransfer: true,
    txHash: null,
    ...(role && { role }),
  });
  const maker = entry(halves.maker);
  const taker = entry(halves.taker, 'taker');
  const { txHash } = settleLegs(
    desk.parts,
    {
      legs,
      sides: [
        { ...side(taker, 'taker', 0), recordId: maker.id },
        { ...side(maker, 'maker', 0), recordId: maker.id },
      ],
      rfqId,
      quoteId: maker.id,
    },
    true,
    now,
  );
  for (const q of [maker, taker]) {
    fill(q, 0n, txHash, now);
    desk.book.addQuote(q);
  }
  desk.pushes.quote(maker, false);
  return { maker_quote: privateQuote(maker), taker_quote: privateQuote(taker) };
}

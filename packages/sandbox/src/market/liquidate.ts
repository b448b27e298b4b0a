/**
 * Carrying out a liquidator's bid (private/liquidate) on a live auction (liquidation.ts): the bidder
 * takes its share of every position and spot holding of the liquidated account at the mark (booked as
 * trades at the mark with no fee, so neither side's value moves by them) and is paid the auction's
 * discount on that share of the account's value out of the account's cash. Both sides' balances are
 * pushed, the liquidated account's as `liquidation` and the bidder's as `liquidator`.
 */
import { address } from '../channels';
import type { Clock } from '../clock';
import { ONE, fixed, fmt, mul, parseFixed } from '../fixed';
import { RpcFailure } from '../rpc';
import { amt } from './instrument';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { Bid, Liquidation, AuctionBid } from './liquidation';
import type { Margin } from './margin';
import type { Publisher } from './types';

/** What a bid needs. */
export interface BidParts {
  instruments: Instruments;
  ledger: Ledger;
  margin: Margin;
  liquidation: Liquidation;
  clock: Clock;
  out: Publisher;
}

/** The price of a share of an account and the discount its bidder is paid. */
function priceOf(parts: BidParts, subaccount: number, share: bigint) {
  const v = parts.margin.valuation(subaccount);
  const discount = fixed(parts.margin.model.auctionDiscount.toFixed(12));
  const worth = mul(v.value, share);
  return { v, price: mul(worth, ONE - discount), paid: mul(worth, discount) };
}

/** Refuse a bid the bidder cannot carry: its value with the discount against its initial margin with the share. */
function assertCarries(parts: BidParts, bidder: number, liquidated: number, share: bigint, paid: bigint): void {
  const mine = parts.margin.valuation(bidder);
  const theirs = parts.margin.valuation(liquidated);
  const required = mine.initial + mul(theirs.initial, share);
  const value = mine.value + paid;
  if (required > value)
    throw RpcFailure.of(
      'RPC_ORDER_REJECTED',
      `insufficient margin: with this share subaccount ${bidder}'s initial margin would be ${fmt(required, 2)}, ` +
        `above its value of ${fmt(value, 2)}`,
    );
}

/** Carry out a bid; returns the operation. */
export function executeBid(parts: BidParts, bid: Bid): { op_uuid: string; operation_id: number } {
  const { liquidation, ledger, out } = parts;
  const { auction, share } = liquidation.auctionFor(bid);
  const L = auction.subaccount_id;
  const B = bid.subaccount_id;
  const { price, paid } = priceOf(parts, L, share);
  const limit = parseFixed(String(bid.price_limit));
  if (limit === null) throw RpcFailure.of('RPC_INVALID_PARAMS', `/price_limit: not a decimal (got ${bid.price_limit})`);
  if (price > limit)
    throw RpcFailure.of(
      'RPC_PRICE_LIMIT_EXCEEDED',
      `price_limit ${bid.price_limit} is below the price of ${fmt(share)} of subaccount ${L}, ${fmt(price, 6)}`,
    );
  assertCarries(parts, B, L, share, paid);
  const now = parts.clock.now();
  const amounts: Record<string, string> = {};
  const pnl: Record<string, string> = {};
  let realizedTotal = 0n;
  const push = (
    sub: number,
    type: string,
    updates: { name: string; new_balance: string; previous_balance: string }[],
  ) =>
    out.publish(
      address('subaccountBalances', { subaccount_id: sub }),
      updates.map((u) => ({ ...u, update_type: type })),
    );
  for (const { inst, lots, sign } of liquidation.shareOf(L, share)) {
    const fill = { priceTicks: inst.midTicks, lots, maker: null };
    const theirs = ledger.book(inst, L, sign > 0 ? 'sell' : 'buy', fill, 0n, now);
    const mine = ledger.book(inst, B, sign > 0 ? 'buy' : 'sell', fill, 0n, now);
    push(L, 'liquidation', theirs.updates);
    push(B, 'liquidator', mine.updates);
    amounts[inst.cfg.instrument_type === 'erc20' ? inst.cfg.base_currency : inst.cfg.instrument_name] = fmt(
      BigInt(sign) * amt(inst, lots),
    );
    pnl[inst.cfg.instrument_name] = fmt(theirs.realized);
    realizedTotal += theirs.realized;
  }
  const cash = parts.instruments.first().cfg.quote_currency;
  const from = ledger.accounts.adjust(L, cash, -paid);
  const to = ledger.accounts.adjust(B, cash, paid);
  push(L, 'liquidation', [{ name: from.name, new_balance: fmt(from.next), previous_balance: fmt(from.previous) }]);
  push(B, 'liquidator', [{ name: to.name, new_balance: fmt(to.next), previous_balance: fmt(to.previous) }]);
  const record: AuctionBid = {
    amounts_liquidated: amounts,
    cash_received: fmt(-paid),
    discount_pnl: fmt(-paid),
    percent_liquidated: fmt(share),
    positions_realized_pnl: pnl,
    positions_realized_pnl_excl_fees: pnl,
    realized_pnl: fmt(realizedTotal),
    realized_pnl_excl_fees: fmt(realizedTotal),
    timestamp: now,
    tx_hash: auction.tx_hash,
    liquidator_subaccount_id: B,
  };
  return liquidation.recordBid(auction, record);
}

/**
 * An executed quote's legs settled on both sides, each leg a trade at the quote's price: positions and
 * cash booked in the ledger (ledger.ts: perps by PnL, options and spot for their premium or price) less
 * each side's fee on the leg's notional, the trade records (with their rfq_id and quote_id) kept and
 * pushed on each side's trade and balance channels, and the taker's on the public tape (a position
 * transfer stays off it).
 */
import { keccak256, toUtf8Bytes } from 'ethers';
import type { PublicTrade } from '@exchange-api/types';
import { address } from '../channels';
import { bps } from '../fixed';
import { notional } from './instrument';
import type { History } from './history';
import type { Ledger } from './ledger';
import type { Streams } from './random';
import { legSide, type PricedLeg } from './rfq-legs';
import { privateRecord, type Settlement } from './settlement';
import type { Direction, Publisher } from './types';

/** One side of an execution: who, which side of the package, its fee rate, and the record its trades name. */
export interface ExecutionSide {
  subaccount: number;
  wallet: string;
  direction: Direction;
  role: 'maker' | 'taker';
  feeBps: number;
  /** The quote record the side's trades name as their order. */
  recordId: string;
  label: string;
}

/** What settling an execution needs. */
export interface TradeParts {
  ledger: Ledger;
  settlement: Settlement;
  history: History;
  streams: Streams;
  out: Publisher;
}

/** Settle the legs for both sides; returns each side's fee and the execution's transaction hash. */
export function settleLegs(
  parts: TradeParts,
  x: { legs: readonly PricedLeg[]; sides: [ExecutionSide, ExecutionSide]; rfqId: string; quoteId: string },
  isTransfer: boolean,
  now: number,
): { fees: [bigint, bigint]; txHash: string } {
  const fees: [bigint, bigint] = [0n, 0n];
  for (const leg of x.legs) {
    const value = notional(leg.inst, leg.priceTicks, leg.lots);
    const tradeId = parts.streams.uuid('trade ids', leg.inst.cfg.instrument_name);
    const shownToTape: PublicTrade[] = [];
    x.sides.forEach((side, i) => {
      const direction = legSide(leg, side.direction);
      const fee = bps(value, side.feeBps);
      fees[i] = fees[i]! + fee;
      const fill = { priceTicks: leg.priceTicks, lots: leg.lots, maker: null };
      const { updates, realized } = parts.ledger.book(leg.inst, side.subaccount, direction, fill, fee, now);
      const shown: PublicTrade = {
        ...parts.settlement.tradeRecord(leg.inst, {
          direction,
          priceTicks: leg.priceTicks,
          lots: leg.lots,
          role: side.role,
          wallet: side.wallet,
          subaccount: side.subaccount,
          fee,
          realized,
          now,
          tradeId,
        }),
        quote_id: x.quoteId,
        rfq_id: x.rfqId,
      };
      const own = { ...privateRecord(shown, side.recordId, side.label), is_transfer: isTransfer };
      parts.history.trade(own);
      const sub = { subaccount_id: side.subaccount };
      parts.out.publish(address('subaccountTrades', sub), [own]);
      parts.out.publish(address('subaccountTradesBatch', { ...sub, batch_status: 'Settled' }), [own]);
      parts.out.publish(address('subaccountBalances', sub), updates);
      if (side.role === 'taker' && !isTransfer) shownToTape.push(shown);
    });
    parts.settlement.publishPublic(leg.inst, shownToTape);
  }
  return { fees, txHash: keccak256(toUtf8Bytes(`sandbox rfq execution ${x.quoteId}`)) };
}

/**
 * A subaccount as the account methods show it (the client-account assumption): its collaterals (cash
 * and spot tokens at their price), its positions (perps and options at the mid, perps against their
 * average entry), its open orders and its margins, from the same ledger and valuation the order checks
 * use.
 */
import type { Collateral, Portfolio, Position } from '@exchange-api/types';
import { fmt, mul } from '../fixed';
import { mid } from './instrument';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { Margin } from './margin';
import type { OpenOrders } from './book';

/** The portfolio reads. */
export class Portfolios {
  constructor(
    private readonly instruments: Instruments,
    private readonly ledger: Ledger,
    private readonly margin: Margin,
    private readonly open: OpenOrders,
  ) {}

  /** The open orders of a subaccount, oldest first. */
  openOrders(subaccount: number) {
    return this.open.ofSubaccount(subaccount).map((r) => ({ ...r.order }));
  }

  /** One subaccount's portfolio. */
  of(subaccount: number): Portfolio {
    const collaterals: Collateral[] = [];
    const positions: Position[] = [];
    let collateralValue = 0n;
    for (const [asset, amount] of this.ledger.accounts.balances.get(subaccount) ?? []) {
      const inst = this.instruments.get(asset);
      if (!inst) {
        const price = this.instruments.spotPrice(asset);
        collateralValue += mul(amount, price);
        collaterals.push({
          asset_name: asset,
          asset_type: 'erc20',
          currency: asset,
          amount: fmt(amount),
          mark_price: fmt(price),
          mark_value: fmt(mul(amount, price)),
        });
        continue;
      }
      if (amount === 0n) continue;
      const mark = mid(inst);
      const entry = this.ledger.entryOf(subaccount, asset) ?? mark;
      const closed = this.ledger.closedOf(subaccount, asset);
      positions.push({
        instrument_name: asset,
        instrument_type: inst.cfg.instrument_type,
        amount: fmt(amount),
        average_price: fmt(entry),
        mark_price: fmt(mark),
        mark_value: fmt(mul(amount, mark)),
        unrealized_pnl: fmt(mul(amount, mark - entry)),
        unrealized_pnl_excl_fees: fmt(mul(amount, mark - entry)),
        realized_pnl: fmt(closed.realized - closed.fees),
        realized_pnl_excl_fees: fmt(closed.realized),
        total_fees: fmt(closed.fees),
        amount_step: inst.cfg.amount_step,
        index_price: fmt(this.instruments.indexPrice(inst), inst.priceDp),
        ...(closed.since === null ? {} : { creation_timestamp: closed.since }),
      });
    }
    const v = this.margin.valuation(subaccount);
    return {
      subaccount_id: subaccount,
      label: this.ledger.accounts.labelOf(subaccount),
      margin_type: 'SM',
      is_under_liquidation: false,
      subaccount_value: fmt(v.value),
      collaterals_value: fmt(collateralValue),
      positions_value: fmt(v.value - collateralValue),
      initial_margin: fmt(v.value - v.initial),
      maintenance_margin: fmt(v.value - v.maintenance),
      collaterals_initial_margin: fmt(collateralValue),
      collaterals_maintenance_margin: fmt(collateralValue),
      positions_initial_margin: fmt(-v.initial),
      positions_maintenance_margin: fmt(-v.maintenance),
      open_orders_margin: '0',
      projected_margin_change: '0',
      open_orders: this.openOrders(subaccount),
      positions,
      collaterals,
    };
  }
}

/**
 * A subaccount as the account methods show it (the client-account assumption): its collaterals (cash
 * and spot tokens at their price), its positions (perps and options at the mid, perps against their
 * average entry), its open orders and its margins, from the same ledger and valuation the order checks
 * use. Every field derive-ts 3.0.13 requires is sent; what the sandbox does not model (interest, funding
 * paid, fees to date, greeks of options, when a holding began) is sent as zero.
 */
import type { Collateral, Portfolio, Position } from '@exchange-api/types';
import { fixed, fmt, mul } from '../fixed';
import { mid, type Instrument } from './instrument';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { Margin } from './margin';
import type { OpenOrders } from './book';
import { RISK_UNIVERSE_ID, STANDARD_MANAGER_ID } from './rates';

/** The sandbox keeps no opening time of a holding; 0 says "not known" rather than inventing one. */
const NOT_RECORDED = 0;

/** The portfolio reads. */
export class Portfolios {
  /** Whether a subaccount is in a liquidation auction (liquidation.ts sets it). */
  inAuction: (subaccount: number) => boolean = () => false;

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
    let collateralInitial = 0n;
    let collateralMaintenance = 0n;
    for (const [asset, amount] of this.ledger.accounts.balances.get(subaccount) ?? []) {
      const inst = this.instruments.get(asset);
      if (!inst) {
        const c = this.collateral(asset, amount);
        collateralValue += mul(amount, this.instruments.spotPrice(asset));
        collateralInitial += fixed(c.initial_margin);
        collateralMaintenance += fixed(c.maintenance_margin);
        collaterals.push(c);
        continue;
      }
      if (amount !== 0n) positions.push(this.position(subaccount, inst, amount));
    }
    const v = this.margin.valuation(subaccount);
    return {
      subaccount_id: subaccount,
      label: this.ledger.accounts.labelOf(subaccount),
      margin_type: 'SM',
      is_under_liquidation: this.inAuction(subaccount),
      subaccount_value: fmt(v.value),
      collaterals_value: fmt(collateralValue),
      positions_value: fmt(v.value - collateralValue),
      initial_margin: fmt(v.value - v.initial),
      maintenance_margin: fmt(v.value - v.maintenance),
      collaterals_initial_margin: fmt(collateralInitial),
      collaterals_maintenance_margin: fmt(collateralMaintenance),
      positions_initial_margin: fmt(v.value - v.initial - collateralInitial),
      positions_maintenance_margin: fmt(v.value - v.maintenance - collateralMaintenance),
      open_orders_margin: '0',
      projected_margin_change: '0',
      open_orders: this.openOrders(subaccount),
      positions,
      collaterals,
      // A standard-margin subaccount is margined across currencies; only a portfolio-margin one names its currency.
      currency: [],
      failed_to_fetch: false,
      manager_id: STANDARD_MANAGER_ID,
      risk_universe_id: RISK_UNIVERSE_ID,
      vault_deposit_holds: [],
    };
  }

  /** Cash or a spot token: counted at its value less the erc20 haircut (none for cash) in each margin. */
  private collateral(asset: string, amount: bigint): Collateral {
    const price = this.instruments.spotPrice(asset);
    const worth = mul(amount, price);
    const value = fmt(worth);
    const spot = [...this.instruments.all()].find(
      (i) => i.cfg.instrument_type === 'erc20' && i.cfg.base_currency === asset,
    );
    const cut = spot && amount > 0n ? this.margin.requirement('erc20', worth) : { initial: 0n, maintenance: 0n };
    return {
      asset_name: asset,
      asset_type: 'erc20',
      currency: asset,
      amount: fmt(amount),
      mark_price: fmt(price),
      mark_value: value,
      amount_step: spot?.cfg.amount_step ?? '0',
      average_price: fmt(price),
      average_price_excl_fees: fmt(price),
      creation_timestamp: NOT_RECORDED,
      cumulative_interest: '0',
      pending_interest: '0',
      // A token moves one for one with its currency; the quote currency is what deltas are counted in.
      delta: spot ? fmt(amount) : '0',
      delta_currency: asset,
      initial_margin: fmt(worth - cut.initial),
      maintenance_margin: fmt(worth - cut.maintenance),
      open_orders_margin: '0',
      realized_pnl: '0',
      realized_pnl_excl_fees: '0',
      total_fees: '0',
      unrealized_pnl: '0',
      unrealized_pnl_excl_fees: '0',
    };
  }

  /** A perp or option position, with its share of the subaccount's margins (negative, as the totals are). */
  private position(subaccount: number, inst: Instrument, amount: bigint): Position {
    const name = inst.cfg.instrument_name;
    const mark = mid(inst);
    const entry = this.ledger.entryOf(subaccount, name) ?? mark;
    const closed = this.ledger.closedOf(subaccount, name);
    const need = this.margin.requirement(inst.cfg.instrument_type, mul(amount, mark));
    const pnl = fmt(mul(amount, mark - entry));
    const perp = inst.cfg.instrument_type === 'perp';
    return {
      instrument_name: name,
      instrument_type: inst.cfg.instrument_type,
      amount: fmt(amount),
      average_price: fmt(entry),
      mark_price: fmt(mark),
      mark_value: fmt(mul(amount, mark)),
      unrealized_pnl: pnl,
      realized_pnl: fmt(closed.realized - closed.fees),
      amount_step: inst.cfg.amount_step,
      average_price_excl_fees: fmt(entry),
      creation_timestamp: closed.since ?? NOT_RECORDED,
      cumulative_funding: '0',
      pending_funding: '0',
      net_settlements: '0',
      index_price: fmt(this.instruments.indexPrice(inst), inst.priceDp),
      // A perp's delta is its size; the sandbox prices no option model, so an option's greeks are zero.
      delta: perp ? fmt(amount) : '0',
      gamma: '0',
      theta: '0',
      vega: '0',
      initial_margin: fmt(-need.initial),
      maintenance_margin: fmt(-need.maintenance),
      open_orders_margin: '0',
      realized_pnl_excl_fees: fmt(closed.realized),
      total_fees: fmt(closed.fees),
      unrealized_pnl_excl_fees: pnl,
    };
  }
}

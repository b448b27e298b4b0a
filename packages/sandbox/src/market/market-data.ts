/**
 * The market-data reads beyond listings and the ticker (issue 31, item 6): tickers of a type, one
 * currency with its assets and managers, the assets, the risk universe the sandbox trades in, option
 * settlement prices, trade candles from the public tape, index candles from the prices sampled each
 * tick, and interest rates. The sandbox has one risk universe (id 1): a standard manager (id 1) for
 * every instrument, and a portfolio manager per currency with options (ids from 2). It charges no
 * interest in its rate history (interest.ts charges negative cash on its own); an option's settlement
 * price is set once it expired (expiry.ts).
 */
import type {
  AssetResponsePublic,
  Currency,
  Erc20Details,
  ExpirySettlementPrice,
  IndexCandle,
  InterestRateCandle,
  RiskUniverseManager,
  RiskUniverseResponse,
  Ticker,
  TradingviewCandle,
} from '@exchange-api/types';
import type { Accounts } from '../accounts';
import type { Clock } from '../clock';
import { fixed, fmt } from '../fixed';
import { RpcFailure } from '../rpc';
import { indexCandlesOf, keepSample, MINUTE_MS, tradeCandlesOf, type Sample } from './candles';
import type { Catalog } from './catalog';
import type { History } from './history';
import type { Instrument } from './instrument';
import type { Instruments } from './instruments';
import { cashAssetOf } from './funds';

export const UNIVERSE_ID = 1;
const UNIVERSE_NAME = 'standard';
const STANDARD_MANAGER = 1;

const invalid = (what: string) => RpcFailure.of('RPC_INVALID_PARAMS', what);
/** The ERC-20's own decimals: USDC's 6 (derive-ts signs withdrawals at them and checks), the other tokens' 18. */
const erc20Of = (address: string, name: string): Erc20Details => ({
  decimals: name === 'USDC' ? 6 : 18,
  underlying_erc20_address: address,
  borrow_index: '1',
  supply_index: '1',
});
/** An option's expiry date as its name gives it (`ETH-20261231-3000-C` → 20261231), or null. */
const expiryDateOf = (name: string) => /-(\d{8})-/.exec(name)?.[1] ?? null;
const ohlc = (o: bigint, h: bigint, l: bigint, c: bigint) => ({
  open: fmt(o),
  high: fmt(h),
  low: fmt(l),
  close: fmt(c),
});

/** The address of a cash currency's asset (USDC): the one transfers and withdrawals are signed for (funds.ts). */
export const cashAssetAddress = (currency: string): string => cashAssetOf(currency).address;

/** The market-data reads. */
export class MarketData {
  private readonly samples = new Map<string, Sample[]>();

  constructor(
    private readonly instruments: Instruments,
    private readonly catalog: Catalog,
    private readonly history: History,
    private readonly clock: Clock,
    private readonly accounts: Accounts,
    /** What negative cash is charged a year (interest.ts), as a fraction: the borrow rate reported. */
    private readonly borrowRatePerYear = 0,
  ) {}

  /** Record every currency's index price at this moment (called each market tick). */
  sample(now: number): void {
    for (const c of this.instruments.currencies)
      this.keep(c, Math.floor(now / MINUTE_MS), this.instruments.spotPrice(c));
  }

  private keep(currency: string, minute: number, price: bigint): void {
    let list = this.samples.get(currency);
    if (!list) this.samples.set(currency, (list = []));
    keepSample(list, minute, price);
  }

  private currencyOf(c: unknown): string {
    if (typeof c !== 'string' || !this.catalog.currencies().some((x) => x.currency === c))
      throw invalid(`unknown currency ${JSON.stringify(c).slice(0, 40)} (see public/get_all_currencies)`);
    return c;
  }

  private listed(name: unknown): Instrument {
    const inst = typeof name === 'string' ? this.instruments.get(name) : undefined;
    if (!inst)
      throw invalid(`unknown instrument ${JSON.stringify(name).slice(0, 80)} (see public/get_all_instruments)`);
    return inst;
  }

  /** public/get_tickers: the ticker of every instrument of the type (and currency, and expiry date YYYYMMDD). */
  tickers(type: string, currency?: string | null, expiryDate?: number | null): Record<string, Ticker> {
    const out: Record<string, Ticker> = {};
    for (const i of this.instruments.all()) {
      const { cfg } = i;
      if (cfg.instrument_type !== type || (currency != null && cfg.base_currency !== currency)) continue;
      if (expiryDate != null && expiryDateOf(cfg.instrument_name) !== String(expiryDate)) continue;
      out[cfg.instrument_name] = this.catalog.ticker(cfg.instrument_name);
    }
    return out;
  }

  /** The cash asset (the quote currency) every instrument settles in. */
  private cashAddress(currency = 'USDC'): string {
    return cashAssetAddress(currency);
  }

  private oi(inst: Instrument | undefined) {
    return { current_open_interest: fmt(inst?.oi ?? 0n), interest_cap: '1000000000' };
  }

  /** Asset names a manager lists: `ETH-PERP`, `ETH-OPTION`, and spot currencies by their name. */
  private assetNames(filter: (i: Instrument) => boolean): string[] {
    const names = new Set<string>();
    for (const i of this.instruments.all()) {
      if (!filter(i)) continue;
      const { instrument_type: t, base_currency: c } = i.cfg;
      names.add(t === 'perp' ? `${c}-PERP` : t === 'option' ? `${c}-OPTION` : c);
    }
    return [...names];
  }

  /** The collaterals a manager takes: the cash currencies and every spot token. */
  private collaterals() {
    const quotes = new Set([...this.instruments.all()].map((i) => i.cfg.quote_currency));
    const cash = [...quotes].map((q) => ({ name: q, address: this.cashAddress(q), discount: '1' }));
    const spots = [...this.instruments.all()]
      .filter((i) => i.cfg.instrument_type === 'erc20')
      .map((i) => ({ name: i.cfg.base_currency, address: i.asset.address, discount: '0.8' }));
    return [...cash, ...spots].map((c) => ({
      address: c.address,
      erc20: erc20Of(c.address, c.name),
      im_discount: c.discount,
      mm_discount: c.discount,
      min_deposit_usd: '1',
      name: c.name,
    }));
  }

  /** The portfolio managers: one per currency with options, numbered from 2 in currency order. */
  private portfolioManagers(): Map<string, number> {
    const withOptions = [...this.instruments.currencies].filter((c) =>
      [...this.instruments.all()].some((i) => i.cfg.base_currency === c && i.cfg.instrument_type === 'option'),
    );
    return new Map(withOptions.map((c, i) => [c, STANDARD_MANAGER + 1 + i]));
  }

  /** public/get_risk_universes. */
  riskUniverses(): RiskUniverseResponse[] {
    const collaterals = this.collaterals();
    const managers: RiskUniverseManager[] = [
      { manager_id: STANDARD_MANAGER, margin_type: 'SM', instruments: this.assetNames(() => true), collaterals },
    ];
    for (const [c, id] of this.portfolioManagers())
      managers.push({
        manager_id: id,
        margin_type: 'PM2',
        instruments: this.assetNames((i) => i.cfg.base_currency === c),
        collaterals,
      });
    return [
      {
        risk_universe_id: UNIVERSE_ID,
        name: UNIVERSE_NAME,
        description: 'The sandbox: every instrument, one universe',
        managers,
        security_module: { cash_asset: this.cashAddress(), cash_currency: 'USDC', subaccount_id: 1 },
      },
    ];
  }

  /** public/get_currency: the currency as get_all_currencies lists it, with its managers and assets. */
  currency(name: unknown): Currency {
    const c = this.currencyOf(name);
    const base = this.catalog.currencies().find((x) => x.currency === c)!;
    const universes = [{ risk_universe_id: UNIVERSE_ID, risk_universe_name: UNIVERSE_NAME }];
    const perp = this.instruments.ofTypeAndCurrency('perp', c);
    const option = this.instruments.ofTypeAndCurrency('option', c);
    const spot = this.instruments.ofTypeAndCurrency('erc20', c);
    const spotAddress = spot?.asset.address ?? (base.market_type === 'CASH' ? this.cashAddress(c) : null);
    return {
      ...base,
      managers: [{ ...universes[0]!, sm: STANDARD_MANAGER, pm: this.portfolioManagers().get(c) ?? null }],
      perp: perp
        ? {
            address: perp.asset.address,
            name: `${c}-PERP`,
            universes: universes.map((u) => ({ ...u, oi: this.oi(perp) })),
          }
        : null,
      option: option
        ? {
            address: option.asset.address,
            name: `${c}-OPTION`,
            universes: universes.map((u) => ({ ...u, oi: this.oi(option) })),
          }
        : null,
      spot: spotAddress
        ? [
            {
              address: spotAddress,
              erc20: erc20Of(spotAddress, c),
              min_deposit_usd: '1',
              name: c,
              universes: [
                {
                  risk_universe_id: UNIVERSE_ID,
                  oi: this.oi(spot),
                  srm_im_discount: base.market_type === 'CASH' ? '1' : '0.8',
                  srm_mm_discount: base.market_type === 'CASH' ? '1' : '0.8',
                  pm2_im_discount: base.market_type === 'CASH' ? '1' : '0.8',
                  pm2_mm_discount: base.market_type === 'CASH' ? '1' : '0.8',
                  lending: { borrow_apy: '0', supply_apy: '0', total_borrow: '0', total_borrow_cap: '0' },
                },
              ],
            },
          ]
        : [],
    };
  }

  /** public/get_all_currencies: every currency as get_currency gives it (derive-ts reads `spot` of each). */
  currencies(): Currency[] {
    return this.catalog.currencies().map((c) => this.currency(c.currency));
  }

  /** public/get_assets: the assets of a type and currency; none has expired. */
  assets(type: string, currency: string, expired: boolean): AssetResponsePublic[] {
    if (expired) return [];
    return [...this.instruments.all()]
      .filter((i) => i.cfg.instrument_type === type && i.cfg.base_currency === currency)
      .map((i) => {
        const r = this.catalog.record(i);
        return {
          address: i.asset.address,
          asset_id: `${i.asset.address}:${i.asset.subId}`,
          asset_name: i.cfg.instrument_name,
          asset_type: i.cfg.instrument_type,
          currency,
          sub_id: i.asset.subId,
          is_collateral: i.cfg.instrument_type === 'erc20',
          is_position: i.cfg.instrument_type !== 'erc20',
          option_details: r.option_details,
          perp_details: r.perp_details,
          erc20_details: r.erc20_details && {
            decimals: r.erc20_details.decimals,
            underlying_erc20_address: r.erc20_details.underlying_erc20_address,
            borrow_index: r.erc20_details.borrow_index,
            supply_index: r.erc20_details.supply_index,
          },
        };
      });
  }

  /** public/get_option_settlement_prices: every expiry of the currency's options; unsettled (null) until settled. */
  settlementPrices(currency: unknown): ExpirySettlementPrice[] {
    const c = this.currencyOf(currency);
    const byDate = new Map<string, { sec: number; price: string | null }>();
    for (const i of this.instruments.all()) {
      if (i.cfg.instrument_type !== 'option' || i.cfg.base_currency !== c) continue;
      const d = this.catalog.record(i).option_details!;
      const date = new Date(d.expiry * 1000).toISOString().slice(0, 10).replaceAll('-', '');
      byDate.set(date, { sec: d.expiry, price: d.settlement_price ?? null });
    }
    return [...byDate].map(([date, e]) => ({ expiry_date: date, utc_expiry_sec: e.sec, price: e.price }));
  }

  /**
   * public/get_tradingview_chart_data: candles of the instrument's trades on the public tape, `period`
   * seconds each, within [start, end] (seconds, as derive-ts sends them); a bucket without trades has
   * no candle. Candle timestamps are milliseconds (the timestamps-ms assumption).
   */
  tradeCandles(name: unknown, startSec: number, endSec: number, periodSec: number): TradingviewCandle[] {
    const inst = this.listed(name);
    const periodMs = this.period(periodSec);
    const trades = this.history
      .publicTrades()
      .filter((t) => t.instrument_name === inst.cfg.instrument_name)
      .filter((t) => t.timestamp >= startSec * 1000 && t.timestamp <= endSec * 1000)
      .reverse();
    return tradeCandlesOf(trades, periodMs);
  }

  /**
   * public/get_index_chart_data: candles of the currency's index price as sampled each market tick,
   * `period` seconds each within [start, end] (seconds), the current price counted as a sample now.
   */
  indexCandles(currency: unknown, startSec: number, endSec: number, periodSec: number): IndexCandle[] {
    const c = this.currencyOf(currency);
    const periodMs = this.period(periodSec);
    this.keep(c, Math.floor(this.clock.now() / MINUTE_MS), this.instruments.spotPrice(c));
    return indexCandlesOf(this.samples.get(c) ?? [], startSec, endSec, periodMs);
  }

  /**
   * public/get_interest_rate_history: one candle, the period (seconds, default an hour) holding now, and
   * only when the window (seconds, either end optional) holds now. Its borrow rate is what negative cash
   * is charged (`margin.borrowRatePerYear`, interest.ts) for a cash currency, 0 for any other (it is never
   * charged); its supply rate 0 (the sandbox lends to no one, so pays nothing). The supply is what
   * subaccounts hold of the currency, the borrow what they owe. Past totals are not kept.
   */
  interestRates(
    currency: unknown,
    universe: number | null | undefined,
    w: { start?: number | null; end?: number | null; period?: number | null },
  ): InterestRateCandle[] {
    const c = this.currencyOf(currency);
    // Another universe than the sandbox's one has no pools, so no rates.
    if (universe != null && universe !== UNIVERSE_ID) return [];
    const periodMs = this.period(w.period ?? 3600);
    const now = this.clock.now();
    if ((w.start != null && now < w.start * 1000) || (w.end != null && now > w.end * 1000)) return [];
    let supply = 0n;
    let borrow = 0n;
    for (const book of this.accounts.balances.values()) {
      const h = book.get(c) ?? 0n;
      if (h > 0n) supply += h;
      else borrow -= h;
    }
    const zero = ohlc(0n, 0n, 0n, 0n);
    const cash = [...this.instruments.all()].some((i) => i.cfg.quote_currency === c);
    const r = cash ? fixed(this.borrowRatePerYear.toFixed(12)) : 0n;
    return [
      {
        timestamp: Math.floor(now / periodMs) * periodMs,
        risk_universe_id: UNIVERSE_ID,
        borrow_apy: ohlc(r, r, r, r),
        supply_apy: zero,
        total_supply: fmt(supply),
        total_borrow: fmt(borrow),
      },
    ];
  }

  /** A candle period in milliseconds (the schema keeps it above 0), or -32602 when it is not a finite number. */
  private period(sec: number): number {
    if (!Number.isFinite(sec) || sec <= 0) throw invalid(`period must be a number of seconds above 0 (got ${sec})`);
    return Math.max(1, Math.round(sec * 1000));
  }
}

/**
 * What the market lists, as the public clients read it beyond the document (the client-markets,
 * client-ticker and client-history assumptions): currencies, instrument records with the asset an
 * order signs for, the ticker from the book under both the long and the slim names, and the funding
 * rate of every hour the sandbox has run, on its (movable) clock.
 */
import type {
  Currency,
  FundingRateEntry,
  Instrument as InstrumentRecord,
  OptionDetails,
  SpotAssetEntry,
  Ticker,
} from '@exchange-api/types';
import type { Clock } from '../clock';
import { RpcFailure } from '../rpc';
import { div, fmt } from '../fixed';
import { assetOf, mid, priceText, px, type Instrument } from './instrument';
import type { Instruments } from './instruments';
import { tickerPayload } from './feeds';
import { FUNDING_RATE_PER_HOUR, MAKER_FEE_BPS, RISK_UNIVERSE_ID, STANDARD_MANAGER_ID, TAKER_FEE_BPS } from './rates';

const HOUR_MS = 3_600_000;
/** The most funding entries one answer carries (the newest of the range). */
const MAX_FUNDING_ENTRIES = 1000;
/** Perps and spot tokens never expire: their deactivation is this far out (2100-01-01, seconds). */
const NEVER = 4_102_444_800;

/** Cash is a six-decimal token, as USDC is. */
const CASH_DECIMALS = 6;
/** The one manager and risk universe of every currency (rates.ts). */
const STANDARD_MANAGERS = {
  risk_universe_id: RISK_UNIVERSE_ID,
  risk_universe_name: 'standard',
  sm: STANDARD_MANAGER_ID,
  pm: null,
};

/**
 * A spot asset of a currency in the one risk universe: collateral counts at its full value (discount 1,
 * as the margins count it), no deposit minimum, and an open-interest cap far above anything the sandbox holds.
 */
function spotAsset(currency: string, address: string, decimals: number): SpotAssetEntry {
  const discount = '1';
  return {
    address,
    erc20: { decimals, underlying_erc20: null },
    min_deposit_usd: '0',
    name: currency,
    universes: [
      {
        risk_universe_id: RISK_UNIVERSE_ID,
        oi: { current_open_interest: '0', interest_cap: '1000000000' },
        srm_im_discount: discount,
        srm_mm_discount: discount,
        pm2_im_discount: discount,
        pm2_mm_discount: discount,
      },
    ],
  };
}

const rate = (bp: number) => fmt(BigInt(bp) * 10n ** 8n);
const unknown = (what: string) => RpcFailure.of('RPC_INVALID_PARAMS', what);

/** An option's expiry, strike and type from its name (`ETH-20261231-3000-C`), else a month out at the money. */
function optionDetails(inst: Instrument, startedAtMs: number): OptionDetails {
  const m = /^[A-Za-z0-9_]+-(\d{4})(\d{2})(\d{2})-(\d+(?:\.\d+)?)-([CP])$/.exec(inst.cfg.instrument_name);
  const expiry = m
    ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 8) / 1000
    : startedAtMs / 1000 + 30 * 86_400;
  return {
    expiry: Math.floor(expiry),
    index: `${inst.cfg.base_currency}-USD`,
    option_type: (m?.[5] ?? 'C') as 'C' | 'P',
    strike: m?.[4] ?? priceText(inst, inst.midTicks),
    settlement_price: null,
  };
}

/** The listing and market-data reads. */
export class Catalog {
  private readonly startedAtMs: number;
  /** An expired option's settlement price, null while it trades (expiry.ts sets it). */
  settlementOf: (name: string) => bigint | null = () => null;

  constructor(
    private readonly instruments: Instruments,
    private readonly clock: Clock,
  ) {
    this.startedAtMs = clock.now();
  }

  /** A listed instrument, or -32602 naming the name. */
  private listed(name: unknown): Instrument {
    const inst = typeof name === 'string' ? this.instruments.get(name) : undefined;
    if (!inst)
      throw unknown(`unknown instrument ${JSON.stringify(name).slice(0, 80)} (see public/get_all_instruments)`);
    return inst;
  }

  /** An instrument as public/get_instrument answers it. */
  record(inst: Instrument): InstrumentRecord {
    const { cfg } = inst;
    const option = cfg.instrument_type === 'option' ? optionDetails(inst, this.startedAtMs) : null;
    const settled = this.settlementOf(cfg.instrument_name);
    if (option && settled !== null) option.settlement_price = fmt(settled);
    return {
      instrument_type: cfg.instrument_type,
      instrument_name: cfg.instrument_name,
      scheduled_activation: Math.floor(this.startedAtMs / 1000),
      scheduled_deactivation: option?.expiry ?? NEVER,
      is_active: settled === null,
      tick_size: cfg.tick_size,
      minimum_amount: cfg.amount_step,
      maximum_amount: '1000000',
      amount_step: cfg.amount_step,
      mark_price_fee_rate_cap: null,
      maker_fee_rate: rate(MAKER_FEE_BPS),
      taker_fee_rate: rate(TAKER_FEE_BPS),
      base_fee: '0',
      base_currency: cfg.base_currency,
      quote_currency: cfg.quote_currency,
      option_details: option,
      perp_details:
        cfg.instrument_type === 'perp'
          ? {
              index: `${cfg.base_currency}-USD`,
              max_rate_per_hour: '0.004',
              min_rate_per_hour: '-0.004',
              static_interest_rate: '0',
              funding_rate: FUNDING_RATE_PER_HOUR,
              aggregate_funding: '0',
            }
          : null,
      erc20_details:
        cfg.instrument_type === 'erc20'
          ? { decimals: 18, underlying_erc20_address: inst.asset.address, borrow_index: '1', supply_index: '1' }
          : null,
      base_asset_address: inst.asset.address,
      base_asset_sub_id: inst.asset.subId,
      pro_rata_fraction: '0',
      fifo_min_allocation: '0',
      pro_rata_amount_step: '0',
    };
  }

  /** public/get_instrument. */
  instrument(name: unknown): InstrumentRecord {
    return this.record(this.listed(name));
  }

  /**
   * public/get_all_instruments: the instruments of a type (and currency), those trading, or with `expired`
   * those that expired and settled (options only: nothing else expires here).
   */
  list(type: string, currency: string | null | undefined, expired: boolean | null | undefined): InstrumentRecord[] {
    return [...this.instruments.all()]
      .filter((i) => i.cfg.instrument_type === type && (currency == null || i.cfg.base_currency === currency))
      .filter((i) => (this.settlementOf(i.cfg.instrument_name) !== null) === (expired === true))
      .map((i) => this.record(i));
  }

  /**
   * public/get_all_currencies: each base currency, then each quote-only currency as cash. A currency's spot
   * asset is the token its spot instrument trades (cash: a token of its own); a currency without a spot
   * instrument has none to deposit or transfer.
   */
  currencies(): Currency[] {
    const all = [...this.instruments.all()];
    const out: Currency[] = [];
    for (const c of this.instruments.currencies) {
      const spot = this.instruments.spotInstrument(c);
      const token = all.find((i) => i.cfg.base_currency === c && i.cfg.instrument_type === 'erc20');
      out.push({
        currency: c,
        market_type: 'ALL',
        spot_price: fmt(this.instruments.spotPrice(c)),
        spot_price_24h: spot ? fmt(px(spot, spot.stats.open)) : null,
        managers: [STANDARD_MANAGERS],
        spot: token ? [spotAsset(c, token.asset.address, 18)] : [],
      });
    }
    for (const c of new Set(all.map((i) => i.cfg.quote_currency)))
      if (!this.instruments.currencies.has(c)) {
        const cash = assetOf({ instrument_name: c, instrument_type: 'erc20', base_currency: c }).address;
        out.push({
          currency: c,
          market_type: 'CASH',
          spot_price: '1',
          spot_price_24h: '1',
          managers: [STANDARD_MANAGERS],
          spot: [spotAsset(c, cash, CASH_DECIMALS)],
        });
      }
    return out;
  }

  /**
   * public/get_ticker: one snapshot of the book under the long names (ccxt) and the slim ones (derive-ts, derive-py).
   */
  ticker(name: unknown): Ticker {
    const inst = this.listed(name);
    const now = this.clock.now();
    const slim = tickerPayload(this.instruments, inst, now).instrument_ticker as Record<string, unknown> & {
      stats: Record<string, unknown> & { c: string; h: string; l: string; n: number; oi: string };
    };
    const open = px(inst, inst.stats.open);
    const mark = mid(inst);
    return {
      ...this.record(inst),
      ...slim,
      timestamp: now,
      best_bid_price: slim.b as string,
      best_bid_amount: slim.B as string,
      best_ask_price: slim.a as string,
      best_ask_amount: slim.A as string,
      index_price: slim.I as string,
      mark_price: slim.M as string,
      min_price: slim.minp as string,
      max_price: slim.maxp as string,
      stats: {
        ...slim.stats,
        contract_volume: slim.stats.c,
        num_trades: String(slim.stats.n),
        open_interest: slim.stats.oi,
        high: slim.stats.h,
        low: slim.stats.l,
        percent_change: fmt(div(mark - open, open), 8),
        usd_change: fmt(mark - open),
      },
    } as Ticker;
  }

  /** public/get_funding_rate_history: one entry per hour since the sandbox started, oldest first, within [from, to]. */
  funding(name: unknown, from: number | null | undefined, to: number | null | undefined): FundingRateEntry[] {
    const inst = this.listed(name);
    if (inst.cfg.instrument_type !== 'perp')
      throw unknown(`${inst.cfg.instrument_name} is not a perpetual: it has no funding`);
    const first = Math.max(Math.floor(this.startedAtMs / HOUR_MS), Math.ceil((from ?? 0) / HOUR_MS));
    const last = Math.floor(Math.min(this.clock.now(), to ?? Infinity) / HOUR_MS);
    const out: FundingRateEntry[] = [];
    for (let h = Math.max(first, last - MAX_FUNDING_ENTRIES + 1); h <= last; h++) {
      const r = FUNDING_RATE_PER_HOUR;
      out.push({
        timestamp: h * HOUR_MS,
        funding_rate: r,
        open: r,
        high: r,
        low: r,
        close: r,
        currency: inst.cfg.base_currency,
        risk_universe_id: RISK_UNIVERSE_ID,
      });
    }
    return out;
  }
}

/**
 * RFQs and quotes: every subaccount that a channel asks about has one open RFQ of the simulation at a
 * time; counterparties quote it, signing each quote for real with the action signature of the rfq
 * module (the sandbox-market assumption).
 */
import { keccak256, toUtf8Bytes, type SigningKey } from 'ethers';
import type {
  BestQuoteChannelResult,
  PricedLegParamsAndResponse,
  PublicQuote,
  PublicRfq,
  QuotePublishResult,
} from '@exchange-api/types';
import {
  actionDigest,
  actionHash,
  defaultActionLayout,
  rfqQuoteData,
  type Action,
  type ActionInstrument,
} from '@exchange-api/auth';
import type { Accounts } from '../accounts';
import { ONE, bps, fixed, fmt, mul } from '../fixed';
import { amountText, mid, notional, priceText, px } from './instrument';
import type { Instruments } from './instruments';
import type { Counterparties } from './counterparties';
import { bookLevels } from './feeds';
import type { Margin } from './margin';
import type { Streams } from './random';
import { INITIAL_MARGIN_BPS, MAKER_FEE_BPS, TAKER_FEE_BPS } from './rates';
import { ZERO_ADDRESS, type Direction } from './types';

/** An RFQ of the simulation stays open this long. */
const RFQ_LIFETIME_MS = 60_000;
/** How many expired RFQs of a subaccount are kept until its wallet's next push. */
const EXPIRED_KEPT = 5;

/** The fields of a quote record its signature covers (with the legs' assets, from the instruments). */
export const QUOTE_SIGNED_FIELDS = [
  'direction',
  'legs',
  'max_fee',
  'nonce',
  'signature_expiry_sec',
  'subaccount_id',
  'signer',
] as const;

/** A quote's fields as it is signed. */
type SignedQuote = Pick<QuotePublishResult, (typeof QUOTE_SIGNED_FIELDS)[number]>;

/**
 * The Action a quote's counterparty signs: the rfq module of the spec's deployment, its data the quote's
 * max fee and legs with their instruments' assets; the counterparty both owner and signer.
 */
export function quoteAction(q: SignedQuote, assetOf: (instrument: string) => ActionInstrument): Action {
  return {
    subaccountId: q.subaccount_id,
    nonce: q.nonce,
    module: defaultActionLayout.deployment.modules.rfq!,
    data: rfqQuoteData({
      direction: q.direction,
      max_fee: q.max_fee,
      legs: q.legs.map((l) => ({ ...l, ...assetOf(l.instrument_name) })),
    }),
    expiry: q.signature_expiry_sec,
    owner: q.signer,
    signer: q.signer,
  };
}

/** A hash of a quote's legs (their instruments, sides, amounts and prices, by instrument). */
export function legsHash(legs: readonly PricedLegParamsAndResponse[]): string {
  const sorted = [...legs].sort((a, b) => (a.instrument_name < b.instrument_name ? -1 : 1));
  return keccak256(toUtf8Bytes(JSON.stringify(sorted.map((l) => [l.instrument_name, l.direction, l.amount, l.price]))));
}

/** An RFQ of the simulation with the side its taker wants and the quotes made on it, by counterparty index. */
interface SimRfq {
  rfq: PublicRfq;
  wants: Direction;
  quotes: Map<number, QuotePublishResult>;
}

/** The RFQs of the simulation and the quotes on them. */
export class Rfqs {
  /** The current RFQ of each subaccount, and RFQs that expired since their wallet's last push. */
  private readonly current = new Map<number, SimRfq>();
  private readonly expired = new Map<number, PublicRfq[]>();

  constructor(
    private readonly instruments: Instruments,
    private readonly accounts: Accounts,
    private readonly counterparties: Counterparties,
    private readonly margin: Margin,
    private readonly streams: Streams,
  ) {}

  /**
   * The instrument whose owner produces the RFQ channels in a fleet: their streams are scoped to its
   * ownership epoch there, so RFQ and quote ids do not repeat when it moves (the plain names alone).
   */
  private get home(): string {
    return this.instruments.first().cfg.instrument_name;
  }

  /** `{wallet}.rfqs`: the open RFQ of each of the wallet's subaccounts, and any that expired since the last push. */
  walletRfqs(wallet: string, now: number): PublicRfq[] {
    const out: PublicRfq[] = [];
    for (const sub of this.accounts.subaccountsOf(wallet)) {
      const open = this.rfqOf(sub, now).rfq;
      out.push(...(this.expired.get(sub) ?? []), { ...open, legs: open.legs.map((l) => ({ ...l })) });
      this.expired.delete(sub);
    }
    return out;
  }

  /** The open RFQ of a subaccount: a fresh one when it has none or its last one expired. */
  private rfqOf(subaccount: number, now: number): SimRfq {
    const sim = this.current.get(subaccount);
    if (sim && sim.rfq.valid_until > now) return sim;
    if (sim) {
      // Tell the wallet once that it expired.
      const list = this.expired.get(subaccount) ?? [];
      list.push({ ...sim.rfq, status: 'expired', last_update_timestamp: sim.rfq.valid_until });
      this.expired.set(subaccount, list.slice(-EXPIRED_KEPT));
    }
    const fresh = this.newRfq(subaccount, now);
    this.current.set(subaccount, fresh);
    return fresh;
  }

  /** One leg of a few thousand USDC of notional, in whole amount steps, on a stream of the subaccount's own. */
  private newRfq(subaccount: number, now: number): SimRfq {
    const r = this.streams.ofInstrument(`rfqs ${subaccount}`, this.home);
    const list = [...this.instruments.all()];
    const leg = list[Math.floor(r() * list.length)]!;
    const target = 1000 + Math.floor(r() * 19_000);
    const perLot = Number(notional(leg, leg.midTicks, 1)) / Number(ONE);
    const lots = Math.max(1, Math.round(target / perLot));
    const rfq: PublicRfq = {
      cancel_reason: '',
      creation_timestamp: now,
      fill_rate: null,
      filled_pct: '0',
      last_update_timestamp: now,
      legs: [
        {
          amount: amountText(leg, lots),
          direction: r() < 0.5 ? 'buy' : 'sell',
          instrument_name: leg.cfg.instrument_name,
        },
      ],
      // Fills come in whole amount steps, never more than the leg.
      partial_fill_step: leg.cfg.amount_step,
      recent_fill_rate: null,
      rfq_id: this.streams.uuid(`rfqs ${subaccount}`, this.home),
      status: 'open',
      subaccount_id: subaccount,
      total_cost: null,
      valid_until: now + RFQ_LIFETIME_MS,
      wallet: this.accounts.walletOf(subaccount) ?? ZERO_ADDRESS,
      filled_direction: null,
    };
    return { rfq, wants: r() < 0.5 ? 'buy' : 'sell', quotes: new Map() };
  }

  /**
   * A counterparty quotes the subaccount's open RFQ (replacing its own earlier quote on it, which is
   * returned cancelled): the legs priced 2–19 bp off the mid in the maker's favour, the maker fee on
   * the notional, and a real action signature by the counterparty's key.
   */
  quote(subaccount: number, now: number): QuotePublishResult[] {
    const sim = this.rfqOf(subaccount, now);
    const r = this.streams.ofInstrument(`quotes ${subaccount}`, this.home);
    const { index, cp } = this.counterparties.pickTaker(r);
    const direction: Direction = sim.wants === 'buy' ? 'sell' : 'buy';
    const { legs, total } = this.priceLegs(sim.rfq, direction, 2 + Math.floor(r() * 18));
    const signed: SignedQuote = {
      direction,
      legs,
      max_fee: fmt(bps(total, 10 * MAKER_FEE_BPS)),
      nonce: this.counterparties.nextNonce(cp, now),
      signature_expiry_sec: Math.floor(Math.min(now + 30_000, sim.rfq.valid_until) / 1000),
      subaccount_id: cp.subaccount,
      signer: cp.address,
    };
    const q: QuotePublishResult = {
      ...signed,
      mmp: false,
      rfq_id: sim.rfq.rfq_id,
      creation_timestamp: now,
      extra_fee: '0',
      fee: fmt(bps(total, MAKER_FEE_BPS)),
      fill_pct: '0',
      is_transfer: false,
      label: '',
      last_update_timestamp: now,
      legs_hash: legsHash(legs),
      liquidity_role: 'maker',
      quote_id: this.streams.uuid(`quotes ${subaccount}`, this.home),
      signature: this.signQuote(cp.wallet.signingKey, signed),
      status: 'open',
      batch_status: null,
      cancel_reason: null,
      tx_hash: null,
    };
    const previous = sim.quotes.get(index);
    sim.quotes.set(index, q);
    return previous
      ? [{ ...previous, status: 'cancelled', cancel_reason: 'user_request', last_update_timestamp: now }, q]
      : [q];
  }

  /** The counterparty's action signature over a quote, under the spec's deployment. */
  private signQuote(key: SigningKey, q: SignedQuote): string {
    const assetOf = (name: string) => {
      const inst = this.instruments.get(name)!;
      return { base_asset_address: inst.asset.address, base_asset_sub_id: inst.asset.subId };
    };
    const separator = defaultActionLayout.deployment.separator;
    return key.sign(actionDigest(separator, actionHash(quoteAction(q, assetOf)))).serialized;
  }

  /** The RFQ's legs priced `edge` bp off the mid in the favour of a maker quoting `direction`, and their notional. */
  private priceLegs(
    rfq: PublicRfq,
    direction: Direction,
    edge: number,
  ): { legs: PricedLegParamsAndResponse[]; total: bigint } {
    let total = 0n;
    const legs = rfq.legs.map((leg) => {
      const inst = this.instruments.get(leg.instrument_name)!;
      // The maker sells this leg when it sells the legs as given and the leg buys, or buys them and the leg sells.
      const makerSells = (direction === 'sell') === (leg.direction === 'buy');
      const ticks = makerSells
        ? Math.ceil(inst.midTicks * (1 + edge / 10_000))
        : Math.max(1, Math.floor(inst.midTicks * (1 - edge / 10_000)));
      total += mul(px(inst, ticks), fixed(leg.amount));
      return {
        amount: leg.amount,
        direction: leg.direction,
        instrument_name: leg.instrument_name,
        price: priceText(inst, ticks),
      };
    });
    return { legs, total };
  }

  /**
   * `{subaccount_id}.best.quotes`: the best open quote on the subaccount's RFQ for the side its taker
   * wants, with the taker fee, the cost against the book and the initial margin before and after.
   */
  bestQuote(subaccount: number, now: number): BestQuoteChannelResult {
    const sim = this.rfqOf(subaccount, now);
    if (sim.quotes.size === 0) this.quote(subaccount, now);
    const sign = sim.wants === 'buy' ? 1n : -1n;
    // The taker pays the legs it buys and receives the ones it sells.
    const cost = (q: QuotePublishResult) =>
      q.legs.reduce((s, l) => s + (l.direction === 'buy' ? sign : -sign) * mul(fixed(l.price), fixed(l.amount)), 0n);
    const best = [...sim.quotes.values()].reduce((a, b) => (cost(b) < cost(a) ? b : a));
    const against = this.againstBook(best, sim.wants);
    const fee = bps(against.notional, TAKER_FEE_BPS);
    const pre = this.margin.valuation(subaccount).initial;
    return {
      rfq_id: sim.rfq.rfq_id,
      error: null,
      result: {
        direction: sim.wants,
        down_liquidation_price: null,
        estimated_fee: fmt(fee),
        estimated_realized_pnl: fmt(-fee),
        estimated_realized_pnl_excl_fees: '0',
        estimated_total_cost: fmt(cost(best)),
        filled_pct: '0',
        is_valid: true,
        orderbook_total_cost: fmt(against.bookCost),
        post_initial_margin: fmt(pre + against.margin, 6),
        pre_initial_margin: fmt(pre, 6),
        suggested_max_fee: fmt(fee * 2n),
        post_liquidation_price: null,
        up_liquidation_price: null,
        best_quote: publicQuote(best),
        invalid_reason: null,
      },
    };
  }

  /** A quote's notional, what its legs would cost against the order book, and the initial margin they add. */
  private againstBook(q: QuotePublishResult, wants: Direction): { notional: bigint; bookCost: bigint; margin: bigint } {
    let total = 0n;
    let bookCost = 0n;
    let margin = 0n;
    for (const l of q.legs) {
      const inst = this.instruments.get(l.instrument_name)!;
      const amount = fixed(l.amount);
      const legNotional = mul(fixed(l.price), amount);
      total += legNotional;
      const takerBuys = (l.direction === 'buy') === (wants === 'buy');
      const top = bookLevels(inst, 1, 1);
      const bookPrice = fixed((takerBuys ? top.asks[0]?.[0] : top.bids[0]?.[0]) ?? fmt(mid(inst)));
      bookCost += (takerBuys ? 1n : -1n) * mul(bookPrice, amount);
      if (inst.cfg.instrument_type !== 'erc20') margin += bps(legNotional, INITIAL_MARGIN_BPS);
    }
    return { notional: total, bookCost, margin };
  }
}

/** The public view of a quote (best_quote). */
function publicQuote(q: QuotePublishResult): PublicQuote {
  return {
    cancel_reason: '',
    creation_timestamp: q.creation_timestamp,
    direction: q.direction,
    fill_pct: q.fill_pct,
    last_update_timestamp: q.last_update_timestamp,
    legs: q.legs.map((l) => ({ ...l })),
    legs_hash: q.legs_hash,
    liquidity_role: 'maker',
    quote_id: q.quote_id,
    rfq_id: q.rfq_id,
    status: q.status,
    subaccount_id: q.subaccount_id,
    wallet: q.signer,
  };
}

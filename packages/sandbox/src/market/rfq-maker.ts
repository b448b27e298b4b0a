/**
 * The simulated RFQ maker: one of the simulation's counterparties (seeded per RFQ) answers an RFQ with
 * a quote on each side, every leg priced an edge off its mark in the maker's favour (the edge drawn
 * per RFQ from the `rfq.maker` range), its max fee ten times the maker fee, its signature the
 * counterparty's real rfq-module signature, valid until a minute after the RFQ closes. It never
 * quotes an RFQ whose counterparties leave it out.
 */
import { actionDigest, actionHash, defaultActionLayout } from '@exchange-api/auth';
import type { RfqSettings } from '../options-rfq';
import { bps, fmt } from '../fixed';
import type { Counterparties } from './counterparties';
import type { Streams } from './random';
import { MAKER_FEE_BPS } from './rates';
import { quoteAction } from './rfqs';
import type { QuoteEntry, RfqEntry } from './rfq-book';
import { legSide, legsNotional, pricedWire, type PricedLeg } from './rfq-legs';
import type { Direction } from './types';

/** A maker's quote lives this long past its RFQ's close, so that it stays executable while the RFQ is open. */
const EXPIRY_MARGIN_SEC = 60;

/** Answers RFQs with signed two-sided quotes. */
export class RfqMaker {
  constructor(
    private readonly settings: RfqSettings['maker'],
    private readonly counterparties: Counterparties,
    private readonly streams: Streams,
    /** The instrument whose streams the RFQ ids are drawn on (a fleet scopes them by its epoch). */
    private readonly home: () => string,
  ) {}

  /** Whether an RFQ created at `created` is due for its answer at `now`. */
  due(e: RfqEntry, now: number): boolean {
    return this.settings.enabled && !e.answered && e.status === 'open' && now >= e.created + this.settings.delayMs;
  }

  /** The quotes answering the RFQ (none when no counterparty may quote it). */
  answer(e: RfqEntry, now: number): QuoteEntry[] {
    e.answered = true;
    const r = this.streams.ofInstrument(`rfq maker ${e.id}`, this.home());
    const eligible = this.counterparties.list
      .slice(1)
      .filter((c) => c.address !== e.wallet && (e.counterparties === null || e.counterparties.includes(c.address)));
    if (eligible.length === 0) return [];
    const cp = eligible[Math.floor(r() * eligible.length)]!;
    const { minEdgeBps: lo, maxEdgeBps: hi } = this.settings;
    const edge = lo + Math.floor(r() * (hi - lo + 1));
    return (['sell', 'buy'] as const).map((direction) => {
      const legs = this.price(e, direction, edge);
      const notional = legsNotional(legs);
      const q: QuoteEntry = {
        id: this.streams.uuid('rfq quote ids', this.home()),
        rfqId: e.id,
        subaccount: cp.subaccount,
        wallet: cp.address,
        signer: cp.address,
        signature: '',
        direction,
        legs,
        maxFee: bps(notional, 10 * MAKER_FEE_BPS),
        fee: bps(notional, MAKER_FEE_BPS),
        nonce: this.counterparties.nextNonce(cp, now),
        expirySec: Math.floor(e.validUntil / 1000) + EXPIRY_MARGIN_SEC,
        label: '',
        created: now,
        updated: now,
        status: 'open',
        cancelReason: '',
        isTransfer: false,
        txHash: null,
      };
      q.signature = this.sign(q, cp.wallet.signingKey);
      return q;
    });
  }

  /** The RFQ's legs priced `edge` bp off the mark in the favour of a maker quoting `direction`. */
  private price(e: RfqEntry, direction: Direction, edge: number): PricedLeg[] {
    return e.legs.map((leg) => {
      const mid = leg.inst.midTicks;
      const makerSells = legSide(leg, direction) === 'sell';
      const priceTicks = makerSells
        ? Math.ceil(mid * (1 + edge / 10_000))
        : Math.max(1, Math.floor(mid * (1 - edge / 10_000)));
      return { ...leg, priceTicks };
    });
  }

  /** The counterparty's rfq-module signature over the quote, under the spec's deployment. */
  private sign(q: QuoteEntry, key: { sign(digest: string): { serialized: string } }): string {
    const byName = new Map(q.legs.map((l) => [l.inst.cfg.instrument_name, l.inst]));
    const assetOf = (name: string) => {
      const inst = byName.get(name)!;
      return { base_asset_address: inst.asset.address, base_asset_sub_id: inst.asset.subId };
    };
    const action = quoteAction(
      {
        direction: q.direction,
        legs: q.legs.map(pricedWire),
        max_fee: fmt(q.maxFee),
        nonce: q.nonce,
        signature_expiry_sec: q.expirySec,
        subaccount_id: q.subaccount,
        signer: q.signer,
      },
      assetOf,
    );
    return key.sign(actionDigest(defaultActionLayout.deployment.separator, actionHash(action))).serialized;
  }
}

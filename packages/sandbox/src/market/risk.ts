/**
 * What the marks and the clock settle beyond funding, in one place behind the Market: the auctions of
 * accounts below maintenance (liquidation.ts, liquidate.ts), interest on negative cash (interest.ts),
 * option expiry (expiry.ts), deposits waiting for confirmation (deposit-desk.ts), and get_margin's
 * valuations (margin-simulation.ts).
 */
import type { Accounts } from '../accounts';
import type { Clock } from '../clock';
import type { Catalog } from './catalog';
import type { Counterparties } from './counterparties';
import { DepositDesk } from './deposit-desk';
import { Expiry } from './expiry';
import type { Funds } from './funds';
import type { Instruments } from './instruments';
import { Interest } from './interest';
import { executeBid, type BidParts } from './liquidate';
import { Liquidation, type Bid } from './liquidation';
import type { Ledger } from './ledger';
import type { Margin } from './margin';
import { MarginSimulation } from './margin-simulation';
import type { MoneyHistory } from './money-history';
import type { Streams } from './random';
import type { Publisher } from './types';

/** What the risk parts are made of. */
export interface RiskDeps {
  registry: Instruments;
  ledger: Ledger;
  margin: Margin;
  accounts: Accounts;
  money: MoneyHistory;
  streams: Streams;
  clock: Clock;
  out: Publisher;
  counterparties: Counterparties;
  funds: Funds;
  catalog: Catalog;
  /** In a fleet, whether this member owns an instrument's book. */
  owns: (name: string) => boolean;
  /** Cancel every open order of a subaccount (it went to auction). */
  cancelAll: (subaccount: number) => void;
  /** Cancel every resting order on an instrument (an option that expired). */
  cancelOn: (name: string) => void;
}

/** Auctions, interest, expiry, pending deposits and get_margin. */
export class Risk {
  readonly deposits: DepositDesk;
  readonly liquidation: Liquidation;
  readonly marginSimulation: MarginSimulation;
  readonly expiry: Expiry;
  private readonly interest: Interest;
  private readonly bidParts: BidParts;

  constructor(d: RiskDeps) {
    const { registry, ledger, margin, accounts, money, clock, out } = d;
    this.deposits = new DepositDesk(accounts, d.funds, clock);
    this.liquidation = new Liquidation(registry, ledger, margin, d.streams, clock, out, d.cancelAll, (sub) =>
      d.counterparties.list.some((c) => c.subaccount === sub),
    );
    this.bidParts = { instruments: registry, ledger, margin, liquidation: this.liquidation, clock, out };
    this.marginSimulation = new MarginSimulation(registry, ledger, margin);
    const first = registry.first().cfg.instrument_name;
    const rate = margin.model.borrowRatePerYear;
    this.interest = new Interest(registry, accounts, money, out, rate, clock.now(), () => d.owns(first));
    const termsOf = (inst: Parameters<Catalog['record']>[0]) => {
      const o = d.catalog.record(inst).option_details!;
      return { expirySec: o.expiry, strike: o.strike, type: o.option_type };
    };
    this.expiry = new Expiry(registry, accounts, money, out, termsOf, d.cancelOn, d.owns);
    d.catalog.settlementOf = (name) => this.expiry.priceOf(name);
  }

  /** Interest, expiry and confirmed deposits up to `now`; and, when `auctions`, the auctions' check. */
  settle(now: number, auctions: boolean): void {
    this.interest.settle(now);
    this.expiry.settle(now);
    this.deposits.settle(now);
    if (auctions) this.liquidation.check(now);
  }

  /** private/liquidate: a bid on a live auction. */
  bid(bid: Bid): { op_uuid: string; operation_id: number } {
    return executeBid(this.bidParts, bid);
  }
}

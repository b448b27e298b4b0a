/**
 * The instruments of the market and the lookups on them, each in one place: by name (or the first as a
 * fallback for generated samples), by type and currency, the spot and index prices.
 */
import { errorByName } from '@exchange-api/types';
import type { ResolvedOptions } from '../options';
import { RpcFailure } from '../rpc';
import { ONE } from '../fixed';
import { createInstrument, mid, type Instrument, type Resting } from './instrument';
import type { Streams } from './random';

const ORDER_REJECTED = errorByName('RPC_ORDER_REJECTED').code;

/** The market's instruments, in configuration order. */
export class Instruments {
  readonly byName = new Map<string, Instrument>();
  /** Base currencies of the instruments (spot_feed and trades.{type}.{currency} accept these). */
  readonly currencies = new Set<string>();

  constructor(options: ResolvedOptions, streams: Streams) {
    for (const cfg of options.instruments) {
      this.byName.set(cfg.instrument_name, createInstrument(cfg, streams.of(`walk ${cfg.instrument_name}`)));
      this.currencies.add(cfg.base_currency);
    }
  }

  all(): IterableIterator<Instrument> {
    return this.byName.values();
  }

  get(name: string): Instrument | undefined {
    return this.byName.get(name);
  }

  first(): Instrument {
    return this.byName.values().next().value as Instrument;
  }

  /** The instrument of this name, else the first (generated samples for addresses the market does not list). */
  orFirst(name: string | undefined): Instrument {
    return (name !== undefined ? this.byName.get(name) : undefined) ?? this.first();
  }

  /** The instrument of a resting order (always listed: orders are only accepted on listed instruments). */
  ofOrder(r: Resting): Instrument {
    return this.byName.get(r.order.instrument_name)!;
  }

  /** The instrument of this name, or an order rejection naming it. */
  orReject(name: string): Instrument {
    const inst = this.byName.get(name);
    if (!inst)
      throw new RpcFailure(
        ORDER_REJECTED,
        `unknown instrument ${JSON.stringify(name).slice(0, 80)} (see public/get_all_live_instruments)`,
      );
    return inst;
  }

  /** Any instrument of a type and base currency. */
  ofTypeAndCurrency(type: string, currency: string): Instrument | undefined {
    return [...this.all()].find((i) => i.cfg.instrument_type === type && i.cfg.base_currency === currency);
  }

  /** The instrument that prices a currency: its first perp or spot instrument. */
  spotInstrument(currency: string): Instrument | undefined {
    return [...this.all()].find((i) => i.cfg.base_currency === currency && i.cfg.instrument_type !== 'option');
  }

  /** The spot price of a currency: the mid of its spot instrument, 1 for a quote currency, else 0. */
  spotPrice(currency: string): bigint {
    const inst = this.spotInstrument(currency);
    if (inst) return mid(inst);
    return [...this.all()].some((i) => i.cfg.quote_currency === currency) ? ONE : 0n;
  }

  /** The index price of an instrument: the spot price of its base currency, else its own mid. */
  indexPrice(inst: Instrument): bigint {
    return this.spotPrice(inst.cfg.base_currency) || mid(inst);
  }

  /** public/get_all_live_instruments: the names (details are public/get_instrument's). */
  live(): string[] {
    return [...this.byName.keys()];
  }
}

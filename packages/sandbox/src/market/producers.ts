/**
 * Which payload each channel carries, and when: one producer per channel id of channelTable (a test
 * fails, naming the channel, when one is missing), and the publishing of a cadence's channels to
 * every subscribed address.
 */
import { normalizeAddress } from '@exchange-api/auth';
import { parameterEnum, type ChannelId } from '../channels';
import type { Instruments } from './instruments';
import type { Ledger } from './ledger';
import type { Margin } from './margin';
import type { Liquidation } from './liquidation';
import type { Rfqs } from './rfqs';
import type { Samples } from './samples';
import { orderbookPayload, spotFeedPayload, tickerPayload } from './feeds';
import { settledOf } from './settlement';
import { ZERO_ADDRESS, type Cadence, type Producer, type Publisher } from './types';

/** Every channel of channelTable with its producer. */
export type Producers = { readonly [K in ChannelId]: Producer };

/** The parts the producers draw on. */
export interface ProducerParts {
  instruments: Instruments;
  ledger: Ledger;
  margin: Margin;
  liquidation: Liquidation;
  rfqs: Rfqs;
  samples: Samples;
}

/**
 * The producers of every channel. Addresses naming an instrument the market does not list get the first one's payload.
 */
export function makeProducers({
  instruments: i,
  ledger,
  margin,
  liquidation,
  rfqs,
  samples,
}: ProducerParts): Producers {
  const sub = (p: Record<string, string>) => Number(p.subaccount_id ?? 0);
  // A generated sample carries the batch state its address asks for (the sandbox's own fills are Settled).
  const batch = (p: Record<string, string>) => ({ batch_status: (p.batch_status ?? 'Settled') as 'Settled' });
  const byType = (p: Record<string, string>) =>
    i.ofTypeAndCurrency(p.instrument_type ?? '', p.currency ?? '') ?? i.first();
  return {
    auctionsWatch: { cadence: 'slow', make: (_p, now) => liquidation.watch(now) },
    marginWatch: { cadence: 'slow', make: (_p, now) => margin.margins(now) },
    orderbook: {
      cadence: 'tick',
      make: (p, now) =>
        orderbookPayload(i.orFirst(p.instrument_name), Number(p.group ?? 1), Number(p.depth ?? 10), now),
    },
    spotFeed: { cadence: 'tick', make: (p, now) => spotFeedPayload(i, p.currency ?? i.first().cfg.base_currency, now) },
    subaccountBalances: { cadence: 'event', make: (p) => ledger.snapshot(sub(p)) },
    subaccountBestQuotes: { cadence: 'event', make: (p, now) => [rfqs.bestQuote(sub(p), now)] },
    subaccountOrders: { cadence: 'event', make: (p, now) => [samples.order(i.first(), sub(p), now)] },
    subaccountQuotes: { cadence: 'event', make: (p, now) => rfqs.quote(sub(p), now) },
    subaccountTrades: { cadence: 'event', make: (p, now) => [samples.privateTrade(i.first(), now, sub(p))] },
    tickerSlim: { cadence: 'interval', make: (p, now) => tickerPayload(i, i.orFirst(p.instrument_name), now) },
    trades: { cadence: 'event', make: (p, now) => [samples.trade(i.orFirst(p.instrument_name), now)] },
    tradesByType: { cadence: 'event', make: (p, now) => [samples.trade(byType(p), now)] },
    tradesByTypeBatch: {
      cadence: 'event',
      make: (p, now) => [{ ...settledOf(samples.trade(byType(p), now)), ...batch(p) }],
    },
    subaccountTradesBatch: {
      cadence: 'event',
      make: (p, now) => [{ ...samples.privateTrade(i.first(), now, sub(p)), ...batch(p) }],
    },
    walletRfqs: {
      cadence: 'event',
      make: (p, now) => rfqs.walletRfqs(normalizeAddress(p.wallet) ?? p.wallet ?? ZERO_ADDRESS, now),
    },
  };
}

/** Push every subscribed address of the channels of one cadence (those whose parameters pass `keep`). */
export function publishCadence(
  producers: Producers,
  out: Publisher,
  cadence: Cadence,
  now: number,
  keep: (p: Record<string, string>) => boolean = () => true,
): void {
  for (const id of Object.keys(producers) as ChannelId[]) {
    const producer = producers[id];
    if (producer.cadence !== cadence) continue;
    for (const [addr, p] of out.addresses(id)) if (keep(p)) out.publish(addr, producer.make(p, now));
  }
}

/** The values of the `interval` parameter of the channels pushed at their interval (ticker_slim's 100 and 1000 ms). */
export function intervalValues(producers: Producers): string[] {
  const values = new Set<string>();
  for (const id of Object.keys(producers) as ChannelId[])
    if (producers[id].cadence === 'interval') for (const v of parameterEnum(id, 'interval')) values.add(v);
  return [...values];
}

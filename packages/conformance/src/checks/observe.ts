/**
 * Not shown: payloads the document leaves open. The runner records what the server sends and reports a
 * schema inferred from the samples as an observation, never as a failure.
 */
import { channelTable } from '@exchange-api/types';
import type { Check, Ctx } from '../context';
import { inferSchema } from '../infer';
import { S } from './util';
import { publicSamples, pushesOf } from './samples';
import { privateSamples } from './private-samples';

/** Channels whose payload record the document leaves open (their schema is an open object). */
const open = [
  { id: 'tickerSlim', check: 'observe.ticker-slim', section: `${S.tickers} (fields of TickerSlimPayload: not shown)` },
  { id: 'spotFeed', check: 'observe.spot-feed', section: `${S.tickers}; SpotFeedPayload and SpotFeedEntry: not shown` },
  { id: 'subaccountTrades', check: 'observe.private-trade', section: `${S.trade} (fields: not shown)` },
] as const;

async function observe(ctx: Ctx, channelId: string): Promise<void> {
  const channel = channelTable.find((c) => c.id === channelId)!;
  const samples = channel.access === 'private' ? await privateSamples(ctx) : await publicSamples(ctx);
  if (samples.unavailable) ctx.skip(samples.unavailable);
  const pushes = pushesOf(samples, channelId);
  if (pushes.length === 0) {
    const why = `nothing was pushed on ${channel.address} in ${samples.windowMs} ms, so there is nothing to describe`;
    if (channel.access === 'private')
      ctx.skip(ctx.options.allowOrderFlow ? why : `${why}; own trades need --allow-order-flow`);
    ctx.inconclusive(why);
  }
  ctx.transcript.attach(pushes.slice(0, 3).map((p) => p.frame.entry));
  // Array channels push arrays of records: describe the record.
  const records = channel.payload.array
    ? pushes.flatMap((p) => (Array.isArray(p.data) ? p.data : [p.data]))
    : pushes.map((p) => p.data);
  const schema = await inferSchema(channel.payload.record, records);
  ctx.observe({
    text:
      `${channel.payload.record}: schema inferred from ${records.length} sample` +
      `${records.length === 1 ? '' : 's'} on ${[...new Set(pushes.map((p) => p.channel))].join(', ')}`,
    schema,
  });
}

export const observationChecks: Check[] = open.map((o) => ({
  id: o.check,
  title: `Record and describe ${channelTable.find((c) => c.id === o.id)!.payload.record} (not shown in the document)`,
  section: o.section,
  level: 'SHOULD' as const,
  needs: o.id === 'subaccountTrades' ? (['key', 'order-flow'] as const).slice() : [],
  run: (ctx: Ctx) => observe(ctx, o.id),
}));

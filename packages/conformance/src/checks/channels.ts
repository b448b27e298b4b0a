/** Payloads: every channel of the table against its schema (arrays where the document says arrays). */
import { matchChannel, type ChannelEntry } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import type { Check, Ctx } from '../context';
import { S, privateChannels, publicChannels, validateInto } from './util';
import { publicSamples, pushesOf, type Samples } from './samples';
import { privateSamples } from './private-samples';

function payloadCheck(channel: ChannelEntry): Check {
  const isPrivate = channel.access === 'private';
  return {
    id: `channels.payload.${channel.id}`,
    title:
      `${channel.address}: ` +
      (channel.payload.array ? `an array of ${channel.payload.record}` : `one ${channel.payload.record} object`),
    section: `${S.events} (rule 1); Resources and their fields › ${channel.payload.record}`,
    level: 'MUST',
    needs: isPrivate ? ['key'] : [],
    async run(ctx: Ctx) {
      const samples: Samples & { transcript: { entries: readonly import('../model').TranscriptEntry[] } } = isPrivate
        ? await privateSamples(ctx)
        : await publicSamples(ctx);
      if (samples.unavailable) ctx.skip(samples.unavailable);
      const addresses = samples.addresses.filter((a) => matchChannel(a)?.channel.id === channel.id);
      const pushes = pushesOf(samples, channel.id);
      // The subscribe exchange, then the pushes of this channel only (the shared probe saw every channel).
      ctx.transcript.attach(
        samples.transcript.entries.filter((e) => e.dir !== 'received' || !e.data.includes('"channel"')).slice(0, 12),
      );
      ctx.transcript.attach(pushes.slice(0, 3).map((p) => p.frame.entry));
      const refusedHere = samples.refused.filter((a) => addresses.includes(a));
      if (refusedHere.length > 0)
        ctx.abort({
          pointer: '/result',
          rule: isPrivate ? 'own private channels may be subscribed after login' : 'public channels may be subscribed',
          expected: 'ok',
          got: 'refused',
          message: `subscribe to ${refusedHere.join(', ')} was refused`,
        });
      if (pushes.length === 0) {
        const why = isPrivate
          ? ctx.options.allowOrderFlow
            ? `nothing was pushed on ${addresses.join(', ')} during the order activity ` +
              `(this runner has no RFQ or deposit flow)`
            : `nothing was pushed on ${addresses.join(', ')} in ${samples.windowMs} ms; ` +
              `private pushes follow account activity (--allow-order-flow creates some)`
          : `nothing was pushed on ${addresses.join(', ')} within ${samples.windowMs} ms`;
        if (isPrivate) ctx.skip(why);
        ctx.inconclusive(why);
      }
      const validate = validators.channels[channel.id as keyof typeof validators.channels];
      let bad = 0;
      for (const p of pushes) {
        const n = validateInto(
          ctx,
          validate,
          p.data,
          `${p.channel} payload`,
          `${channel.payload.record}${channel.payload.array ? '[]' : ''}`,
          '/params/data',
        );
        if (n > 0 && bad++ < 3) ctx.transcript.attach([p.frame.entry]);
        if (ctx.findings.length >= 10) break;
      }
    },
  };
}

export const channelChecks: Check[] = [...publicChannels, ...privateChannels].map(payloadCheck);

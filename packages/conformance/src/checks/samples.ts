/**
 * Shared probes that collect pushes: one connection subscribed to every public channel, sampled once per
 * run and read by the payload, semantics and observation checks (the private channels: private-samples.ts).
 */
import { matchChannel } from '@exchange-api/types';
import type { Ctx } from '../context';
import type { Push, RpcResponse } from '../connection';
import { method, publicChannels, refused, sampleAddresses } from './util';

/** Pushes collected per address, with the subscribe exchange. */
export interface Samples {
  addresses: string[];
  refused: string[];
  subscribe: RpcResponse | null;
  pushes: Push[];
  windowMs: number;
  /** Why nothing could be sampled (no instrument known, no key), when that is the case. */
  unavailable?: string;
}

/** Pushes on addresses of one channel id. */
export function pushesOf(samples: Samples, channelId: string): Push[] {
  return samples.pushes.filter((p) => p.channel !== undefined && matchChannel(p.channel)?.channel.id === channelId);
}

/** Subscribe `conn` to `addresses` and keep its pushes until `until` says enough, or while `during` runs. */
export async function collect(
  p: Ctx,
  addresses: string[],
  until: (pushes: Push[], elapsed: number) => boolean,
  maxMs: number,
  conn: Awaited<ReturnType<Ctx['connect']>>,
  during?: () => Promise<void>,
): Promise<Samples> {
  const subscribe = await p.call(conn, method('subscribe'), { channels: addresses });
  const start = Date.now();
  if (during) {
    await during().catch((err: Error) => p.note(`order activity stopped: ${(err as Error).message}`));
    // Pushes that follow the last action need a moment to arrive.
    await p.sleep(1000);
  } else {
    while (Date.now() - start < maxMs && conn.isOpen) {
      await p.sleep(100);
      if (until(conn.pushes(0), Date.now() - start)) break;
    }
  }
  const pushes = conn.pushes(0);
  // Cleanup only: the sample is judged on its pushes, and unsubscribe's own answers are the subscription
  // checks' to judge (a refusal here would be reported there, not twice).
  if (conn.isOpen) await p.call(conn, method('unsubscribe'), {}).catch(() => undefined);
  return {
    addresses,
    refused: addresses.filter((a) => refused(subscribe, a)),
    subscribe,
    pushes,
    windowMs: Date.now() - start,
  };
}

/** The public channels, sampled once per run (stops early once every address has pushed a few times). */
export function publicSamples(ctx: Ctx) {
  return ctx.shared('public-samples', async (p): Promise<Samples> => {
    const addresses = publicChannels.flatMap((c) => sampleAddresses(c, p.env));
    if (addresses.length === 0)
      return {
        addresses,
        refused: [],
        subscribe: null,
        pushes: [],
        windowMs: 0,
        unavailable: 'no instrument known: public/get_all_live_instruments returned none',
      };
    const conn = await p.connect('public-samples');
    const window = p.options.sampleWindowMs;
    const byAddress = (pushes: Push[]) =>
      new Map(addresses.map((a) => [a, pushes.filter((x) => x.channel === a).length]));
    // Cadence needs at least three gaps of the slowest ticker interval; stop once that and every channel is in.
    return collect(
      p,
      addresses,
      (pushes, elapsed) => elapsed >= Math.min(window, 3300) && [...byAddress(pushes).values()].every((n) => n >= 3),
      window,
      conn,
    );
  });
}

/**
 * Subscription channels that share one address. A pushed frame names only its address, so a client
 * cannot tell such channels apart (and their types would declare the address twice): they become one
 * channel, the first, carrying any one of their payloads, as a channel with several messages does.
 * Specs written from the server's side do this (Kraken's heartbeat and systemStatus are both at `/`).
 */
import type { DefaultsLog } from './plain-spec';
import type { ChannelModel, JsonSchema } from './types';
import { anyMessage, messageVariants } from './schema-tools';

/** The variants of a payload schema: a channel of several messages already carries several. */
const variants = (schema: JsonSchema): JsonSchema[] => messageVariants(schema) ?? [schema];

/** `channels` with each group of channels at one address merged into the first of them. */
export function mergeSharedAddresses(channels: ChannelModel[], log: DefaultsLog): ChannelModel[] {
  const byAddress = new Map<string, ChannelModel[]>();
  for (const c of channels) byAddress.set(c.address, [...(byAddress.get(c.address) ?? []), c]);
  const out: ChannelModel[] = [];
  for (const group of byAddress.values()) {
    const [first, ...rest] = group as [ChannelModel, ...ChannelModel[]];
    if (rest.length === 0) {
      out.push(first);
      continue;
    }
    log.applied('sharedAddress', `${group.map((c) => c.id).join(', ')} at ${first.address} → channel ${first.id}`);
    const schemas = group.flatMap((c) => variants(c.payload.schema));
    out.push({
      ...first,
      access: group.some((c) => c.access === 'private') ? 'private' : 'public',
      payload: { schema: anyMessage(schemas), record: null, array: false },
      examples: group.flatMap((c) => c.examples),
      exampleAddresses: group.flatMap((c) => c.exampleAddresses),
      exampleInfo: group.flatMap((c) => c.exampleInfo ?? c.examples.map(() => ({}))),
      messages: group.flatMap((c) => c.messages ?? []),
    });
  }
  return out;
}

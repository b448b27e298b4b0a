/**
 * Channel addresses, built from channelTable's templates by channel id: the sandbox never spells an
 * address itself, so a template changed in the spec moves every push with it.
 */
import { channelTable, fillAddress, type ChannelPayloads } from '@exchange-api/types';

/** A channel id of channelTable. */
export type ChannelId = keyof ChannelPayloads;

const templates = new Map<string, string>(channelTable.map((c) => [c.id, c.address]));

/** The filled-in address of a channel: `address('trades', { instrument_name: 'ETH-PERP' })`. */
export function address(id: ChannelId, params: Record<string, string | number> = {}): string {
  const template = templates.get(id);
  // The ids are typed from the generated tables, so this only fires if the two disagree.
  if (template === undefined) throw new Error(`channel ${id} is not in channelTable (regenerate the tables)`);
  return fillAddress(template, params);
}

/** The enum of one parameter of a channel (empty when the parameter has none). */
export function parameterEnum(id: ChannelId, name: string): readonly string[] {
  const channel = channelTable.find((c) => c.id === id);
  return (channel?.parameters.find((p) => p.name === name) as { enum?: readonly string[] } | undefined)?.enum ?? [];
}

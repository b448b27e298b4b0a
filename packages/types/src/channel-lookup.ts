/** This API's channels matched by address, through the one matcher over the generated channel table. */
import { channelTable, type ChannelEntry } from './generated/tables.gen';
import { channelMatcher, type TemplateMatch } from './match-channel';

/** A filled-in address matched to its channel, with the parameter values it carries. */
export type ChannelMatch = TemplateMatch<ChannelEntry>;

let matcher: ((address: string) => ChannelMatch | null) | null = null;

/** The channel a filled-in address belongs to, or null when it matches no template (most specific wins). */
export function matchChannel(address: string): ChannelMatch | null {
  matcher ??= channelMatcher(channelTable);
  return matcher(address);
}

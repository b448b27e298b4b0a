/**
 * The WebSocket URL of a channel: the URL the user gives (the server's, pathname included) with the
 * channel's address appended as a path (`/raw` + `/` → `/raw/`, `/ws` + `/test` → `/ws/test`), its
 * `{parameters}` filled in and the `ws` bindings' query added.
 */
import { UsageError } from '../errors';
import type { WireChannelEntry } from './wire-table';

export function channelUrl(
  base: string,
  channelId: string,
  channel: WireChannelEntry,
  params: Record<string, string> = {},
  query: Record<string, unknown> = {},
): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`url ${JSON.stringify(base)} is not a URL`);
  }
  if (channel.address !== null) {
    const path = channel.address.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const value = params[name];
      if (value === undefined)
        throw new UsageError(`channel ${channelId}: the address parameter ${name} is missing (options.params)`);
      return encodeURIComponent(String(value));
    });
    url.pathname = url.pathname.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
  }
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  return url.toString();
}

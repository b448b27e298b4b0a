/**
 * Which channels a connection's path is: each channel's address as a pattern (`/v1/marketdata/{symbol}`
 * matches `/v1/marketdata/btcusd`), under the mock's root; the query is the client's business.
 */
import type { MockModel } from './mock-model';

type Channel = NonNullable<MockModel['wire']>['channels'][number];

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

function pattern(address: string | null): RegExp {
  const path = address === null || address === '' ? '/' : address.startsWith('/') ? address : `/${address}`;
  const body = path
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : escape(part)))
    .join('');
  // `/` and `` are one address (a server may ignore the trailing slash); so are `/a` and `/a/`.
  return new RegExp(`^${body.replace(/\/$/, '')}/?$`);
}

/** A request's path without its query, decoded; null when it is no valid URI (a stray `%`). */
export function pathnameOf(path: string): string | null {
  try {
    return decodeURI(path.split('?')[0] ?? '/');
  } catch {
    return null;
  }
}

/** The channels at a request's path (without its query), or none. */
export function channelsAt(channels: Channel[], path: string): Channel[] {
  const pathname = pathnameOf(path);
  return pathname === null ? [] : channels.filter((c) => pattern(c.address).test(pathname));
}

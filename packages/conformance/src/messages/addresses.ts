/**
 * Where the runner connects: each channel's address appended to the `--ws` URL as a path (`/raw` + `/`
 * → `/raw/`), its `{parameters}` filled with the first value the spec lists (a parameter without listed
 * values gets `x`), the `ws` bindings' required query members with a typical value. Channels that come
 * out at one URL share one connection: what arrives there is judged against all their receive operations.
 */
import { typical } from '../generate/values';
import type { MsgSpec, WireOperationShape } from './wire-shape';

/** One URL the run connects to, and what the spec says is spoken there. */
export interface Address {
  url: string;
  /** The channels at this URL (the first names the address in check ids). */
  channels: string[];
  /** The operations the client receives there: the server pushes their messages. */
  receives: WireOperationShape[];
  /** The operations the client sends there. */
  sends: WireOperationShape[];
  /** Parameters the spec lists no value for (filled with `x`): said in the report. */
  guessed: string[];
}

function urlOf(spec: MsgSpec, base: string, channelId: string, guessed: string[]): string {
  const ch = spec.wire.channels.find((c) => c.id === channelId);
  const url = new URL(base);
  if (ch?.address != null) {
    const path = ch.address.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const listed = spec.parameterValues[channelId]?.[name] ?? [];
      if (listed.length === 0) guessed.push(`${channelId}.${name}`);
      return encodeURIComponent(listed[0] ?? 'x');
    });
    url.pathname = url.pathname.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
  }
  const query = ch?.query;
  if (query && Array.isArray(query.required)) {
    const props = (query.properties ?? {}) as Record<string, Record<string, unknown>>;
    const ctx = { doc: spec.doc, hints: {}, seed: 1 };
    for (const key of query.required as string[]) {
      const v = typical(ctx, props[key] ?? null, key);
      url.searchParams.set(key, typeof v === 'string' ? v : JSON.stringify(v));
    }
  }
  return url.toString();
}

/** The URLs of a run, each with its channels and operations (a reply's channel counts where it arrives). */
export function addressesOf(spec: MsgSpec, base: string): Address[] {
  const byUrl = new Map<string, Address>();
  const at = (channelId: string): Address => {
    const guessed: string[] = [];
    const url = urlOf(spec, base, channelId, guessed);
    let a = byUrl.get(url);
    if (!a) byUrl.set(url, (a = { url, channels: [], receives: [], sends: [], guessed }));
    if (!a.channels.includes(channelId)) a.channels.push(channelId);
    return a;
  };
  for (const ch of spec.wire.channels) at(ch.id);
  for (const op of spec.wire.operations) {
    if (op.action === 'send') at(op.channel).sends.push(op);
    else at(op.channel).receives.push(op);
  }
  return [...byUrl.values()];
}

/** The address an operation is spoken at. */
export function addressOfOp(addresses: Address[], op: WireOperationShape): Address {
  return addresses.find((a) => a.sends.includes(op) || a.receives.includes(op))!;
}

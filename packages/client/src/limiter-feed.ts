/**
 * What the client feeds its limiter from the server: the live budgets of `public/getRateLimits` and
 * the instrument types that pick an order's bucket. The limiter (limiter.ts) only counts; asking the
 * server, and reporting what it could not learn, is the client's, kept here apart from its calls.
 */
import { ClientError } from './errors';
import { asClientError } from './faults';
import { InstrumentTypes } from './instrument-types';
import type { Limiter, LimiterMark } from './limiter';
import type { CallOptions } from './types';

/**
 * A `public/getRateLimits` round trip (`send`, which calls `onBudgetTaken` once the limiter took the
 * request's budget) and the limiter corrected from its answer, knowing which takes came after it.
 */
export async function syncRateLimits(
  limiter: Limiter | null,
  authenticated: () => boolean,
  send: (onBudgetTaken: () => void) => Promise<unknown>,
): Promise<object> {
  let mark: LimiterMark | undefined;
  // The answer holds the wallet's budgets only if the session was logged in both when sent and when answered.
  const before = authenticated();
  const r = (await send(() => (mark = limiter?.mark()))) as object;
  limiter?.sync(r, before && authenticated(), mark);
  return r;
}

/**
 * The instrument types the limiter picks buckets by, learnt from the server through `lookup`, one
 * instrument's record by name (null for an API without such a lookup: then none are learnt); unknown ones
 * reported once.
 */
export function learnInstrumentTypes(
  limiter: Limiter,
  lookup: ((name: string, options: CallOptions) => Promise<unknown>) | null,
  report: (err: ClientError) => void,
): InstrumentTypes | null {
  limiter.onUnknownInstrument = (name, bucketId) =>
    report(
      new ClientError(
        'INSTRUMENT_TYPE_UNKNOWN',
        `limiter: the server reports no instrument type for ${name}; its orders draw on the ${bucketId} bucket`,
      ),
    );
  if (!lookup) return null;
  return new InstrumentTypes(limiter, lookup, (err) => report(asClientError(err)));
}

/**
 * The instrument types the limiter needs to pick an order's bucket, as the server reports them: an
 * instrument's own record (`public/get_instrument`, its `instrument_type`). The list the document names,
 * `public/get_all_live_instruments`, carries names only (derive-ts reads `string[]`), and the document
 * does not say how a name encodes its kind; `public/get_all_instruments` wants the type as its parameter.
 * One lookup per instrument, shared with the signing of orders (`ActionInstruments`), so a signed order
 * costs no extra request; a cancel on an instrument not yet seen costs one read of the non-matching
 * budget (the per-IP public one before login), which the limiter counts like any read, never a matching
 * point.
 */
import { RateLimitError, RpcError } from './errors';
import { isDrop } from './faults';
import type { Limiter } from './limiter';
import type { CallOptions } from './types';

/** How long a failed lookup of one name is not repeated (its orders draw on the fallback bucket meanwhile). */
const RETRY_AFTER_MS = 60_000;

/**
 * Looks up an instrument when an order names one the limiter has not seen, at most once a minute per
 * name; a failure other than the server's refusal of the name is reported, and the order goes on (an
 * instrument still unknown draws on the first bucket of the table, perps and spot, and the limiter notes
 * it once).
 */
export class InstrumentTypes {
  private readonly pending = new Map<string, Promise<void>>();
  private readonly askedAt = new Map<string, number>();

  constructor(
    private readonly limiter: Limiter,
    private readonly lookup: (name: string, options: CallOptions) => Promise<unknown>,
    private readonly report: (err: unknown) => void,
  ) {}

  /** Resolves once the limiter knows what the server reports for `name` (or the lookup failed, or ran lately). */
  learn(name: string, options: CallOptions): Promise<void> {
    let p = this.pending.get(name);
    if (!p && Date.now() - (this.askedAt.get(name) ?? -Infinity) >= RETRY_AFTER_MS) {
      this.askedAt.set(name, Date.now());
      p = this.lookup(name, { timeoutMs: options.timeoutMs, signal: options.signal })
        .then(
          (found) => {
            const type = (found as { instrument_type?: unknown } | null)?.instrument_type;
            if (typeof type === 'string')
              this.limiter.setInstrumentTypes([{ instrument_name: name, instrument_type: type }]);
          },
          // The server's refusal of the name is the limiter's note (INSTRUMENT_TYPE_UNKNOWN); the rest is reported.
          (err) => (refusesName(err) ? undefined : this.report(err)),
        )
        .finally(() => this.pending.delete(name));
      this.pending.set(name, p);
    }
    return p ?? Promise.resolve();
  }
}

/** The server answered the lookup with an error about the request, not a rate limit or a lost socket. */
const refusesName = (err: unknown) => err instanceof RpcError && !(err instanceof RateLimitError) && !isDrop(err);

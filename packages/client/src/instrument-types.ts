/**
 * The instrument types the limiter needs to pick an order's bucket, as the server reports them
 * (`public/get_all_live_instruments`, no budget decrement).
 */
import type { Limiter } from './limiter';
import type { CallOptions } from './types';

/**
 * Fetches the live instruments when an order names one the limiter has not seen, at most once a
 * minute; a failure is reported and the order goes on (an instrument still unknown draws on the
 * first bucket of the table, perps and spot).
 */
export class InstrumentTypes {
  private fetching: Promise<void> | null = null;
  private lastFetchAt = -Infinity;

  constructor(
    private readonly limiter: Limiter,
    private readonly fetchInstruments: (options: CallOptions) => Promise<unknown>,
    private readonly report: (err: unknown) => void,
  ) {}

  /**
   * Resolves once the limiter knows what the server reports (or the fetch failed, or one ran less than a
   * minute ago).
   */
  learn(options: CallOptions): Promise<void> {
    if (!this.fetching && Date.now() - this.lastFetchAt >= 60_000) {
      this.lastFetchAt = Date.now();
      this.fetching = this.fetchInstruments({ timeoutMs: options.timeoutMs, signal: options.signal })
        .then((list) => {
          if (Array.isArray(list)) this.limiter.setInstrumentTypes(list);
        }, this.report)
        .finally(() => (this.fetching = null));
    }
    return this.fetching ?? Promise.resolve();
  }
}

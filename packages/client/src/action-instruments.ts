/**
 * The instruments an order's action signature commits to (the trade module's asset and sub id), as the
 * server reports them (`public/get_instrument`), fetched once per name: an instrument's asset never
 * changes. A failed lookup is not kept, so the next order asks again. The limiter reads the instrument's
 * type from the same records (instrument-types.ts), so one lookup serves both.
 */
import type { ActionInstrument } from '@exchange-api/auth';
import { UsageError } from './errors';
import type { CallOptions } from './types';

/** Looks up and caches the asset address and sub id of instruments by name. */
export class ActionInstruments {
  private readonly known = new Map<unknown, Promise<ActionInstrument>>();

  constructor(
    /** Calls the server's instrument lookup, or null when the API has none. */
    private readonly lookup: ((name: unknown, options: CallOptions) => Promise<unknown>) | null,
  ) {}

  /** The instrument `name`, from the cache or the server (whose error, for an unknown name, rejects). */
  of(name: unknown, options: CallOptions): Promise<ActionInstrument> {
    if (!this.lookup) return Promise.reject(new UsageError('signing an order needs public/get_instrument'));
    let found = this.known.get(name);
    if (!found) {
      found = this.lookup(name, { timeoutMs: options.timeoutMs, signal: options.signal }) as Promise<ActionInstrument>;
      // A failed lookup is forgotten so the next order asks again; its error reaches the caller through `found`.
      found.catch(() => this.known.delete(name));
      this.known.set(name, found);
    }
    return found;
  }
}

/** The one reading of the rate-limit retry hint ("Retry after <ms> ms"), through the generated error table. */
import { parseRetryHint } from '@exchange-api/types';

/** The hinted wait in milliseconds, or null when `data` is not a hint of the documented form. */
export function retryAfterMs(data: unknown): number | null {
  return typeof data === 'string' ? parseRetryHint(data) : null;
}

/** Whether `data` is a retry hint of the documented form. */
export function isRetryHint(data: unknown): boolean {
  return retryAfterMs(data) !== null;
}

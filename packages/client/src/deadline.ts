/** The bound of one call: its timeout and the caller's AbortSignal folded into one signal. */
import { AbortedError, TimeoutError } from './errors';

/** One call's signal (aborted with the typed error: TimeoutError or AbortedError) and the release of its timer. */
export interface CallDeadline {
  readonly signal: AbortSignal;
  /** Stop the timer and stop listening to the caller's signal; call once the call settled. */
  release(): void;
}

/** Start the deadline of a call to `method`: `timeoutMs` from now, or sooner if `callerSignal` fires. */
export function startDeadline(method: string, timeoutMs: number, callerSignal?: AbortSignal): CallDeadline {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new TimeoutError(method, timeoutMs)), timeoutMs);
  const onAbort = () => ctl.abort(new AbortedError(method, { cause: callerSignal!.reason }));
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: ctl.signal,
    release: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Cancellation of one check: once its signal is aborted (the time limit), every wait ends at once with
 * the timeout's Stop, so a stopped check unwinds instead of going on talking to the server.
 */
import { stoppedBy } from './outcome';

/** The stop signal of a check, and the waits that honour it. */
export class Cancellation {
  constructor(readonly signal: AbortSignal) {}

  /** Throw the timeout's Stop when the check has been stopped. */
  throwIfStopped(): void {
    if (this.signal.aborted) throw stoppedBy(this.signal);
  }

  /** Wait; throws the timeout's Stop at once when the check is stopped meanwhile. */
  sleep(ms: number): Promise<void> {
    this.throwIfStopped();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(stoppedBy(this.signal));
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** How a check ends early: a Stop carries the outcome, and a stopped check's signal carries its Stop. */
import type { CheckStatus } from './model';

/** Thrown to end a check early with an outcome. */
export class Stop extends Error {
  constructor(
    readonly status: CheckStatus,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The outcome of a check stopped by its time limit (what every helper throws once the signal is aborted). */
export function stoppedBy(signal: AbortSignal): Stop {
  return signal.reason instanceof Stop ? signal.reason : new Stop('inconclusive', 'the check was stopped');
}

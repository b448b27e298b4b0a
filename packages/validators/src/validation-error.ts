import { formatFailures, type Failure } from './failures';

/** Thrown by assertValid: which value failed and every failure with its pointer, rule and value. */
export class ValidationError extends Error {
  readonly code = 'VALIDATION_FAILED';
  constructor(
    /** What was checked, e.g. `channel orderbook payload`. */
    readonly target: string,
    readonly failures: Failure[],
  ) {
    super(
      `${target} is not valid (${failures.length} failure${failures.length === 1 ? '' : 's'}` +
        `):\n${formatFailures(failures)}`,
    );
    this.name = 'ValidationError';
  }
}

/**
 * Payload and result checking with the generated validators. The validators load lazily, on the
 * first connect or the first HTTP call, and not at all with `validate: 'off'`.
 */
import { PayloadValidationError } from './errors';
import type { Emitter } from './events';
import type { ClientEvents, ValidateMode, ValidatorFn, ValidatorSource } from './types';

/** Checks channel payloads and call results, and reports what fails through `validation`. */
export class Validation {
  private source: ValidatorSource | null;
  private loading: Promise<void> | null = null;

  constructor(
    readonly mode: ValidateMode,
    given: ValidatorSource | undefined,
    private readonly events: Emitter<ClientEvents>,
  ) {
    this.source = given ?? null;
  }

  /** Load @exchange-api/validators unless validators were given or validation is off; once. */
  load(): Promise<void> {
    if (this.mode === 'off' || this.source) return Promise.resolve();
    return (this.loading ??= import('@exchange-api/validators').then(
      (v) => {
        this.source = {
          channels: v.validators.channels as never,
          assumedResults: v.validators.assumedResults as never,
          failuresOf: v.failuresOf as never,
        };
      },
      (err: unknown) => {
        // A failed load may be retried by the next connect or call.
        this.loading = null;
        throw err;
      },
    ));
  }

  /** The validator of a channel's payloads, or null when off or not loaded yet. */
  channelValidator(channelId: string): ValidatorFn | null {
    return this.mode === 'off' ? null : (this.source?.channels[channelId] ?? null);
  }

  /** Whether a payload may be delivered: true when valid; a bad one is reported, and kept only in `warn`. */
  admitPayload(validate: ValidatorFn, address: string, channelId: string, payload: unknown): boolean {
    if (validate(payload)) return true;
    const failures = this.source!.failuresOf(validate as never, payload);
    const dropped = this.mode === 'strict';
    this.events.emit('validation', {
      target: address,
      channel: channelId,
      failures,
      dropped,
      error: new PayloadValidationError(address, failures),
    });
    return !dropped;
  }

  /** The result of `method` if it passes (or is only reported in `warn`); throws PayloadValidationError in `strict`. */
  checkResult(method: string, result: unknown): unknown {
    const validate = this.mode === 'off' ? undefined : this.source?.assumedResults[method];
    if (validate && !validate(result)) {
      const failures = this.source!.failuresOf(validate as never, result);
      const error = new PayloadValidationError(`result of ${method}`, failures);
      const dropped = this.mode === 'strict';
      this.events.emit('validation', { target: `result of ${method}`, channel: null, failures, dropped, error });
      if (dropped) throw error;
    }
    return result;
  }
}

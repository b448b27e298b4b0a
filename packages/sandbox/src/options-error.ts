/** The error of a bad sandbox option or config key. */

/** Thrown for a bad option or config key; the message names the key. */
export class SandboxOptionsError extends Error {
  readonly code = 'SANDBOX_OPTIONS_INVALID';
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(key ? `${key}: ${message}` : message);
    this.name = 'SandboxOptionsError';
  }
}

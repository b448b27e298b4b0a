/** How the client sorts failures: a lost socket, and anything else as a ClientError for the `error` event. */
import { ClientError, ConnectionClosedError, ConnectionLimitError } from './errors';

/** The socket went away under a call (closed, or refused for the connection limit). */
export function isDrop(err: unknown): boolean {
  return err instanceof ConnectionClosedError || err instanceof ConnectionLimitError;
}

/** Any failure as a ClientError (unexpected ones as INTERNAL), for the `error` event. */
export function asClientError(err: unknown): ClientError {
  return err instanceof ClientError
    ? err
    : new ClientError('INTERNAL', (err as Error)?.message ?? String(err), undefined, { cause: err });
}

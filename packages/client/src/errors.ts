/**
 * Every failure the client reports is a ClientError with a stable string `code`; server answers also
 * carry the JSON-RPC `rpcCode`. Which class a server error gets is read from the API's own error
 * table (server-errors.ts), so a spec change moves it with it; these are the classes only.
 */

/** Plain JSON-RPC error object as it arrives on the wire. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: string | null;
}

/** Base of every error the client throws or reports. */
export class ClientError extends Error {
  constructor(
    /** Stable string code; see the table in the README. */
    readonly code: string,
    message: string,
    /** The JSON-RPC error code when the server gave one. */
    readonly rpcCode?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Transport: the socket could not be opened (code CONNECT_FAILED). */
export class ConnectError extends ClientError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CONNECT_FAILED', message, undefined, options);
  }
}

/** Transport: the connection closed (or was never open) while the request needed it (code CONNECTION_CLOSED). */
export class ConnectionClosedError extends ClientError {
  constructor(
    message = 'connection closed',
    readonly closeCode?: number,
  ) {
    super('CONNECTION_CLOSED', message);
  }
}

/** Transport: no answer within the call's timeout (code TIMEOUT). */
export class TimeoutError extends ClientError {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super('TIMEOUT', `${method}: no answer within ${timeoutMs} ms`);
  }
}

/** Transport: the caller's AbortSignal fired (code ABORTED). */
export class AbortedError extends ClientError {
  constructor(
    readonly method: string,
    options?: { cause?: unknown },
  ) {
    super('ABORTED', `${method}: aborted`, undefined, options);
  }
}

/** Which wire fault a ProtocolError reports. */
export type ProtocolFault =
  | 'garbage'
  | 'binary'
  | 'unknown-id'
  | 'unknown-channel'
  | 'bad-frame'
  | 'http-status'
  /** A frame of an API that speaks its own messages: no reply to an open request, no message received there. */
  | 'unasked';

/** Protocol: a frame the client could not use (code PROTOCOL). Reported through the `error` event. */
export class ProtocolError extends ClientError {
  constructor(
    readonly fault: ProtocolFault,
    message: string,
    readonly frame?: string,
  ) {
    super('PROTOCOL', message);
  }
}

/** Client misuse: a method not served on the requested transport, a missing signer… Thrown at once (code USAGE). */
export class UsageError extends ClientError {
  constructor(message: string) {
    super('USAGE', message);
  }
}

/** One failed check of a payload: JSON pointer, rule, message and the value cut short. */
export interface PayloadFailure {
  pointer: string;
  rule: string;
  message: string;
  value: string;
}

/** Validation: a payload or result that fails its generated validator (code VALIDATION_FAILED). */
export class PayloadValidationError extends ClientError {
  constructor(
    /** What was checked: a channel address or `result of <method>`. */
    readonly target: string,
    readonly failures: PayloadFailure[],
  ) {
    const first = failures[0];
    super(
      'VALIDATION_FAILED',
      `${target} is not valid${first ? `: ${first.pointer} ${first.rule}` : ''}` +
        `${failures.length > 1 ? ` (+${failures.length - 1} more)` : ''}`,
    );
  }
}

/** A stream's consumer fell behind with overflow policy 'error' (code STREAM_OVERFLOW). */
export class StreamOverflowError extends ClientError {
  constructor(
    readonly address: string,
    readonly bufferSize: number,
  ) {
    super('STREAM_OVERFLOW', `stream ${address}: more than ${bufferSize} payloads waiting`);
  }
}

/**
 * Server: a JSON-RPC error answer (code: the error table's name for it, e.g. RPC_INVALID_PARAMS, or RPC_ERROR
 * when it has none).
 */
export class RpcError extends ClientError {
  readonly data: string | null;
  constructor(error: RpcErrorObject, code = 'RPC_ERROR') {
    super(code, error.message, error.code);
    this.data = error.data ?? null;
  }
}

/**
 * Server: a rate limit, a code of kind `rate-limit` in the API's error table or in a reserved range
 * holding one (this interface: -32000…-32099; code RATE_LIMITED, or the table's name for it).
 * `retryAfterMs` is the wait the error's `data` asks for, read with the table's template (`Retry
 * after <ms> ms`); `local` is true when the client's own limiter gave up waiting.
 */
export class RateLimitError extends RpcError {
  constructor(
    error: RpcErrorObject,
    readonly retryAfterMs: number | null = null,
    readonly local = false,
    code = 'RATE_LIMITED',
  ) {
    super(error, code);
  }
}

/**
 * Server: the connection count was exceeded (code CONNECTION_LIMIT; this interface: -32100); the socket is
 * closed after it.
 */
export class ConnectionLimitError extends RpcError {
  constructor(
    error: RpcErrorObject,
    readonly frame?: string,
    code = 'CONNECTION_LIMIT',
  ) {
    super(error, code);
  }
}

/**
 * Server: login and access failures (codes AUTH_*: required, invalid signature, timestamp window, access
 * denied, action signature).
 */
export class AuthError extends RpcError {}

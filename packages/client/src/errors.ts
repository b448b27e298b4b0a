/**
 * Every failure the client reports is a ClientError with a stable string `code`; server answers also
 * carry the JSON-RPC `rpcCode`. The server-side classes are chosen from the generated error table, so a
 * spec change moves them with it.
 */
import { errorByCode, errorOfKind, isRateLimitCode, parseRetryHint } from '@exchange-api/types';

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
export type ProtocolFault = 'garbage' | 'binary' | 'unknown-id' | 'unknown-channel' | 'bad-frame' | 'http-status';

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
      `${target} is not valid${first ? `: ${first.pointer} ${first.rule}` : ''}${failures.length > 1 ? ` (+${failures.length - 1} more)` : ''}`,
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

/** Server: a JSON-RPC error answer (code RPC_<message>, e.g. RPC_INVALID_PARAMS, or RPC_ERROR when the code is unknown). */
export class RpcError extends ClientError {
  readonly data: string | null;
  constructor(error: RpcErrorObject, code = rpcStringCode(error.code)) {
    super(code, error.message, error.code);
    this.data = error.data ?? null;
  }
}

/**
 * Server: -32000…-32099, a rate limit (code RATE_LIMITED). `retryAfterMs` comes from the
 * `Retry after <ms> ms` hint; `local` is true when the client's own limiter gave up waiting.
 */
export class RateLimitError extends RpcError {
  readonly retryAfterMs: number | null;
  constructor(
    error: RpcErrorObject,
    readonly local = false,
  ) {
    super(error, 'RATE_LIMITED');
    this.retryAfterMs = parseRetryHint(error.data);
  }
}

/** Server: the per-IP connection count was exceeded (code CONNECTION_LIMIT, -32100); the socket is closed after it. */
export class ConnectionLimitError extends RpcError {
  constructor(
    error: RpcErrorObject,
    readonly frame?: string,
  ) {
    super(error, 'CONNECTION_LIMIT');
  }
}

/** Server: login and access failures (codes AUTH_*: required, invalid signature, timestamp window, access denied, action signature). */
export class AuthError extends RpcError {}

const connectionLimit = errorOfKind('connection-limit');

/** The text-frame prefix the server sends before closing a socket over the connection limit. */
export const connectionLimitPrefix: string = connectionLimit.textFramePrefix;

/** The stable string code of a JSON-RPC error code: the error table's name for it. */
export function rpcStringCode(code: number): string {
  if (isRateLimitCode(code)) return 'RATE_LIMITED';
  return errorByCode(code)?.name ?? 'RPC_ERROR';
}

/** The error class for a server error answer, by the error table's kind: RateLimitError, ConnectionLimitError, AuthError or RpcError. */
export function rpcErrorFromCode(error: RpcErrorObject): RpcError {
  if (isRateLimitCode(error.code)) return new RateLimitError(error);
  const kind = errorByCode(error.code)?.kind;
  if (kind === 'connection-limit') return new ConnectionLimitError(error);
  if (kind === 'auth') return new AuthError(error);
  return new RpcError(error);
}

/** A ConnectionLimitError built from the server's text frame. */
export function connectionLimitFromFrame(frame: string): ConnectionLimitError {
  return new ConnectionLimitError(
    {
      code: connectionLimit.code,
      message: connectionLimit.message,
      data: frame.slice(connectionLimitPrefix.length).trim() || null,
    },
    frame,
  );
}

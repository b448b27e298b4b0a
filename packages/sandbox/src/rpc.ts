/**
 * JSON-RPC errors and frames. Messages, HTTP statuses, the connection-limit prefix and the retry hint
 * come from the generated errorTable; the sandbox names codes by errorTable's stable names
 * (`RpcFailure.of('RPC_INVALID_PARAMS', …)`), so a code the spec drops stops tsc instead of reaching the wire.
 */
import {
  errorByCode,
  errorByName,
  errorOfKind,
  formatRetryHint,
  type ErrorCode,
  type ErrorName,
} from '@exchange-api/types';

export type { ErrorCode, ErrorName };

/** A JSON-RPC error object as sent on the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: string;
}

/** The code of an errorTable entry by its stable name. */
export function codeOf(name: ErrorName): ErrorCode {
  return errorByName(name).code;
}

/** The error object for a code of errorTable, with optional data. */
export function errorObject(code: ErrorCode, data?: string): WireError {
  const message = entryOf(code).message;
  return data === undefined ? { code, message } : { code, message, data };
}

/** The error object of an errorTable entry named by its stable name, with optional data. */
export function namedError(name: ErrorName, data?: string): WireError {
  return errorObject(codeOf(name), data);
}

/** Thrown inside handlers; becomes the JSON-RPC error of the reply. */
export class RpcFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly data?: string,
  ) {
    super(`${code}${data ? `: ${data}` : ''}`);
    this.name = 'RpcFailure';
  }

  /** The failure of an errorTable entry named by its stable name. */
  static of(name: ErrorName, data?: string): RpcFailure {
    return new RpcFailure(codeOf(name), data);
  }

  toWire(): WireError {
    return errorObject(this.code, this.data);
  }
}

/** What goes on the wire for anything thrown while serving a request: its own error, else -32603. */
export function wireErrorOf(err: unknown): WireError {
  if (err instanceof RpcFailure) return err.toWire();
  return namedError('RPC_INTERNAL_ERROR', err instanceof Error ? err.message.slice(0, 200) : 'internal error');
}

// A code missing from the table is our bug, not the caller's: fail loudly in tests.
function entryOf(code: number) {
  const entry = errorByCode(code);
  if (!entry) throw new Error(`error code ${code} is not in errorTable`);
  return entry;
}

const connectionLimit = errorOfKind('connection-limit');
const rateLimit = errorOfKind('rate-limit');

/** The code of the connection-limit error (errorTable's entry of kind connection-limit). */
export const connectionLimitCode: ErrorCode = connectionLimit.code;

/** The text prefix of the connection-limit frame (errorTable's textFramePrefix). */
export const connectionLimitPrefix: string = connectionLimit.textFramePrefix;

/** The code of the rate-limit error (errorTable's entry of kind rate-limit). */
export const rateLimitCode: ErrorCode = rateLimit.code;

/** The rate-limit error for a wait of `ms`, with the retry hint in errorTable's form. */
export function rateLimited(ms: number): RpcFailure {
  return new RpcFailure(rateLimitCode, formatRetryHint(ms));
}

/**
 * HTTP status of a failed request: errorTable's httpStatus of the code (the http-responses assumption); throws for a
 * code not in the table.
 */
export function httpStatusOf(code: number): number {
  return entryOf(code).httpStatus;
}

/**
 * The JSON text of a request id, echoed verbatim: a number id keeps the digits it was sent with
 * (`12345678901234567890` is not rounded to a double), a string or null is its JSON.
 */
export type IdText = string & { readonly __idText: unique symbol };

/** The id text of a parsed id that is a string or null (numbers come from the frame's own text). */
export function idTextOf(id: string | null): IdText {
  return JSON.stringify(id) as IdText;
}

/** The id text of a reply that cannot name its request (unparseable frame, no id). */
export const NULL_ID = 'null' as IdText;

/** A reply frame, serialized. */
export function replyFrame(id: IdText, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(result ?? null)}}`;
}

/** An error reply frame, serialized. */
export function errorFrame(id: IdText, error: WireError): string {
  return `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(error)}}`;
}

/** A pushed notification frame (the notification-frame assumption), serialized once per push. */
export function notificationFrame(channel: string, data: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel, data } });
}

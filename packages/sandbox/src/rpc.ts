/**
 * JSON-RPC errors and frames. Messages, HTTP statuses, the connection-limit prefix and the retry hint
 * come from the generated errorTable. Handlers write codes as literals, but typed as ErrorCode (the
 * table's codes), so a code the spec drops stops tsc instead of reaching the wire.
 */
import { errorByCode, errorOfKind, formatRetryHint, type ErrorCode } from '@exchange-api/types';

export type { ErrorCode };

/** A JSON-RPC error object as sent on the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: string;
}

/** The error object for a code of errorTable, with optional data. */
export function errorObject(code: ErrorCode, data?: string): WireError {
  const message = entryOf(code).message;
  return data === undefined ? { code, message } : { code, message, data };
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
  toWire(): WireError {
    return errorObject(this.code, this.data);
  }
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

/** HTTP status of a failed request: errorTable's httpStatus of the code (the http-responses assumption); throws for a code not in the table. */
export function httpStatusOf(code: number): number {
  return entryOf(code).httpStatus;
}

/** A reply frame, serialized. */
export function replyFrame(id: unknown, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

/** An error reply frame, serialized. */
export function errorFrame(id: unknown, error: WireError): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

/** A pushed notification frame (the notification-frame assumption), serialized once per push. */
export function notificationFrame(channel: string, data: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel, data } });
}

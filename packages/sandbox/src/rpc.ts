/**
 * JSON-RPC errors and frames. Codes and messages are looked up in the generated errorTable, never
 * written here, so a spec change moves the sandbox with it.
 */
import { errorTable } from '@exchange-api/types';

/** The error codes of errorTable. */
export type ErrorCode = (typeof errorTable)['codes'][number]['code'];

/** A JSON-RPC error object as sent on the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: string;
}

const messages = new Map<number, string>(errorTable.codes.map((c) => [c.code, c.message]));

/** The error object for a code of errorTable, with optional data. */
export function errorObject(code: ErrorCode, data?: string): WireError {
  const message = messages.get(code);
  // A code missing from the table is our bug, not the caller's: fail loudly in tests.
  if (message === undefined) throw new Error(`error code ${code} is not in errorTable`);
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

/** The text prefix of the connection-limit frame (errorTable). */
export const connectionLimitPrefix: string = (() => {
  const entry = errorTable.codes.find((c) => c.code === -32100);
  return entry && 'textFramePrefix' in entry ? entry.textFramePrefix : 'connectionLimitExceeded:';
})();

/** The `Retry after <ms> ms` hint, in the form errorTable gives for -32000. */
export function retryHint(ms: number): string {
  const entry = errorTable.codes.find((c) => c.code === -32000);
  const template = entry && 'data' in entry ? entry.data : 'Retry after <ms> ms';
  return template.replace('<ms>', String(Math.max(0, Math.ceil(ms))));
}

/** HTTP status of a failed request (the http-responses assumption in spec/README.md). */
export function httpStatusOf(code: number): number {
  switch (code) {
    case -32601:
      return 404;
    case 14000:
    case 14001:
    case 14002:
      return 401;
    case 14003:
    case 14004:
      return 403;
    case -32603:
      return 500;
    default:
      if (code <= -32000 && code >= -32099) return 429;
      return 400;
  }
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

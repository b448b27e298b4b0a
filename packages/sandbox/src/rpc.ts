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

type ErrorRow = (typeof errorTable)['codes'][number];
const rowOf = (code: number): ErrorRow | undefined => errorTable.codes.find((c) => c.code === code);

/** A field errorTable must carry for this sandbox to run; a regenerated table without it stops the start, naming what is missing. */
function required(code: number, field: 'textFramePrefix' | 'data'): string {
  const row = rowOf(code) as Record<string, unknown> | undefined;
  const value = row?.[field];
  if (typeof value !== 'string' || value === '') {
    throw new Error(`errorTable has no ${field} for code ${code}: the sandbox needs it (fix x-errors in spec/asyncapi.yaml and run npm run generate)`);
  }
  return value;
}

/** The text prefix of the connection-limit frame (errorTable's -32100 textFramePrefix). */
export const connectionLimitPrefix: string = required(-32100, 'textFramePrefix');

const retryTemplate = required(-32000, 'data');
if (!retryTemplate.includes('<ms>')) throw new Error(`errorTable's data for -32000 (${JSON.stringify(retryTemplate)}) has no <ms> placeholder`);

/** The `Retry after <ms> ms` hint, in the form errorTable gives for -32000. */
export function retryHint(ms: number): string {
  return retryTemplate.replace('<ms>', String(Math.max(0, Math.ceil(ms))));
}

const statuses = new Map<number, number>(errorTable.codes.map((c) => [c.code, c.httpStatus]));

/** HTTP status of a failed request: errorTable's httpStatus of the code (the http-responses assumption). */
export function httpStatusOf(code: number): number {
  const status = statuses.get(code);
  if (status !== undefined) return status;
  // Unreachable while every error goes through errorObject (which refuses codes not in the table).
  // Should one slip through, JSON-RPC's reserved range (-32768…-32000) means the server failed in a
  // way it did not classify: 500; any other code is about the request: 400.
  return code >= -32768 && code <= -32000 ? 500 : 400;
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

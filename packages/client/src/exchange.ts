/**
 * This interface's own description, from its generated tables (@exchange-api/types): what
 * `createClient` of @exchange-api/client passes to the core, which knows no API of its own. The
 * error helpers below are that description's error classes, for code that has an error object in hand.
 */
import { channelTable, errorTable, limitTable, methodTable, rateLimitClassTable } from '@exchange-api/types';
import { ServerErrors } from './server-errors';
import type { ConnectionLimitError, RpcError, RpcErrorObject } from './errors';
import type { ApiTables } from './types';

/** The tables of this interface: methods, channels, limits, rate-limit classes and error codes. */
export const exchangeApi: ApiTables = {
  methods: methodTable,
  channels: channelTable,
  limits: limitTable,
  rateLimitClasses: rateLimitClassTable,
  errors: errorTable,
};

const exchangeErrors = new ServerErrors(errorTable);

/** The text-frame prefix this interface's server sends before closing a socket over the connection limit. */
export const connectionLimitPrefix: string = exchangeErrors.framePrefix ?? '';

/** The stable string code of one of this interface's JSON-RPC error codes: the error table's name for it. */
export function rpcStringCode(code: number): string {
  return exchangeErrors.stringCode(code);
}

/** The error class of this interface's error answer: RateLimitError, ConnectionLimitError, AuthError or RpcError. */
export function rpcErrorFromCode(error: RpcErrorObject): RpcError {
  return exchangeErrors.fromAnswer(error);
}

/** A ConnectionLimitError built from this interface's refusal text frame. */
export function connectionLimitFromFrame(frame: string): ConnectionLimitError {
  return exchangeErrors.fromFrame(frame);
}

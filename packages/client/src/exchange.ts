/**
 * The error helpers of this interface, for code that has an error object in hand: its generated error
 * table (src/generated/surface.gen.ts) passed to the core's ServerErrors. Nothing else of this
 * interface lives here: its tables, types and client class are generated.
 */
import { exchangeApi } from './generated/surface.gen';
import { ServerErrors } from './server-errors';
import type { ConnectionLimitError, RpcError, RpcErrorObject } from './errors';

// Pure, so that a bundle of the core alone (createApiClient) drops this interface's tables with them.
const exchangeErrors = /* @__PURE__ */ new ServerErrors(exchangeApi.errors);

/** The text-frame prefix this interface's server sends before closing a socket over the connection limit. */
export const connectionLimitPrefix: string = /* @__PURE__ */ framePrefixOf(exchangeErrors);

function framePrefixOf(errors: ServerErrors): string {
  return errors.framePrefix ?? '';
}

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

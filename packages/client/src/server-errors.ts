/**
 * The class of a server's error, read from the error table of the API the client speaks: a code of
 * kind `rate-limit` (or in a reserved range holding one) is a RateLimitError, `connection-limit` a
 * ConnectionLimitError, `auth` an AuthError, anything else a plain RpcError. An API without an error
 * table has no special codes: every error answer is a plain RpcError.
 */
import { errorCodes, type ErrorCodes, type ErrorTableLike } from '@exchange-api/types';
import { AuthError, ConnectionLimitError, RateLimitError, RpcError, UsageError, type RpcErrorObject } from './errors';

/** One API's error classes. */
export class ServerErrors {
  private readonly codes: ErrorCodes;
  /** The text frame a connection-limit refusal starts with, or null when the API names none. */
  readonly framePrefix: string | null;

  /** The classes of `table`; throws UsageError naming an entry the client cannot read. */
  constructor(table: ErrorTableLike | null | undefined) {
    try {
      this.codes = errorCodes(table);
    } catch (err) {
      throw new UsageError(`the API's error table: ${(err as Error).message}`);
    }
    this.framePrefix = this.codes.connectionLimit?.textFramePrefix || null;
  }

  /** The stable string code of a JSON-RPC error code: the table's name for it (RPC_ERROR when it has none). */
  stringCode(code: number): string {
    const rateLimit = this.codes.rateLimitEntry(code);
    if (rateLimit) return rateLimit.name ?? 'RATE_LIMITED';
    return this.codes.byCode(code)?.name ?? 'RPC_ERROR';
  }

  /** The error class for a server error answer, by the table's kind. */
  fromAnswer(error: RpcErrorObject): RpcError {
    const code = this.stringCode(error.code);
    if (this.codes.rateLimitEntry(error.code))
      return new RateLimitError(error, this.codes.retryAfterMs(error.code, error.data), false, code);
    const kind = this.codes.byCode(error.code)?.kind;
    if (kind === 'connection-limit') return new ConnectionLimitError(error, undefined, code);
    if (kind === 'auth') return new AuthError(error, code);
    return new RpcError(error, code);
  }

  /** A ConnectionLimitError built from the server's refusal frame (`framePrefix`, then the details). */
  fromFrame(frame: string): ConnectionLimitError {
    const entry = this.codes.connectionLimit;
    const prefix = this.framePrefix ?? '';
    return new ConnectionLimitError(
      {
        code: entry?.code ?? 0,
        message: entry?.message ?? 'connection limit exceeded',
        data: frame.slice(prefix.length).trim() || null,
      },
      frame,
      entry?.name ?? 'CONNECTION_LIMIT',
    );
  }
}

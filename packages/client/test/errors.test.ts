import { describe, expect, it } from 'vitest';
import { errorTable } from '@exchange-api/types';
import { RateLimitError, ConnectionLimitError, AuthError, RpcError, ClientError } from '../src/errors';
import { connectionLimitFromFrame, connectionLimitPrefix, rpcErrorFromCode } from '../src/exchange';

describe('rpcErrorFromCode', () => {
  const cases: Array<[number, string, new (...args: never[]) => Error]> = [
    [-32000, 'RATE_LIMITED', RateLimitError],
    [-32042, 'RATE_LIMITED', RateLimitError],
    [-32100, 'CONNECTION_LIMIT', ConnectionLimitError],
    [-32700, 'RPC_PARSE_ERROR', RpcError],
    [-32600, 'RPC_INVALID_REQUEST', RpcError],
    [-32601, 'RPC_METHOD_NOT_FOUND', RpcError],
    [-32602, 'RPC_INVALID_PARAMS', RpcError],
    [-32603, 'RPC_INTERNAL_ERROR', RpcError],
    [14000, 'AUTH_REQUIRED', AuthError],
    [14001, 'AUTH_INVALID_SIGNATURE', AuthError],
    [14002, 'AUTH_TIMESTAMP_WINDOW', AuthError],
    [14003, 'AUTH_ACCESS_DENIED', AuthError],
    [14004, 'AUTH_INVALID_ACTION_SIGNATURE', AuthError],
    [11000, 'RPC_ORDER_REJECTED', RpcError],
    [11001, 'RPC_ORDER_NOT_FOUND', RpcError],
    [11007, 'RPC_SELF_CROSSING', RpcError],
    [11022, 'RPC_REJECT_TIMESTAMP_EXCEEDED', RpcError],
    [11023, 'RPC_MAX_FEE_TOO_LOW', RpcError],
    [11024, 'RPC_REDUCE_ONLY_TIME_IN_FORCE', RpcError],
    [11025, 'RPC_REDUCE_ONLY_REJECT', RpcError],
    [11015, 'RPC_MMP_FROZEN', RpcError],
    [11026, 'RPC_TRANSFER_REJECT', RpcError],
    [11051, 'RPC_TRIGGER_PRICE_CROSSED', RpcError],
    [11053, 'RPC_TRIGGER_PRICE_TYPE', RpcError],
    [11054, 'RPC_TRIGGER_REPLACE', RpcError],
    [10000, 'RPC_MANAGER_NOT_FOUND', RpcError],
    [11021, 'RPC_INSTRUMENT_NOT_LIVE', RpcError],
    [11027, 'RPC_SUBACCOUNT_LIQUIDATING', RpcError],
    [11200, 'RPC_AUCTION_NOT_ONGOING', RpcError],
    [11202, 'RPC_PRICE_LIMIT_EXCEEDED', RpcError],
    [11203, 'RPC_LAST_TRADE_ID_MISMATCH', RpcError],
    [12000, 'RPC_ASSET_NOT_FOUND', RpcError],
    [12001, 'RPC_INSTRUMENT_NOT_FOUND', RpcError],
    [12002, 'RPC_CURRENCY_NOT_FOUND', RpcError],
    [14009, 'SESSION_KEY_EXPIRY_TOO_SOON', RpcError],
    [14013, 'INVALID_ADDRESS', RpcError],
    [14026, 'SESSION_KEY_NOT_FOUND', RpcError],
    [14031, 'SESSION_KEY_SCOPE', AuthError],
    [99999, 'RPC_ERROR', RpcError],
  ];
  it.each(cases)('%i → %s', (code, stringCode, cls) => {
    const e = rpcErrorFromCode({ code, message: 'm', data: 'd' });
    expect(e).toBeInstanceOf(cls);
    expect(e).toBeInstanceOf(ClientError);
    expect([e.code, e.rpcCode, e.data, e.message]).toEqual([stringCode, code, 'd', 'm']);
  });

  it('covers every code of the generated error table, and every auth code named is in it', () => {
    const covered = new Set(cases.map(([c]) => c));
    for (const entry of errorTable.codes) expect(covered.has(entry.code), String(entry.code)).toBe(true);
    for (const [code, , cls] of cases)
      if (cls === AuthError) expect(errorTable.codes.some((c) => c.code === code)).toBe(true);
  });

  it('reads retryAfterMs from the hint, null without one', () => {
    expect(
      (rpcErrorFromCode({ code: -32000, message: 'Rate limit exceeded', data: 'Retry after 250 ms' }) as RateLimitError)
        .retryAfterMs,
    ).toBe(250);
    expect(
      (rpcErrorFromCode({ code: -32000, message: 'Rate limit exceeded' }) as RateLimitError).retryAfterMs,
    ).toBeNull();
  });

  it('builds a ConnectionLimitError from the text frame', () => {
    const e = connectionLimitFromFrame(`${connectionLimitPrefix} {"code":-32100}`);
    expect([e.code, e.rpcCode, e.name]).toEqual(['CONNECTION_LIMIT', -32100, 'ConnectionLimitError']);
  });
});

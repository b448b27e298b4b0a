/**
 * Error classes come from the error table of the API the client speaks: another API's table with its
 * own rate-limit code, auth code and connection-limit frame, and an API with no table at all.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorTableLike } from '@exchange-api/types';
import { AuthError, ConnectionLimitError, RateLimitError, RpcError, UsageError } from '../src/errors';
import { ServerErrors } from '../src/server-errors';

/** Not the exchange's codes: its rate limit is -40001 (range -40099…-40000), and -32000 means nothing special. */
const metered: ErrorTableLike = {
  reserved: [{ from: -40099, to: -40000 }],
  codes: [
    {
      code: -40001,
      name: 'SLOW_DOWN',
      kind: 'rate-limit',
      message: 'Too many calls',
      data: 'Wait <ms> ms',
      dataPattern: '^Wait [0-9]+ ms$',
    },
    { code: -40100, name: 'NOT_ALLOWED', kind: 'auth', message: 'Not allowed' },
    { code: -40200, name: 'FULL', kind: 'connection-limit', message: 'Too many sockets', textFramePrefix: 'full:' },
    { code: -40300, name: 'BAD_SYMBOL', kind: 'request', message: 'Unknown symbol' },
  ],
};

describe("another API's error table", () => {
  const errors = new ServerErrors(metered);

  it.each([
    [-40001, 'Wait 250 ms', RateLimitError, 'SLOW_DOWN', 250],
    [-40042, 'Wait 7 ms', RateLimitError, 'SLOW_DOWN', 7],
    [-40001, 'Retry after 250 ms', RateLimitError, 'SLOW_DOWN', null],
    [-40100, null, AuthError, 'NOT_ALLOWED', undefined],
    [-40200, null, ConnectionLimitError, 'FULL', undefined],
    [-40300, null, RpcError, 'BAD_SYMBOL', undefined],
    [-32000, 'Retry after 250 ms', RpcError, 'RPC_ERROR', undefined],
    [-32100, null, RpcError, 'RPC_ERROR', undefined],
    [14000, null, RpcError, 'RPC_ERROR', undefined],
  ] as const)('%i (data %j) → %o, code %s, retryAfterMs %j', (code, data, cls, stringCode, retryAfterMs) => {
    const e = errors.fromAnswer({ code, message: 'm', data });
    expect(e.constructor).toBe(cls);
    expect([e.code, e.rpcCode]).toEqual([stringCode, code]);
    if (retryAfterMs !== undefined) expect((e as RateLimitError).retryAfterMs).toBe(retryAfterMs);
  });

  it("its refusal frame is its own prefix's; the exchange's prefix is nothing to it", () => {
    expect(errors.framePrefix).toBe('full:');
    const e = errors.fromFrame('full: {"code":-40200}');
    expect(e).toBeInstanceOf(ConnectionLimitError);
    expect([e.code, e.rpcCode, e.data]).toEqual(['FULL', -40200, '{"code":-40200}']);
  });
});

describe('an API without an error table', () => {
  it('has no special code: every answer is a plain RpcError, and no refusal frame', () => {
    for (const table of [undefined, null, { codes: [] }]) {
      const errors = new ServerErrors(table);
      for (const code of [-32000, -32042, -32100, 14000, -32602]) {
        const e = errors.fromAnswer({ code, message: 'm', data: 'Retry after 5 ms' });
        expect(e.constructor).toBe(RpcError);
        expect(e.code).toBe('RPC_ERROR');
      }
      expect(errors.framePrefix).toBeNull();
    }
  });
});

describe('an error table the client cannot read', () => {
  it('is a UsageError naming the entry and what is wrong with it', () => {
    const bad = {
      codes: [{ code: -40001, kind: 'rate-limit', message: 'm', data: 'Wait <ms> ms', dataPattern: '^Wait (' }],
    };
    expect(() => new ServerErrors(bad)).toThrow(UsageError);
    expect(() => new ServerErrors(bad)).toThrow(
      /^the API's error table: error -40001: dataPattern "\^Wait \(" is not a regular expression \(/,
    );
  });
});

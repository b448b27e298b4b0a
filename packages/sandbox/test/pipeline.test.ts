/**
 * The request pipeline, built from real parts with a handler left out: nothing is charged or spent for a request no
 * handler can serve.
 */
import { describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { errorByName } from '@exchange-api/types';
import { signLogin } from '@exchange-api/auth';
import { resolveOptions } from '../src/options';
import { Clock } from '../src/clock';
import { MemoryBuckets, MemoryWindows } from '../src/state/memory';
import { Limits } from '../src/limits';
import { Accounts } from '../src/accounts';
import { ActionVerifier, NonceBook } from '../src/actions';
import { createPipeline, type CallContext, type Handler } from '../src/pipeline';
import { RpcFailure } from '../src/rpc';
import { signed } from './helpers';

const NOT_FOUND = errorByName('RPC_METHOD_NOT_FOUND').code;
const IP = '127.0.0.9';

function parts(handlers: Record<string, Handler>) {
  const options = resolveOptions({
    limits: { public: { points: 2, windowMs: 60_000 }, matching: { points: 2, windowMs: 60_000 } },
  });
  const clock = new Clock();
  const limits = new Limits(options, clock, new MemoryWindows(options.windows.values()), new MemoryBuckets());
  const accounts = new Accounts(options, clock);
  const nonces = new NonceBook();
  const pipeline = createPipeline({
    accounts,
    limits,
    actions: new ActionVerifier(clock, accounts, nonces, options.actionDeployments, () => undefined),
    instrumentType: () => 'perp',
    handlers,
  });
  return { limits, accounts, nonces, pipeline };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'served',
    (err) => (err instanceof RpcFailure ? err.code : String(err)),
  );
const ctx = (over: Partial<CallContext> = {}): CallContext => ({
  transport: 'ws',
  ip: IP,
  conn: null,
  session: null,
  headers: undefined,
  spent: null,
  ...over,
});

describe('pipeline', () => {
  it('answers -32601 for a method without a handler before it charges a budget', async () => {
    const { limits, pipeline } = parts({});
    for (let i = 0; i < 5; i++) expect(await codeOf(pipeline(ctx(), 'public/getRateLimits', {}))).toBe(NOT_FOUND);
    const report = await limits.report({ wallet: null, ip: IP }, null);
    expect(report.remaining_non_matching).toMatchObject({ consumedPoints: 0, remainingPoints: 2 });
    await limits.close();
  });

  it(
    'answers -32601 for an order-flow method without a handler before it spends ' + 'the nonce or a matching point',
    async () => {
      const { limits, accounts, nonces, pipeline } = parts({ 'public/getRateLimits': () => ({}) });
      const w = Wallet.createRandom();
      const session = accounts.verify(await signLogin(w), IP);
      const order = await signed(
        w,
        'private/order',
        {
          subaccount_id: session.subaccounts[0]!,
          instrument_name: 'ETH-PERP',
          direction: 'buy',
          order_type: 'limit',
          amount: '0.1',
          limit_price: '1000',
          max_fee: '1',
        },
        { nonce: '42' },
      );
      for (let i = 0; i < 3; i++)
        expect(await codeOf(pipeline(ctx({ session }), 'private/order', order))).toBe(NOT_FOUND);
      expect(nonces.has(w.address, '42')).toBe(false);
      expect(nonces.size).toBe(0);
      expect((await limits.report({ wallet: session.wallet, ip: IP }, null)).remaining_matching).toMatchObject({
        consumedPoints: 0,
      });
      // A method that has its handler is charged as before.
      expect(await codeOf(pipeline(ctx(), 'public/getRateLimits', {}))).toBe('served');
      expect((await limits.report({ wallet: null, ip: IP }, null)).remaining_non_matching).toMatchObject({
        consumedPoints: 1,
      });
      await limits.close();
    },
  );
});

/** The limiter against a peer that counts like the server, and the instrument types it learns from the server. */
import { describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { TimeoutError } from '../src/index';
import { instrument, instrumentAnswers, rateLimits, useClientHarness } from './harness';

const t = useClientHarness();

describe('limiter against a peer that counts', () => {
  it('keeps a burst within the matching window, as a fixed-window server counts it', async () => {
    // The t.peer counts like the server: a window opens with the first request that finds none open.
    let windowStart = -Infinity;
    let used = 0;
    let rejected = 0;
    t.peer.answer = (req) => {
      if (req.method === 'private/cancel_by_instrument') {
        const now = Date.now();
        if (now - windowStart >= 300) {
          windowStart = now;
          used = 0;
        }
        if (++used > 3) {
          rejected++;
          return {
            error: {
              code: -32000,
              message: 'Rate limit exceeded',
              data: `Retry after ${300 - (now - windowStart)} ms`,
            },
          };
        }
        return { result: { cancelled_orders: 0 } };
      }
      if (req.method === 'public/get_instrument') return { result: instrument('ETH-PERP', 'perp') };
      if (req.method === 'public/login') return { result: [1] };
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    // Logged in, because before login every request draws on the per-IP public budget instead.
    await t
      .make({
        signer: Wallet.createRandom(),
        actionSigner: async (_m, p) => ({ ...p, signer: '0x' + '2'.repeat(40), signature: '0x' }),
        limiter: {
          limits: { matching: { points: 3, windowMs: 300 }, bucket_perp_spot: { capacity: 100, refillPerSecond: 100 } },
          syncAfterLogin: false,
        },
      })
      .connect();
    await t.client.login();
    const t0 = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: 9 }, () =>
        t.client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ETH-PERP' }).then(
          () => 'ok',
          (e) => e,
        ),
      ),
    );
    const elapsed = Date.now() - t0;
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([]);
    // The peer's window opens when a request arrives, a little after the client's: on a busy machine
    // a batch can arrive before the peer's window ends, and the peer refuses it with a hint, which the
    // limiter absorbs (it waits for the hint and sends again; limiter-retry.test.ts). A limiter that
    // did not count would send all 9 at once: 6 refused in the first burst alone.
    expect(rejected).toBeLessThan(6);
    // 9 requests at 3 per 300 ms window, all accepted by the counting peer: the third window opened
    // at least 600 ms after the first (the t.peer and the test share the clock). A limiter that waits
    // far too long meets the test's own bound.
    expect(elapsed).toBeGreaterThanOrEqual(2 * 300);
  });
});

describe('instrument types for the limiter come from the server', () => {
  const limiter = {
    limits: {
      matching: { points: 1000 },
      bucket_perp_spot: { capacity: 1, refillPerSecond: 0.2 },
      bucket_option: { capacity: 100, refillPerSecond: 100 },
    },
  };
  const signer = async (_m: string, p: Record<string, unknown>) => ({
    ...p,
    signer: '0x' + '2'.repeat(40),
    signature: '0x',
  });
  const answer = (list: ReturnType<typeof instrument>[]) => (req: { method: string; params?: unknown }) => {
    if (req.method === 'private/cancel_by_instrument') return { result: { cancelled_orders: 0 } };
    if (req.method === 'public/getRateLimits') return { result: rateLimits };
    return instrumentAnswers(list)(req);
  };
  const lookups = () => t.peer.requests.filter((r) => r.method === 'public/get_instrument');

  it(
    'a name ending in -C that the server calls a perp ' + 'draws on the perp bucket; one lookup per instrument',
    async () => {
      t.peer.answer = answer([instrument('ODD-C', 'perp'), instrument('ETH-20261231-3000-C', 'option')]);
      await t.make({ actionSigner: signer, limiter }).connect();
      await t.client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ODD-C' });
      expect(t.client.limiter!.bucketIdFor('ODD-C')).toBe('bucket_perp_spot');
      // The perp bucket holds one: a second cancel waits for the refill (5 s) and meets its timeout.
      const second = await t.client
        .cancelByInstrument({ subaccount_id: 1, instrument_name: 'ODD-C' }, { timeoutMs: 200 })
        .catch((e) => e);
      expect(second).toBeInstanceOf(TimeoutError);
      for (let i = 0; i < 3; i++)
        await t.client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ETH-20261231-3000-C' });
      expect(t.client.limiter!.bucketIdFor('ETH-20261231-3000-C')).toBe('bucket_option');
      // Each instrument's record once; the name list (no kinds in it) is never asked.
      expect(lookups().map((r) => r.params.instrument_name)).toEqual(['ODD-C', 'ETH-20261231-3000-C']);
      expect(t.peer.requests.filter((r) => r.method === 'public/get_all_live_instruments')).toHaveLength(0);
      expect(t.errors).toEqual([]);
    },
  );

  it('a signed order looks its instrument up once, for the signature and the bucket together', async () => {
    t.peer.answer = (req) =>
      req.method === 'private/order'
        ? { result: { order: {}, trades: [] } }
        : answer([instrument('ETH-20261231-3000-C', 'option')])(req);
    await t.make({ actionSigner: signer, limiter, validate: 'off' }).connect();
    const order = { subaccount_id: 1, instrument_name: 'ETH-20261231-3000-C', direction: 'buy', order_type: 'limit' };
    for (let i = 0; i < 3; i++)
      await t.client.order({ ...order, amount: '1', limit_price: '10', max_fee: '1' } as never);
    expect(t.client.limiter!.bucketIdFor('ETH-20261231-3000-C')).toBe('bucket_option');
    expect(lookups()).toHaveLength(1);
    expect(t.errors).toEqual([]);
  });

  it('an instrument the server does not know: the perp/spot bucket, with a note once', async () => {
    t.peer.answer = answer([instrument('ETH-PERP', 'perp')]);
    await t.make({ actionSigner: signer, limiter }).connect();
    await t.client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'NEW-C' });
    expect(t.client.limiter!.bucketIdFor('NEW-C')).toBe('bucket_perp_spot');
    expect(t.errors.map((e) => e.code)).toEqual(['INSTRUMENT_TYPE_UNKNOWN']);
    expect(t.errors[0]!.message).toContain('NEW-C');
  });

  it('a lookup that fails for another reason is reported, and the order goes on', async () => {
    t.peer.answer = (req) =>
      req.method === 'public/get_instrument' ? undefined : answer([instrument('ETH-PERP', 'perp')])(req);
    await t.make({ actionSigner: signer, limiter }).connect();
    // The unanswered lookup meets the call's timeout; the cancel then goes on the fallback bucket.
    const cancel = await t.client.cancelByInstrument(
      { subaccount_id: 1, instrument_name: 'ETH-PERP' },
      { timeoutMs: 300 },
    );
    expect(cancel).toEqual({ cancelled_orders: 0 });
    expect(t.errors.map((e) => e.code)).toEqual(['TIMEOUT', 'INSTRUMENT_TYPE_UNKNOWN']);
  });

  it('the limiter.instrumentType override still decides, without a lookup', async () => {
    t.peer.answer = answer([]);
    await t.make({ actionSigner: signer, limiter: { ...limiter, instrumentType: () => 'option' } }).connect();
    await t.client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ETH-PERP' });
    await t.client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ETH-PERP' });
    expect(t.client.limiter!.bucketIdFor('ETH-PERP')).toBe('bucket_option');
    expect(lookups()).toHaveLength(0);
  });
});

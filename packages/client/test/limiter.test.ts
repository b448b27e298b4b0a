import { describe, expect, it } from 'vitest';
import { limitTable } from '@exchange-api/types';
import { Limiter } from '../src/limiter';
import { exchangeApi } from '../src/generated/surface.gen';
import { UsageError } from '../src/errors';
import { backoffDelay, defaultReconnectPolicy } from '../src/backoff';

describe('which budget a request draws from (budgetOf, tested in @exchange-api/types)', () => {
  it('before login every decremented request shares the per-IP public budget', async () => {
    const l = new Limiter(exchangeApi, { limits: { public: { points: 2, windowMs: 10_000 } } });
    await l.acquire('subscribe', {}, false);
    await l.acquire('private/cancel', {}, false);
    const third = l.acquire('public/getRateLimits', {}, false);
    expect(l.waiting).toBe(1);
    // No per-request decrement: not held up by the spent budget.
    await l.acquire('public/get_all_live_instruments', {}, false);
    l.clear(new Error('done'));
    await expect(third).rejects.toThrow('done');
  });

  it('after login each class draws on its own budget', async () => {
    const l = new Limiter(exchangeApi, { limits: { matching: { points: 1, windowMs: 10_000 } } });
    await l.acquire('private/cancel', {}, true);
    await l.acquire('subscribe', {}, true);
    await l.acquire('private/cancel_all', {}, true);
    await l.acquire('private/cancel_by_label', { label: 'x' }, true);
    const held = l.acquire('private/cancel_by_label', { label: 'x', instrument_name: 'ETH-PERP' }, true);
    expect(l.waiting).toBe(1);
    l.clear(new Error('done'));
    await expect(held).rejects.toThrow('done');
  });
});

describe('waiting for budget', () => {
  // Counts, not clocks, for what goes at once; only lower bounds (which follow from the budgets) on times.
  it('a window: points at once, then the next window', async () => {
    const l = new Limiter(exchangeApi, { limits: { matching: { points: 2, windowMs: 200 } }, marginMs: 10 });
    const t0 = Date.now();
    const times: number[] = [];
    const all = Promise.all(
      [1, 2, 3, 4].map(() => l.acquire('private/cancel', {}, true).then(() => times.push(Date.now() - t0))),
    );
    await Promise.resolve();
    expect([times.length, l.waiting]).toEqual([2, 2]);
    await all;
    expect(times[2]!).toBeGreaterThanOrEqual(200);
  });

  it('a bucket per instrument: capacity at once, then the refill rate, instruments apart', async () => {
    const l = new Limiter(exchangeApi, {
      limits: { matching: { points: 1000 }, bucket_perp_spot: { capacity: 2, refillPerSecond: 10 } },
      marginMs: 5,
    });
    l.setInstrumentTypes([
      { instrument_name: 'ETH-PERP', instrument_type: 'perp' },
      { instrument_name: 'BTC-PERP', instrument_type: 'perp' },
    ]);
    const t0 = Date.now();
    const done: string[] = [];
    const at = (name: string, tag: string) =>
      l.acquire('private/order', { instrument_name: name }, true).then(() => (done.push(tag), Date.now() - t0));
    const all = Promise.all([at('ETH-PERP', 'a1'), at('ETH-PERP', 'a2'), at('ETH-PERP', 'a3'), at('BTC-PERP', 'b1')]);
    await Promise.resolve();
    expect(done).toEqual(['a1', 'a2', 'b1']);
    const [, , a3] = await all;
    // One token (charged a little over 1) at 10 per second.
    expect(a3!).toBeGreaterThanOrEqual(90);
  });

  it('cancellable: the signal rejects a waiter with its reason', async () => {
    const l = new Limiter(exchangeApi, { limits: { matching: { points: 1, windowMs: 10_000 } } });
    await l.acquire('private/cancel', {}, true);
    const ctl = new AbortController();
    const p = l.acquire('private/cancel', {}, true, ctl.signal);
    ctl.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(l.waiting).toBe(0);
  });

  it('getRateLimits corrects points and the window phase', async () => {
    const l = new Limiter(exchangeApi, { marginMs: 0 });
    // Before the sync, whose clock the 150 ms count from: taken after it, a loaded machine's pause between
    // the two (15 ms in a CI run) was counted out of the wait, and 135 ms failed the bound.
    const t0 = Date.now();
    l.sync(
      {
        remaining_matching: { remainingPoints: 0, msBeforeNext: 150, consumedPoints: 5, isFirstInDuration: false },
        remaining_non_matching: { remainingPoints: 10, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false },
        remaining_per_endpoint: {},
      },
      true,
    );
    await l.acquire('private/order', {}, true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it.each([true, false])(
    'a resync with msBeforeNext 0 keeps the points the server counted (with a mark: %s)',
    (withMark) => {
      // After login: getRateLimits itself opened the wallet window (1 consumed, 24 left, msBeforeNext 0).
      const l = new Limiter(exchangeApi);
      const ctl = new AbortController();
      void l.acquire('public/getRateLimits', {}, true);
      const mark = withMark ? l.mark() : undefined;
      l.sync(
        {
          remaining_matching: { remainingPoints: 5, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false },
          remaining_non_matching: { remainingPoints: 24, msBeforeNext: 0, consumedPoints: 1, isFirstInDuration: true },
          remaining_per_endpoint: {},
        },
        true,
        mark,
      );
      // The waits are aborted by ctl at the end; their rejections are that abort, asserted through l.waiting.
      for (let i = 0; i < 30; i++) void l.acquire('unsubscribe', {}, true, ctl.signal).catch(() => undefined);
      expect(l.waiting).toBe(30 - 24);
      ctl.abort(new Error('done'));
    },
  );

  it('a resync counts what was sent after the getRateLimits request as well', () => {
    const l = new Limiter(exchangeApi);
    const ctl = new AbortController();
    void l.acquire('public/getRateLimits', {}, true);
    const mark = l.mark();
    for (let i = 0; i < 4; i++) void l.acquire('unsubscribe', {}, true);
    // The answer counts 10 (this request and 9 before it), not the 4 sent after it.
    l.sync(
      {
        remaining_matching: { remainingPoints: 5, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false },
        remaining_non_matching: { remainingPoints: 15, msBeforeNext: 0, consumedPoints: 10, isFirstInDuration: false },
        remaining_per_endpoint: {},
      },
      true,
      mark,
    );
    // Aborted by ctl at the end; the rejections are that abort, asserted through l.waiting.
    for (let i = 0; i < 20; i++) void l.acquire('unsubscribe', {}, true, ctl.signal).catch(() => undefined);
    expect(l.waiting).toBe(20 - (25 - 10 - 4));
    ctl.abort(new Error('done'));
  });

  it(
    "remaining_per_endpoint is keyed by the rate-limit tables' names: cancel_all " + "is private/cancel_all's budget",
    () => {
      const l = new Limiter(exchangeApi);
      const ctl = new AbortController();
      l.sync(
        {
          remaining_matching: { remainingPoints: 5, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false },
          remaining_non_matching: { remainingPoints: 25, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false },
          remaining_per_endpoint: {
            cancel_all: { remainingPoints: 1, msBeforeNext: 0, consumedPoints: 4, isFirstInDuration: false },
          },
        },
        true,
      );
      // Aborted by ctl at the end; the rejections are that abort, asserted through l.waiting.
      for (let i = 0; i < 3; i++) void l.acquire('private/cancel_all', {}, true, ctl.signal).catch(() => undefined);
      expect(l.waiting).toBe(2);
      ctl.abort(new Error('done'));
    },
  );

  it('a -32000 hint holds the budget for that long', async () => {
    const l = new Limiter(exchangeApi, { marginMs: 0 });
    l.penalize('private/cancel_all', {}, true, 120);
    const t0 = Date.now();
    await l.acquire('private/cancel_all', {}, true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
  });
});

describe('limit overrides', () => {
  it('an unknown limit id is a UsageError naming it and the valid ids', () => {
    const err = (() => {
      try {
        new Limiter(exchangeApi, { limits: { matchng: { points: 1 } } });
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.message).toContain("'matchng'");
    for (const l of limitTable) expect(err!.message).toContain(l.id);
  });

  it('every limit id of the table is accepted', () => {
    expect(
      () => new Limiter(exchangeApi, { limits: Object.fromEntries(limitTable.map((l) => [l.id, {}])) }),
    ).not.toThrow();
  });
});

describe('reconnect back-off', () => {
  const p = { ...defaultReconnectPolicy, initialDelayMs: 100, maxDelayMs: 1000, jitter: 0.5 };
  it('grows, is capped, and is jittered within its band', () => {
    expect(backoffDelay(p, 0, false, () => 0)).toBe(100);
    expect(backoffDelay(p, 3, false, () => 0)).toBe(800);
    expect(backoffDelay(p, 10, false, () => 0)).toBe(1000);
    expect(backoffDelay(p, 10, false, () => 1)).toBe(500);
  });
  it('a connection-limit refusal waits at least most of the floor', () => {
    expect(backoffDelay(p, 0, true, () => 1)).toBeGreaterThanOrEqual(p.connectionLimitDelayMs * 0.75);
  });
});

describe("another API's tables", () => {
  /** Not the exchange's: one class, a budget of 3 per minute counted per IP. */
  const metered = {
    methods: [{ name: 'getQuote', rateLimitClass: 'metered' }, { name: 'ping' }],
    rateLimitClasses: [{ name: 'metered', default: true, budget: 'calls' }],
    limits: [{ id: 'calls', kind: 'window', scope: 'ip', points: 3, windowMs: 60_000 }],
  };

  it(
    "draws on that API's budget: 3 at once, the 4th waits; a method without a " + 'class falls under the default',
    async () => {
      const l = new Limiter(metered);
      for (let i = 0; i < 3; i++) await l.acquire(i === 2 ? 'ping' : 'getQuote', {}, false);
      const fourth = l.acquire('getQuote', {}, false);
      expect(l.waiting).toBe(1);
      l.clear(new Error('done'));
      await expect(fourth).rejects.toThrow('done');
    },
  );

  it("does not draw on the exchange's budgets: its limit ids are that API's", () => {
    expect(() => new Limiter(metered, { limits: { calls: { points: 5 } } })).not.toThrow();
    expect(() => new Limiter(metered, { limits: { matching: { points: 5 } } })).toThrow(
      "limiter.limits: unknown limit id 'matching' (valid ids: calls)",
    );
  });

  it('an API without limits is not throttled', async () => {
    const l = new Limiter({ methods: [{ name: 'getStation' }] });
    await Promise.all(Array.from({ length: 100 }, () => l.acquire('getStation', {}, false)));
    await Promise.all(Array.from({ length: 100 }, () => l.acquire('public/getRateLimits', {}, true)));
    expect(l.waiting).toBe(0);
  });

  it('a table that names a budget it lacks is a UsageError naming the class and the budget', () => {
    const slip = { ...metered, rateLimitClasses: [{ name: 'metered', default: true, budget: 'cals' }] };
    expect(() => new Limiter(slip)).toThrow(UsageError);
    expect(() => new Limiter(slip)).toThrow(
      "limiter: rate-limit class 'metered' names budget 'cals', which is not a " +
        'window limit of the limits (window ids: calls)',
    );
  });
});

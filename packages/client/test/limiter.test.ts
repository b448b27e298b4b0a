import { describe, expect, it } from 'vitest';
import { Limiter } from '../src/limiter';
import { backoffDelay, defaultReconnectPolicy } from '../src/backoff';

describe('which budget a request draws from (from the tables)', () => {
  const l = new Limiter();
  it.each([
    ['public/getRateLimits', {}, true, 'non_matching'],
    ['public/getRateLimits', {}, false, 'public'],
    ['subscribe', {}, false, 'public'],
    ['order', { instrument_name: 'ETH-PERP' }, true, 'matching'],
    ['cancel', {}, true, 'matching'],
    ['cancel_all', {}, true, 'cancel_all'],
    ['cancel_by_label', { instrument_name: 'ETH-PERP' }, true, 'matching'],
    ['cancel_by_label', {}, true, 'cancel_by_label'],
    ['public/get_all_live_instruments', {}, true, null],
  ] as const)('%s %j authenticated=%s → %s', (method, params, auth, want) => {
    expect(l.budgetIdFor(method, params, auth)).toBe(want);
  });
});

describe('waiting for budget', () => {
  it('a window: points at once, then the next window', async () => {
    const l = new Limiter({ limits: { matching: { points: 2, windowMs: 200 } }, marginMs: 10 });
    const t0 = Date.now();
    const times: number[] = [];
    await Promise.all([1, 2, 3, 4].map(() => l.acquire('cancel', {}, true).then(() => times.push(Date.now() - t0))));
    expect(times[1]!).toBeLessThan(100);
    expect(times[2]!).toBeGreaterThanOrEqual(200);
  });

  it('a bucket per instrument: capacity at once, then the refill rate, instruments apart', async () => {
    const l = new Limiter({ limits: { matching: { points: 1000 }, bucket_perp_spot: { capacity: 2, refillPerSecond: 10 } }, marginMs: 5 });
    const t0 = Date.now();
    const at = (name: string) => l.acquire('order', { instrument_name: name }, true).then(() => Date.now() - t0);
    const [a1, a2, a3, b1] = await Promise.all([at('ETH-PERP'), at('ETH-PERP'), at('ETH-PERP'), at('BTC-PERP')]);
    expect(Math.max(a1!, a2!, b1!)).toBeLessThan(60);
    expect(a3!).toBeGreaterThanOrEqual(90);
  });

  it('cancellable: the signal rejects a waiter with its reason', async () => {
    const l = new Limiter({ limits: { matching: { points: 1, windowMs: 10_000 } } });
    await l.acquire('cancel', {}, true);
    const ctl = new AbortController();
    const p = l.acquire('cancel', {}, true, ctl.signal);
    ctl.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(l.waiting).toBe(0);
  });

  it('getRateLimits corrects points and the window phase', async () => {
    const l = new Limiter({ marginMs: 0 });
    l.sync({ remaining_matching: { remainingPoints: 0, msBeforeNext: 150, consumedPoints: 5, isFirstInDuration: false }, remaining_non_matching: { remainingPoints: 10, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false }, remaining_per_endpoint: {} }, true);
    const t0 = Date.now();
    await l.acquire('order', {}, true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('a -32000 hint holds the budget for that long', async () => {
    const l = new Limiter({ marginMs: 0 });
    l.penalize('cancel_all', {}, true, 120);
    const t0 = Date.now();
    await l.acquire('cancel_all', {}, true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
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

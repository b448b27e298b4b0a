/**
 * One exchange across many processes (the `redis` option): two sandboxes on one redis-server of the
 * test's own share budgets, connection slots, nonces and pushes, and order flow reaches the book's owner.
 */
import { describe, expect, it } from 'vitest';
import { Client, newWallet, signed } from './helpers';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { quiet, useFleet } from './fleet-setup';
import type { Sandbox, SandboxOptions } from '../src/index';

// Each test has a redis-server of its own, and closes its sandboxes before stopping it.
const fleet = useFleet();
const { start } = fleet;

/** Two members of one fleet. */
async function pair(extra: SandboxOptions = {}): Promise<[Sandbox, Sandbox]> {
  const options = { ...quiet, ...extra, redis: fleet.redis().url };
  const a = await start(options);
  const b = await start(options);
  return [a, b];
}

/**
 * Ask again until `done` holds (bounded by the test's own timeout): one round trip at a time, or, for
 * state that changes on the members' own cycles, one look every 20 ms.
 */
async function until(done: () => boolean | Promise<boolean>, pause = false): Promise<void> {
  while (!(await done())) if (pause) await new Promise((r) => setTimeout(r, 20));
}

async function trader(url: string, w = newWallet()) {
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  return { w, c, sub: sub! };
}

const order = (sub: number, price = '100') => ({
  instrument_name: 'ETH-PERP',
  order_type: 'limit',
  max_fee: '100',
  subaccount_id: sub,
  direction: 'buy',
  amount: '0.01',
  limit_price: price,
});

describe.skipIf(!hasRedisServer)(`a fleet on one Redis${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  it('shares a wallet budget: points spent on A are gone on B', async () => {
    const [a, b] = await pair({ limits: { ...quiet.limits, non_matching: { points: 5, windowMs: 60_000 } } });
    const w = newWallet();
    const onA = await trader(a.wsUrl, w);
    const onB = await trader(b.wsUrl, w);
    const first = await onA.c.call('public/getRateLimits');
    const second = await onB.c.call('public/getRateLimits');
    expect(first.remaining_non_matching.remainingPoints).toBe(4);
    expect(second.remaining_non_matching.remainingPoints).toBe(3);
    await onA.c.call('public/getRateLimits');
    await onB.c.call('public/getRateLimits');
    await onA.c.call('public/getRateLimits');
    const over = await onB.c.request('public/getRateLimits');
    expect(over.error.code).toBe(-32000);
    expect(over.error.data).toMatch(/^Retry after [0-9]+ ms$/);
  });

  it('shares the per-IP connection limit: slots held on A count on B', async () => {
    const [a, b] = await pair({ limits: { ...quiet.limits, connections: { max: 2 } } });
    const one = await Client.connect(a.wsUrl);
    const two = await Client.connect(b.wsUrl);
    await one.roundTrip();
    await two.roundTrip();
    const report = await two.call('public/getRateLimits');
    expect(report.remaining_connections).toMatchObject({ remainingPoints: 0, consumedPoints: 2 });
    const third = await Client.connect(a.wsUrl);
    expect((await third.next(() => true)).text).toMatch(/^connectionLimitExceeded:/);
    expect((await third.whenClosed).code).toBe(1008);
    one.close();
    await one.whenClosed;
    // The slot A gave back is B's to give: B reports it free, and a new connection on B is served.
    await until(async () => (await two.call('public/getRateLimits')).remaining_connections.remainingPoints === 1);
    const again = await Client.connect(b.wsUrl);
    expect((await again.request('test.roundTrip')).error.code).toBe(-32601);
  });

  it('refuses on B a nonce used on A', async () => {
    const [a, b] = await pair();
    const w = newWallet();
    const onA = await trader(a.wsUrl, w);
    const onB = await trader(b.wsUrl, w);
    const params = await signed(w, 'private/order', order(onA.sub));
    const placed = await onA.c.call('private/order', params);
    expect(placed.order.order_status).toBe('open');
    const replay = await onB.c.request('private/order', params);
    expect(replay.error.code).toBe(14004);
    expect(replay.error.data).toMatch(/nonce .* was already used/);
    // The same number spelled otherwise is the same nonce on every member (the Action signs the number).
    for (const nonce of [`0${params.nonce}`, `000${params.nonce}`]) {
      expect((await onB.c.request('private/order', { ...params, nonce })).error.code, nonce).toBe(14004);
      expect((await onA.c.request('private/order', { ...params, nonce })).error.code, nonce).toBe(14004);
    }
  });

  it('pushes an order placed on A to its subscriber on B', async () => {
    const [a, b] = await pair();
    const w = newWallet();
    const onA = await trader(a.wsUrl, w);
    const onB = await trader(b.wsUrl, w);
    await onB.c.call('subscribe', { channels: [`${onB.sub}.orders`] });
    const placed = await onA.c.call('private/order', await signed(w, 'private/order', order(onA.sub, '101')));
    const pushed = await onB.c.nextPush(`${onB.sub}.orders`, undefined, (d) => d[0].order_id === placed.order.order_id);
    expect(pushed[0]).toMatchObject({ order_status: 'open', limit_price: '101' });
    // The order is on the owner's book: cancelled through B, whichever member owns ETH-PERP.
    const cancelled = await onB.c.call('private/cancel', {
      subaccount_id: onB.sub,
      instrument_name: 'ETH-PERP',
      order_id: placed.order.order_id,
    });
    expect(cancelled.order_status).toBe('cancelled');
  });

  it('pushes market data the owner produces to a subscriber on another member', async () => {
    const [a, b] = await pair({ market: { intervalMs: 50 } });
    expect(a.fleet!.owned()).toContain('ETH-PERP');
    expect(b.fleet!.owned()).not.toContain('ETH-PERP');
    const c = await Client.connect(b.wsUrl);
    await c.call('subscribe', { channels: ['orderbook.ETH-PERP.1.10'] });
    const first = await c.nextPush('orderbook.ETH-PERP.1.10');
    const next = await c.nextPush('orderbook.ETH-PERP.1.10', undefined, (d) => d.publish_id > first.publish_id);
    expect(next.bids.length).toBeGreaterThan(0);
    expect(next.instrument_name).toBe('ETH-PERP');
  });

  it(
    'lists and cancels through one member the orders resting on books another ' +
      'owns (get_open_orders and cancel_all span the fleet)',
    async () => {
      const [a, b] = await pair();
      // A owned every book; B takes its share as A gives books back, one a cycle.
      await until(() => a.fleet!.owned().length === 2 && b.fleet!.owned().length === 2, true);
      const w = newWallet();
      const onA = await trader(a.wsUrl, w);
      await onA.c.call('subscribe', { channels: [`${onA.sub}.orders`] });
      const names = [a.fleet!.owned()[0]!, b.fleet!.owned()[0]!];
      const prices: Record<string, string> = {
        'ETH-PERP': '100',
        'BTC-PERP': '1000',
        'ETH-20261231-3000-C': '1',
        'ETH-USDC': '100',
      };
      const amounts: Record<string, string> = {
        'ETH-PERP': '0.01',
        'BTC-PERP': '0.001',
        'ETH-20261231-3000-C': '0.01',
        'ETH-USDC': '0.01',
      };
      const ids = [];
      for (const name of names) {
        const p = { ...order(onA.sub, prices[name]), instrument_name: name, amount: amounts[name] };
        ids.push((await onA.c.call('private/order', await signed(w, 'private/order', p))).order.order_id);
      }
      const open = await onA.c.call('private/get_open_orders', { subaccount_id: onA.sub });
      expect(open.orders.map((o: { order_id: string }) => o.order_id).sort()).toEqual([...ids].sort());
      expect(await onA.c.call('private/cancel_all', { subaccount_id: onA.sub })).toBe('ok');
      for (const id of ids)
        await onA.c.nextPush(
          `${onA.sub}.orders`,
          undefined,
          (d) => d[0].order_id === id && d[0].order_status === 'cancelled',
        );
      const none = await onA.c.call('private/cancel_by_label', { subaccount_id: onA.sub, label: '' });
      expect(none).toEqual({ cancelled_orders: 0 });
    },
  );

  it('gives ids per instrument: the same seed, the same order id, whichever member serves it', async () => {
    const [a, b] = await pair({ seed: 7 });
    const w = newWallet();
    const onB = await trader(b.wsUrl, w);
    const viaB = await onB.c.call('private/order', await signed(w, 'private/order', order(onB.sub)));
    expect(a.fleet!.owned()).toContain('ETH-PERP');
    // A sandbox alone with the same seed and ETH-PERP's epoch 1 draws the same first id.
    await fleet.fresh();
    const [c] = await pair({ seed: 7 });
    const onC = await trader(c.wsUrl, w);
    const again = await onC.c.call('private/order', await signed(w, 'private/order', order(onC.sub)));
    expect(again.order.order_id).toBe(viaB.order.order_id);
    const other = await onC.c.call(
      'private/order',
      await signed(w, 'private/order', { ...order(onC.sub, '1000'), instrument_name: 'BTC-PERP', amount: '0.001' }),
    );
    expect(other.order.order_id).not.toBe(again.order.order_id);
  });

  it("shares a wallet's per-instrument order bucket", async () => {
    const [a, b] = await pair({ limits: { ...quiet.limits, bucket_perp_spot: { capacity: 2, refillPerSecond: 0 } } });
    const w = newWallet();
    const onA = await trader(a.wsUrl, w);
    const onB = await trader(b.wsUrl, w);
    const cancel = { subaccount_id: onA.sub, instrument_name: 'BTC-PERP' };
    expect(await onA.c.call('private/cancel_by_instrument', cancel)).toEqual({ cancelled_orders: 0 });
    expect(await onB.c.call('private/cancel_by_instrument', cancel)).toEqual({ cancelled_orders: 0 });
    const over = await onB.c.request('private/cancel_by_instrument', cancel);
    expect(over.error).toMatchObject({ code: -32000, message: 'Rate limit exceeded' });
    // Another instrument has a bucket of its own.
    expect(await onA.c.call('private/cancel_by_instrument', { ...cancel, instrument_name: 'ETH-PERP' })).toEqual({
      cancelled_orders: 0,
    });
  });
});

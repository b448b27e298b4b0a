/**
 * A book's resting orders are written to Redis only by the member that holds its lease, at the epoch it
 * holds it (one script with the lease, epoch and book keys): a member that lost its lease unseen (it was
 * stalled past it, or Redis forgot it) cannot overwrite the book its successor keeps, and the refusal
 * is reported, never dropped. The leases run against a redis-server of the test's own; the market is a
 * stand-in of the BookKeeper port.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { useFleet } from './fleet-setup';
import { Leases } from '../src/redis/leases';
import { keys } from '../src/redis/keys';
import type { BookKeeper } from '../src/state/ports';
import type { Resting } from '../src/market/instrument';

const fleet = useFleet();

/** Ask again, one Redis round trip at a time, until `done` holds (bounded by the test's timeout). */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done()));
}

/** A resting order as the market keeps it (only what serializing needs). */
const resting = (id: string) =>
  ({
    order: { order_id: id },
    priceTicks: 1,
    remaining: 1,
    filled: 0,
    notional: 1n,
    fee: 0n,
    wallet: '0x1',
  }) as unknown as Resting;

/** The BookKeeper port as the market answers it: what was restored and dropped. */
function books(): BookKeeper & { restored: string[]; dropped: string[] } {
  const restored: string[] = [];
  const dropped: string[] = [];
  return {
    restored,
    dropped,
    restingIn: () => [],
    restore: (r) => void restored.push(r.order.order_id),
    dropBook: (i) => void dropped.push(i),
    waitingIn: () => [],
    waitingOf: () => undefined,
    restoreWaiting: () => true,
  };
}

describe.skipIf(!hasRedisServer)(`fenced book writes${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  it('writes while the lease is ours at its epoch; refuses and reports once it is not', async () => {
    const redis = new Redis(fleet.redis().url, { maxRetriesPerRequest: 0 });
    const faults: string[] = [];
    const leases = new Leases(redis, 'm1', ['ETH-PERP'], (where, err) => faults.push(`${where}: ${String(err)}`));
    try {
      const market = books();
      await leases.cycle(1, market);
      expect(leases.owned()).toEqual(['ETH-PERP']);
      leases.record('ETH-PERP', 'o1', resting('o1'));
      await until(async () => (await redis.hget(keys.book('ETH-PERP'), 'o1')) !== null);
      expect(await redis.hget(keys.book('ETH-PERP'), 'o1')).toContain('"o1"');
      // Another member took the lease (ours lapsed unseen): our next write is refused.
      await redis.set(keys.lease('ETH-PERP'), 'm2', 'PX', 60_000);
      await redis.incr(keys.epoch('ETH-PERP'));
      leases.record('ETH-PERP', 'o2', resting('o2'));
      leases.record('ETH-PERP', 'o1', undefined);
      // Each refusal is reported: once both are, both writes were answered.
      await until(async () => (await redis.ping()) === 'PONG' && faults.length === 2);
      expect(await redis.hkeys(keys.book('ETH-PERP'))).toEqual(['o1']);
      expect(faults[0]).toMatch(
        /keeping order o2 of ETH-PERP: Error: the lease of ETH-PERP is no longer this member's/,
      );
      // The next cycle sees it: the book is dropped here (its owner keeps it).
      await leases.cycle(2, market);
      expect(leases.owned()).toEqual([]);
      expect(market.dropped).toEqual(['ETH-PERP']);
    } finally {
      redis.disconnect();
    }
  });

  it('takes the book again from Redis when its epoch moved while the lease stayed ours', async () => {
    const redis = new Redis(fleet.redis().url, { maxRetriesPerRequest: 0 });
    const leases = new Leases(redis, 'm1', ['ETH-PERP'], () => {});
    try {
      const market = books();
      await leases.cycle(1, market);
      const before = leases.epoch('ETH-PERP');
      // Another owner came and went (its book is Redis's now) and the lease is ours again at a new epoch.
      await redis.incr(keys.epoch('ETH-PERP'));
      await redis.hset(keys.book('ETH-PERP'), 'o9', JSON.stringify({ ...resting('o9'), notional: '1', fee: '0' }));
      await leases.cycle(1, market);
      expect(leases.epoch('ETH-PERP')).toBe(before + 1);
      expect(market.dropped).toEqual(['ETH-PERP']);
      expect(market.restored).toEqual(['o9']);
    } finally {
      redis.disconnect();
    }
  });
});

/**
 * A member's cycle rewrites its slot counts (HOLD) while a connection's TAKE may be on its way: queued on
 * the same Redis connection after the TAKE, a HOLD of what the member held before it wrote the count one
 * short, and the IP's next connection was served over the limit (a loaded CI run: five connections on a
 * limit of four, deployment.connection-limit). The cycle counts the takes under way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RedisSlots } from '../src/redis/slots';
import { Generation } from '../src/redis/recovery';
import { hasRedisServer, NO_REDIS, startRedis, type RedisServer } from './redis-server';

let server: RedisServer;
let redis: Redis;

describe.skipIf(!hasRedisServer)(`connection slots and the cycle at once (${NO_REDIS} skips it)`, () => {
  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis({ path: server.url, maxRetriesPerRequest: 0 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  it('a cycle while a slot is being taken counts it: the limit holds', async () => {
    const faults: string[] = [];
    const fault = (what: string, err: unknown) => faults.push(`${what}: ${String(err)}`);
    const generation = new Generation(redis, 1000, fault);
    await generation.join();
    const slots = new RedisSlots(redis, 'member-a', 2, generation, fault);
    expect(await slots.tryTake('10.0.0.1', 1)).toBe(true);
    // The second take and a cycle at once: the cycle's HOLD goes after the TAKE, before its answer.
    const [second] = await Promise.all([slots.tryTake('10.0.0.1', 2), slots.sync()]);
    expect(second).toBe(true);
    expect((await slots.report('10.0.0.1', 3)).consumedPoints).toBe(2);
    expect(await slots.tryTake('10.0.0.1', 3)).toBe(false);
    // A refused take counted by a cycle meanwhile is set right by the next cycle.
    await Promise.all([slots.tryTake('10.0.0.1', 4), slots.sync()]);
    await slots.sync();
    expect((await slots.report('10.0.0.1', 5)).consumedPoints).toBe(2);
    expect(faults).toEqual([]);
  });
});

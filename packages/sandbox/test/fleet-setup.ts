/**
 * The setup the fleet tests share: a redis-server of each test's own (when Debian's is installed), and
 * the sandboxes a test starts, closed before that server stops.
 */
import { afterEach, beforeEach } from 'vitest';
import { hasRedisServer, startRedis, type RedisServer } from './redis-server';
import { signFor } from './helpers';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/index';

/** A quiet market: no ticks move prices during a test; generous order budgets. */
export const quiet: SandboxOptions = {
  market: { intervalMs: 60_000 },
  limits: { matching: { points: 100 }, bucket_perp_spot: { capacity: 100 } },
};

/** What a fleet test uses: the current test's server, a sandbox closed after the test, and a fresh start. */
export interface Fleet {
  redis(): RedisServer;
  start(options: SandboxOptions): Promise<Sandbox>;
  /** Close every sandbox started so far and swap the server for an empty one: a fleet from scratch. */
  fresh(): Promise<void>;
}

/** Registers the hooks of a fleet test file. */
export function useFleet(): Fleet {
  let redis: RedisServer | null = null;
  const members: Sandbox[] = [];
  beforeEach(async () => {
    if (hasRedisServer) redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(members.splice(0).map((m) => m.close()));
    await redis?.stop();
    redis = null;
  });
  return {
    redis: () => {
      if (!redis) throw new Error('no redis-server in this test (is it installed?)');
      return redis;
    },
    start: async (options) => {
      const sb = await startSandbox(options);
      members.push(sb);
      // Orders are signed for the instruments of the sandbox started last, as start() does.
      signFor(options.instruments);
      return sb;
    },
    fresh: async () => {
      await Promise.all(members.splice(0).map((m) => m.close()));
      await redis?.stop();
      redis = await startRedis();
    },
  };
}

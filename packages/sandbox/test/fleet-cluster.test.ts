/**
 * One exchange across many processes on a Redis Cluster (the `redisCluster` option): two sandboxes on a
 * three-master cluster of this file's own share budgets, connection slots, nonces and pushes, and order
 * flow reaches each book's owner, as on one Redis (fleet.test.ts). A cluster refuses a script or MULTI
 * whose keys span slots (CROSSSLOT): every test ends with neither member having counted a fault.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newNonce, signAction } from '@exchange-api/auth';
import { Client, newWallet, signed } from './helpers';
import { quiet } from './fleet-setup';
import { hasRedisCluster, NO_REDIS_CLUSTER, startRedisCluster, type RedisCluster } from './redis-cluster';
import { REDIS_PASSWORD_ENV, startSandbox, SandboxOptionsError, type Sandbox, type SandboxOptions } from '../src/index';

let cluster: RedisCluster | null = null;
const members: Sandbox[] = [];

beforeAll(async () => {
  if (hasRedisCluster) cluster = await startRedisCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});
afterEach(async () => {
  const left = members.splice(0);
  // A fault counted by a member (CROSSSLOT, a script refused, a lost message) fails the test that caused it.
  const faults = await Promise.all(left.map(async (m) => await (await fetch(`${m.controlUrl}/status`)).json()));
  await Promise.all(left.map((m) => m.close()));
  // The next test starts on an empty cluster, as the fleet tests each start on a redis-server of their own.
  cluster?.each('flushall');
  for (const f of faults) expect(f.errors, JSON.stringify(f.errors)).toMatchObject({ ticks: 0, server: 0 });
});

/** Two members of one fleet on the cluster. */
async function pair(extra: SandboxOptions = {}): Promise<[Sandbox, Sandbox]> {
  const options = { ...quiet, control: true, ...extra, redisCluster: cluster!.seeds };
  const a = await startSandbox(options);
  members.push(a);
  const b = await startSandbox(options);
  members.push(b);
  return [a, b];
}

/** Ask again until `done` holds (bounded by the test's own timeout), looking every 20 ms. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 20));
}

async function trader(url: string, w = newWallet()) {
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  return { w, c, sub: sub! };
}

const order = (sub: number, price = '100', instrument_name = 'ETH-PERP', amount = '0.01') => ({
  instrument_name,
  order_type: 'limit',
  max_fee: '100',
  subaccount_id: sub,
  direction: 'buy',
  amount,
  limit_price: price,
});

describe.skipIf(!hasRedisCluster)(
  `a fleet on a Redis Cluster${hasRedisCluster ? '' : ` (skipped: ${NO_REDIS_CLUSTER})`}`,
  () => {
    // A window of a fraction of a second is counted by our script; the others (every later test) by RateLimiterRedis.
    it('shares a wallet budget: points spent on A are gone on B', async () => {
      const [a, b] = await pair({ limits: { ...quiet.limits, non_matching: { points: 5, windowMs: 60_500 } } });
      const w = newWallet();
      const onA = await trader(a.wsUrl, w);
      const onB = await trader(b.wsUrl, w);
      expect((await onA.c.call('public/getRateLimits')).remaining_non_matching.remainingPoints).toBe(4);
      expect((await onB.c.call('public/getRateLimits')).remaining_non_matching.remainingPoints).toBe(3);
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
      await until(async () => (await two.call('public/getRateLimits')).remaining_connections.remainingPoints === 1);
      const again = await Client.connect(b.wsUrl);
      expect((await again.request('test.roundTrip')).error.code).toBe(-32601);
      for (const c of [two, again]) c.close();
    });

    it('refuses on B a nonce used on A', async () => {
      const [a, b] = await pair();
      const w = newWallet();
      const onA = await trader(a.wsUrl, w);
      const onB = await trader(b.wsUrl, w);
      const params = await signed(w, 'private/order', order(onA.sub));
      expect((await onA.c.call('private/order', params)).order.order_status).toBe('open');
      const replay = await onB.c.request('private/order', params);
      expect(replay.error.code).toBe(14004);
      expect(replay.error.data).toMatch(/nonce .* was already used/);
    });

    it('routes orders to each book’s owner and pushes them to a subscriber on the other member', async () => {
      const [a, b] = await pair();
      // A owned every book; B takes its share as A gives books back, one a cycle.
      await until(() => a.fleet!.owned().length === 2 && b.fleet!.owned().length === 2);
      const w = newWallet();
      const onA = await trader(a.wsUrl, w);
      const onB = await trader(b.wsUrl, w);
      await onB.c.call('subscribe', { channels: [`${onB.sub}.orders`] });
      const prices: Record<string, [string, string]> = {
        'ETH-PERP': ['100', '0.01'],
        'BTC-PERP': ['1000', '0.001'],
        'ETH-20261231-3000-C': ['1', '0.01'],
        'ETH-USDC': ['100', '0.01'],
      };
      // One book A owns and one B owns, both placed through A.
      const ids: string[] = [];
      for (const name of [a.fleet!.owned()[0]!, b.fleet!.owned()[0]!]) {
        const [price, amount] = prices[name]!;
        const p = order(onA.sub, price, name, amount);
        const placed = await onA.c.call('private/order', await signed(w, 'private/order', p));
        expect(placed.order).toMatchObject({ order_status: 'open', instrument_name: name });
        await onB.c.nextPush(`${onB.sub}.orders`, undefined, (d) => d[0].order_id === placed.order.order_id);
        ids.push(placed.order.order_id);
      }
      const open = await onB.c.call('private/get_open_orders', { subaccount_id: onB.sub });
      expect(open.orders.map((o: { order_id: string }) => o.order_id).sort()).toEqual([...ids].sort());
      expect(await onB.c.call('private/cancel_all', { subaccount_id: onB.sub })).toBe('ok');
      for (const id of ids)
        await onB.c.nextPush(
          `${onB.sub}.orders`,
          undefined,
          (d) => d[0].order_id === id && d[0].order_status === 'cancelled',
        );
    });

    it('shares what the API registers: a key narrowed on A signs nothing on B; an MMP config set on A', async () => {
      const [a, b] = await pair();
      const w = newWallet();
      const key = newWallet();
      const onA = await trader(a.wsUrl, w);
      const onB = await trader(b.wsUrl, w);
      const register = async (scopes: string[]) =>
        onA.c.call(
          'private/set_session_key',
          await signAction(w, 'private/set_session_key', {
            wallet: w.address,
            public_session_key: key.address,
            expiry_sec: Math.floor(Date.now() / 1000) + 3600,
            protocol_scopes: scopes,
            offchain_scopes: ['account_info'],
            subaccount_ids: null,
            nonce: newNonce(),
            signature_expiry_sec: Math.floor(Date.now() / 1000) + 600,
          } as never),
        );
      const byKey = async () =>
        onB.c.request('private/order', await signed(key, 'private/order', order(onB.sub), { owner: w.address }));
      await register(['trade:all']);
      expect((await byKey()).result.order.order_status).toBe('open');
      await register([]);
      expect((await byKey()).error).toMatchObject({ code: 14004, data: expect.stringMatching(/lacks the trade/) });
      const mmp = { subaccount_id: onA.sub, currency: 'ETH', mmp_interval: 1000, mmp_frozen_time: 0 };
      await onA.c.call('private/set_mmp_config', { ...mmp, mmp_amount_limit: '5' });
      expect(await onB.c.call('private/get_mmp_config', { subaccount_id: onB.sub })).toEqual([
        expect.objectContaining({ currency: 'ETH', mmp_amount_limit: '5' }),
      ]);
    });

    it('spreads the fleet over the masters: the books, the fleet and the counts live on more than one', async () => {
      const [a] = await pair();
      const { c } = await trader(a.wsUrl);
      await c.call('public/getRateLimits');
      const sizes = cluster!.each('dbsize').map(Number);
      expect(sizes.filter((n) => n > 0).length, `keys per master: ${sizes.join(', ')}`).toBeGreaterThan(1);
    });

    it('says which Redis is unreachable, by the flag, without the password', async () => {
      const err = await startSandbox({ redisCluster: 'redis://:hunter2@127.0.0.1:1' }).catch((e: Error) => e);
      expect(err).toMatchObject({ name: 'RedisUnreachableError' });
      expect((err as Error).message).toMatch(
        /^--redis-cluster redis:\/\/:\*\*\*@127\.0\.0\.1:1: Redis is unreachable \(/,
      );
      expect((err as Error).message).not.toContain('hunter2');
    });
  },
);

describe.skipIf(!hasRedisCluster)(
  `a Redis Cluster with a password${hasRedisCluster ? '' : ` (skipped: ${NO_REDIS_CLUSTER})`}`,
  () => {
    it(`takes it from the seeds or from ${REDIS_PASSWORD_ENV}, and says when it is missing`, async () => {
      const secured = await startRedisCluster('s3cret-pw');
      const plain = secured.ports.map((p) => `127.0.0.1:${p}`).join(',');
      try {
        const missing = await startSandbox({ redisCluster: plain }).catch((e: Error) => e);
        expect((missing as Error).message).toMatch(
          /^--redis-cluster 127\.0\.0\.1:\d+,.*: Redis is unreachable \(.*NOAUTH/,
        );
        const inSeeds = await startSandbox({ ...quiet, redisCluster: secured.seeds });
        members.push(inSeeds);
        process.env[REDIS_PASSWORD_ENV] = 's3cret-pw';
        const fromEnv = await startSandbox({ ...quiet, redisCluster: plain }).finally(
          () => delete process.env[REDIS_PASSWORD_ENV],
        );
        members.push(fromEnv);
        // One fleet: the second member joined the first.
        expect([inSeeds.fleet!.member, fromEnv.fleet!.member]).toEqual(['m1', 'm2']);
      } finally {
        await Promise.all(members.splice(0).map((m) => m.close()));
        await secured.stop();
      }
    }, 60_000);
  },
);

describe('the redisCluster option', () => {
  it('is not given with redis', async () => {
    const both = startSandbox({ redis: 'redis://127.0.0.1:6379', redisCluster: '127.0.0.1:7000' });
    await expect(both).rejects.toThrow(SandboxOptionsError);
    await expect(both).rejects.toThrow(/redisCluster: cannot be given with redis/);
  });

  it.each([
    ['127.0.0.1', /seed 1 \("127\.0\.0\.1"\) is not HOST:PORT/],
    ['127.0.0.1:7000,', /seed 2 \(""\) is not HOST:PORT/],
    ['127.0.0.1:70000', /seed 1 \("127\.0\.0\.1:70000"\)/],
    ['secret@127.0.0.1:7000', /seed 1 \("\*\*\*@127\.0\.0\.1:7000"\)/],
    ['redis://a:7000,rediss://b:7000', /mix redis:\/\/ and rediss:\/\//],
    ['redis://:one@a:7000,redis://:two@b:7000', /different passwords/],
  ])('refuses %j, naming the seed without its password', async (seeds, message) => {
    const started = startSandbox({ redisCluster: seeds });
    await expect(started).rejects.toThrow(SandboxOptionsError);
    await expect(started).rejects.toThrow(message);
    await expect(started).rejects.not.toThrow(/secret|:one@|:two@/);
  });
});

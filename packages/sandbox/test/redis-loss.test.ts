/**
 * A fleet whose Redis loses everything (FLUSHALL here; a restart without persistence is the same loss):
 * the members notice, re-publish what they hold (the configuration, accounts, connection slots, resting
 * orders), refuse signed requests and new connections until they have, and never take back a nonce used
 * before the loss (docs/sandbox.md states the guarantee).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { newNonce } from '@exchange-api/auth';
import { Client, control, newWallet, signed } from './helpers';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { quiet, useFleet } from './fleet-setup';
import { killGroup, spawnGroup } from './processes';
import { startSandbox, type SandboxOptions } from '../src/index';
import { keys } from '../src/redis/keys';

const fleet = useFleet();
const { start } = fleet;

/** Source imports as the repository runs them (no build needed). */
const SOURCE = ['--conditions=@exchange-api/source', '--import', 'tsx'];

/**
 * Look again every 20 ms until `done` holds. A hang stopper, not a speed test: the fleet does it within
 * a few cycles of 1 s, so what has not happened after RECOVERY_BOUND_MS (a loaded machine included) never will.
 */
async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const by = Date.now() + RECOVERY_BOUND_MS;
  while (!(await done())) {
    if (Date.now() > by) throw new Error(`${what}: not so after ${RECOVERY_BOUND_MS} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const RECOVERY_BOUND_MS = 40_000;

/** Raw connections of the current test, closed after it whatever it asserted. */
const opened: Redis[] = [];
afterEach(() => {
  for (const r of opened.splice(0)) r.disconnect();
});

/** A raw connection to the test's Redis: what an operator's FLUSHALL is sent on. */
async function raw(): Promise<Redis> {
  const r = new Redis(fleet.redis().url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  // Its server stops after the test: a failed reconnection is no news.
  r.on('error', () => {});
  opened.push(r);
  await r.connect();
  return r;
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

/** Whether a fresh WebSocket is admitted (it answers) or refused (the server closes it). */
async function admitted(url: string): Promise<{ admitted: boolean; closed: { code: number; reason: string } | null }> {
  const c = await Client.connect(url);
  const answered = c.request('public/get_time').then(() => true);
  const shut = c.whenClosed.then(() => false);
  const ok = await Promise.race([answered, shut]);
  return { admitted: ok, closed: ok ? null : c.closed };
}

// A short lead for nonces stamped ahead of the fleet's clock keeps the wait after a loss short.
const options = (extra: SandboxOptions = {}): SandboxOptions => ({
  ...quiet,
  login: { futureMs: 500 },
  ...extra,
  redis: fleet.redis().url,
});

describe.skipIf(!hasRedisServer)(
  `a fleet whose Redis lost everything${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`,
  () => {
    it('refuses a replay of a signed order used before the loss, and takes orders signed after it', async () => {
      const [a, b] = [await start(options()), await start(options())];
      const w = newWallet();
      const onA = await trader(a.wsUrl, w);
      const onB = await trader(b.wsUrl, w);
      const params = await signed(w, 'private/order', order(onA.sub));
      expect((await onA.c.call('private/order', params)).order.order_status).toBe('open');
      const r = await raw();
      await r.flushall();
      // At once, on either member: refused, whether the member is restoring, restored, or has not yet seen
      // the loss (then its claim lands in the emptied Redis, is checked against the marker, and refused;
      // the nonce the other member's refused claim left there may refuse it first).
      for (const c of [onB.c, onA.c]) {
        const replay = await c.request('private/order', params);
        expect(replay.error, JSON.stringify(replay)).toBeDefined();
        expect(replay.error.data).toMatch(/shared state \(Redis\) was lost|not newer than the moment|already used/);
      }
      // A fresh signature is taken once the fleet is restored (its nonce is stamped after the loss).
      let placed: any;
      await until('an order signed after the loss is taken', async () => {
        const fresh = await signed(w, 'private/order', order(onB.sub, '99'), { nonce: newNonce(Date.now()) });
        placed = await onB.c.request('private/order', fresh);
        return placed.result !== undefined;
      });
      expect(placed.result.order.order_status).toBe('open');
      // The replay stays refused, on both members, however its nonce is spelled, naming why.
      for (const c of [onA.c, onB.c])
        for (const nonce of [params.nonce, `0${params.nonce}`]) {
          const replay = await c.request('private/order', { ...params, nonce });
          expect(replay.error.code).toBe(14004);
          expect(replay.error.data).toMatch(/not newer than the moment the exchange's shared state was lost/);
        }
      // A nonce too short to carry its time cannot be shown to come after the loss.
      const seven = await signed(w, 'private/order', order(onB.sub), { nonce: '7' });
      expect((await onB.c.request('private/order', seven)).error.data).toMatch(/nonce 7 is not newer than the moment/);
      // What makes the floor hold: no nonce is taken stamped further ahead of the fleet's clock than the lead.
      const later = String(BigInt(Date.now() + 60_000) * 1_000_000n);
      const early = await signed(w, 'private/order', order(onA.sub), { nonce: later });
      const ahead = await onA.c.request('private/order', early);
      expect(ahead.error.code).toBe(14004);
      expect(ahead.error.data).toMatch(/more than 500 ms ahead of the exchange's clock/);
      const floor = await r.hget(keys.generation, 'floor');
      expect(Number(floor)).toBeGreaterThan(0);
    });

    it('refuses the replay after Redis restarted empty too (noticed as the connections come back)', async () => {
      const a = await start(options());
      const w = newWallet();
      const onA = await trader(a.wsUrl, w);
      const params = await signed(w, 'private/order', order(onA.sub));
      expect((await onA.c.call('private/order', params)).order.order_status).toBe('open');
      await fleet.redis().kill();
      await fleet.redis().restart();
      await until('an order signed after the restart is taken', async () => {
        const fresh = await signed(w, 'private/order', order(onA.sub, '99'), { nonce: newNonce(Date.now()) });
        return (await onA.c.request('private/order', fresh)).result !== undefined;
      });
      const replay = await onA.c.request('private/order', params);
      expect(replay.error.code).toBe(14004);
      expect(replay.error.data).toMatch(/not newer than the moment the exchange's shared state was lost/);
    });

    it('re-publishes the configuration: another configuration is still refused, the same one joins', async () => {
      const first = await start(options({ control: true }));
      const r = await raw();
      await r.flushall();
      await until('the configuration is re-published', async () => (await r.exists(keys.config)) === 1);
      // The loss is counted and said (once), as every Redis failure is.
      expect((await control(first, 'status')).json.errors).toMatchObject({
        server: 1,
        last: expect.stringMatching(/^the fleet: the shared state: .*Redis lost the fleet's shared state/),
      });
      const err = await startSandbox(options({ seed: 2 })).catch((e: unknown) => e);
      expect((err as Error).name).toBe('FleetConfigError');
      expect((err as Error).message).toMatch(/another configuration \(seed differ\)/);
      expect((await start(options())).fleet!.member).toMatch(/^m[0-9]+$/);
    });

    it('keeps every resting order through a loss, then a kill of their owner: the next owner has them', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'xsb-cfg-'));
      const config = join(dir, 'sb.json');
      writeFileSync(config, JSON.stringify(quiet));
      // X starts first and owns every book; A joins and takes its share (never ETH-PERP, X's first).
      const x = spawnGroup([
        ...SOURCE,
        'packages/cli/bin/exchange-api.js',
        'sandbox',
        '--redis',
        fleet.redis().url,
        '--config',
        config,
        '--detached',
      ]);
      expect(await x.firstLine).toMatch(/^sandbox listening /);
      const a = await start({ ...quiet, redis: fleet.redis().url });
      await until('A takes its share', () => a.fleet!.owned().length === 2);
      expect(a.fleet!.owned()).not.toContain('ETH-PERP');
      const w = newWallet();
      const onA = await trader(a.wsUrl, w);
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const p = await signed(w, 'private/order', order(onA.sub, String(90 + i)));
        ids.push((await onA.c.call('private/order', p)).order.order_id);
      }
      const r = await raw();
      await r.flushall();
      // X notices at its next cycle and writes its book again (what the next owner reads).
      await until('the book is written again', async () => (await r.hlen(keys.book('ETH-PERP'))) === 7);
      killGroup(x.pgid, 'SIGKILL');
      await x.exited;
      await until("A takes the killed owner's books", () => a.fleet!.owned().length === 4);
      const open = await onA.c.call('private/get_open_orders', { subaccount_id: onA.sub });
      expect(open.orders.map((o: { order_id: string }) => o.order_id).sort()).toEqual([...ids].sort());
      rmSync(dir, { recursive: true, force: true });
    });

    it('holds the per-IP connection limit across the loss: the slots held are counted again', async () => {
      const limits = { ...quiet.limits, connections: { max: 4 } };
      const [a, b] = [await start(options({ limits })), await start(options({ limits }))];
      const held = [
        await Client.connect(a.wsUrl),
        await Client.connect(a.wsUrl),
        await Client.connect(b.wsUrl),
        await Client.connect(b.wsUrl),
      ];
      for (const c of held) await c.roundTrip();
      const r = await raw();
      await r.flushall();
      // At once: no fifth connection on either member (refused as over the limit, or while restoring).
      for (const url of [a.wsUrl, b.wsUrl, a.wsUrl, b.wsUrl]) {
        const seen = await admitted(url);
        expect(seen.admitted, JSON.stringify(seen.closed)).toBe(false);
        expect(seen.closed!.code === 1008 || /being restored/.test(seen.closed!.reason)).toBe(true);
      }
      // Once restored, the fleet counts the four again and refuses a fifth as over the limit.
      await until(
        'the four are counted again',
        async () => (await held[0]!.call('public/getRateLimits')).remaining_connections.consumedPoints === 4,
      );
      // Each member ends its restore on its own: the count can be back before b has re-published all it holds,
      // and until then b refuses as restoring (1011). The fifth is tried on b until it is refused for the limit.
      let fifth: Awaited<ReturnType<typeof admitted>> | undefined;
      await until('b refuses a fifth as over the limit', async () => {
        fifth = await admitted(b.wsUrl);
        expect(fifth.admitted, 'a fifth connection was admitted').toBe(false);
        return !/being restored/.test(fifth.closed!.reason);
      });
      expect(fifth).toMatchObject({ admitted: false, closed: { code: 1008 } });
      for (const c of held) expect(c.closed).toBeNull();
    });
  },
);

/**
 * A fleet's faults (the `redis` option): Redis unreachable at start, Redis lost and back mid-run, a
 * member killed while it owns books; and a sandbox without `redis` loads no Redis client.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, newWallet, signed } from './helpers';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { quiet, useFleet } from './fleet-setup';
import { killGroup, root, spawnGroup } from './processes';
import { startSandbox } from '../src/index';
import { RedisUnreachableError } from '../src/redis/connect';
import { LEASE_MS, CYCLE_MS } from '../src/redis/leases';
import { ALIVE_MS } from '../src/redis/members';

const fleet = useFleet();
const { start } = fleet;

/** Ask again, one round trip (or one look) at a time, until `done` holds; bounded by the test's timeout. */
async function until(done: () => boolean | Promise<boolean>, pause = false): Promise<void> {
  while (!(await done())) if (pause) await new Promise((r) => setTimeout(r, 20));
}

/** Source imports as the repository runs them (no build needed). */
const SOURCE = ['--conditions=@exchange-api/source', '--import', 'tsx'];

describe('Redis unreachable at start', () => {
  it('startSandbox rejects with one line naming the URL, and leaves nothing running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xsb-none-'));
    const url = join(dir, 'nobody.sock');
    const err = await startSandbox({ redis: url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RedisUnreachableError);
    expect((err as Error).message).toMatch(new RegExp(`^--redis ${url}: Redis is unreachable \\(.+\\)$`));
    expect((err as Error).message).not.toContain('\n');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('a sandbox without redis', () => {
  const loads = (options: string) => {
    const script = `import { createRequire } from 'node:module';
const { startSandbox } = await import('./packages/sandbox/src/index.ts');
const sb = await startSandbox(${options});
const cache = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify(cache.filter((k) => /[\\\\/]ioredis[\\\\/]/.test(k)).length));
await sb.close();`;
    const r = spawnSync(process.execPath, [...SOURCE, '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    return Number(r.stdout.trim());
  };

  it('loads no Redis client', () => {
    expect(loads('{}')).toBe(0);
  });

  it.skipIf(!hasRedisServer)('(while one with redis does: the check sees a loaded client)', () => {
    expect(loads(JSON.stringify({ redis: fleet.redis().url }))).toBeGreaterThan(0);
  });
});

describe.skipIf(!hasRedisServer)(`faults of a fleet${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  it('refuses to join a fleet that runs with another configuration, naming what differs', async () => {
    await start({ ...quiet, redis: fleet.redis().url });
    const err = await startSandbox({ ...quiet, seed: 2, redis: fleet.redis().url }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('FleetConfigError');
    expect((err as Error).message).toMatch(/another configuration \(seed differ\)/);
    // The same configuration (host and port are each member's own) joins.
    expect((await start({ ...quiet, redis: fleet.redis().url, port: 0 })).fleet!.member).toMatch(/^m[0-9]+$/);
  });

  it('answers a clear error while Redis is lost, never a guess, and serves again once it is back', async () => {
    const sb = await start({ ...quiet, redis: fleet.redis().url });
    const c = await Client.connect(sb.wsUrl);
    await c.login(newWallet());
    expect((await c.call('public/getRateLimits')).remaining_non_matching.remainingPoints).toBeGreaterThan(0);
    const other = await Client.connect(sb.wsUrl);
    await other.roundTrip();
    await fleet.redis().kill();
    // Closed while Redis is away: its slot is given back once Redis is back.
    other.close();
    await other.whenClosed;
    const lost = await c.request('public/getRateLimits');
    expect(lost.error.code).toBe(-32603);
    expect(lost.error.data).toMatch(/shared state \(Redis\) is unreachable .*not served; retry/);
    const http = await fetch(`${sb.httpUrl}/v3/public/get_time`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await http.json()) as { error: { code: number } }).error.code).toBe(-32603);
    // A new WebSocket cannot be counted: closed with 1011 and the reason, not admitted on a guess.
    const fresh = await Client.connect(sb.wsUrl);
    expect(await fresh.whenClosed).toMatchObject({
      code: 1011,
      reason: expect.stringMatching(/^connection count unreachable/),
    });
    await fleet.redis().restart();
    // The connection reconnects by itself (within 0.5 s between attempts).
    await until(async () => (await c.request('public/getRateLimits')).result !== undefined, true);
    expect((await c.call('public/getRateLimits')).remaining_non_matching.remainingPoints).toBeGreaterThan(0);
    // It came back empty: the member wrote its count again, one connection (the closed one not counted).
    await until(async () => (await c.call('public/getRateLimits')).remaining_connections.consumedPoints === 1);
  });

  it("moves a killed owner's books within the bound, and its resting orders survive", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xsb-cfg-'));
    const config = join(dir, 'sb.json');
    writeFileSync(config, JSON.stringify(quiet));
    // X starts first and owns every book; A joins and takes its share (X gives back ETH-USDC, then the option).
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
    await until(() => a.fleet!.owned().length === 2, true);
    expect(a.fleet!.owned()).not.toContain('ETH-PERP');
    const w = newWallet();
    const c = await Client.connect(a.wsUrl);
    const [sub] = await c.login(w);
    const params = {
      instrument_name: 'ETH-PERP',
      order_type: 'limit',
      max_fee: '10',
      subaccount_id: sub!,
      direction: 'buy',
      amount: '0.01',
      limit_price: '100',
    };
    const placed = await c.call('private/order', await signed(w, 'private/order', params));
    expect(placed.order.order_status).toBe('open');
    killGroup(x.pgid, 'SIGKILL');
    await x.exited;
    const killedAt = Date.now();
    await until(() => a.fleet!.owned().length === 4, true);
    const moved = Date.now() - killedAt;
    // A hang stopper, not a speed test: far beyond the stated bound (the lease, then one cycle) fails.
    expect(moved).toBeLessThanOrEqual(Math.max(LEASE_MS, ALIVE_MS) + CYCLE_MS + 30_000);
    const cancelled = await c.call('private/cancel', {
      subaccount_id: sub,
      instrument_name: 'ETH-PERP',
      order_id: placed.order.order_id,
    });
    rmSync(dir, { recursive: true, force: true });
    expect(cancelled).toMatchObject({ order_id: placed.order.order_id, order_status: 'cancelled', limit_price: '100' });
  });
});

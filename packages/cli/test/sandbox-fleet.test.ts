/**
 * `exchange-api sandbox --redis <url> [--workers <n>]`: the flags, their one-line refusals (exit 2), and
 * n workers on one port acting as one exchange (they share one per-IP connection count).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { runMain } from '../../../test/support/run-main';
import { built, root as repoRoot } from './run-cli';
import { groupGone, killLeftGroups, spawnGroup } from '../../sandbox/test/processes';
import { hasRedisServer, NO_REDIS, startRedis, type RedisServer } from '../../sandbox/test/redis-server';
import { hasRedisCluster, NO_REDIS_CLUSTER, startRedisCluster } from '../../sandbox/test/redis-cluster';
import { fleetLines } from '../src/commands/sandbox-workers';
import { keys } from '../../sandbox/src/redis/keys';

// Every process group a test started is killed after it (the helper module is shared by the files of a
// worker, so it registers no hook of its own).
afterEach(killLeftGroups);

/** A socket path nobody listens on (its folder removed after the test). */
const made: string[] = [];
const nowhere = () => {
  const dir = mkdtempSync(join(tmpdir(), 'xsb-none-'));
  made.push(dir);
  return join(dir, 'nobody.sock');
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('sandbox --redis and --workers: refusals', () => {
  it.each([
    [['sandbox', '--workers', '2'], /^exchange-api sandbox: --workers needs --redis/],
    [
      ['sandbox', '--workers', '0', '--redis', '/x.sock'],
      /^exchange-api sandbox: --workers must be an integer from 1 to 64/,
    ],
    [['sandbox', '--redis', 'http://127.0.0.1:6379'], /^exchange-api sandbox: redis: must match/],
    [
      ['sandbox', '--redis', '/x.sock', '--redis-cluster', '127.0.0.1:7000'],
      /^exchange-api sandbox: --redis and --redis-cluster cannot be given together/,
    ],
    [
      ['sandbox', '--redis-cluster', 'redis://:s3cret@127.0.0.1'],
      /^exchange-api sandbox: redisCluster: seed 1 \("redis:\/\/:\*\*\*@127\.0\.0\.1"\) is not HOST:PORT/,
    ],
  ])('%j: one line, exit 2', async (args, message) => {
    const r = await runMain(args);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });

  it('Redis unreachable at start: one line naming the URL, exit 2', async () => {
    const url = nowhere();
    const r = await runMain(['sandbox', '--redis', url, '--detached']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      `exchange-api sandbox: --redis ${url}: Redis is unreachable (${r.stderr.match(/\((.*)\)\n$/)![1]})`,
    ]);
  });

  it('a Redis Cluster unreachable at start: one line naming the seeds without the password, exit 2', async () => {
    const r = await runMain([
      'sandbox',
      '--redis-cluster',
      'redis://:s3cret@127.0.0.1:1',
      '--workers',
      '2',
      '--detached',
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^exchange-api sandbox: --redis-cluster redis:\/\/:\*\*\*@127\.0\.0\.1:1: Redis is unreachable \(/,
      ),
    ]);
  });

  it('Redis unreachable at start with --workers: one line, exit 2, no worker started', async () => {
    const r = await runMain(['sandbox', '--redis', nowhere(), '--workers', '3', '--detached']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^exchange-api sandbox: --redis .*: Redis is unreachable/),
    ]);
  });
});

describe('what a fleet member prints after its listening line', () => {
  it('the members, their books, Redis without its password, and where the docs say more', () => {
    const lines = fleetLines({ flag: 'redis', value: 'redis://:s3cret@10.0.0.5:6379' }, [
      { pid: 11, member: 'm1', owned: ['ETH-PERP', 'BTC-PERP'] },
      { pid: 12, member: 'm2', owned: [] },
    ]);
    expect(lines.join('\n')).not.toContain('s3cret');
    expect(lines.slice(0, 3)).toEqual([
      'fleet of 2 workers on this port, on Redis redis://:***@10.0.0.5:6379:',
      '  worker 11: member m1, owning the books of ETH-PERP, BTC-PERP for now',
      '  worker 12: member m2, owning no book yet',
    ]);
    expect(lines.join(' ')).toMatch(/what stays in Redis after: there\)$/);
    expect(
      fleetLines({ flag: 'redis', value: '/run/redis.sock' }, [
        { pid: undefined, member: 'm7', owned: ['ETH-PERP'] },
      ])[0],
    ).toBe('fleet member m7 on Redis /run/redis.sock, owning the books of ETH-PERP for now');
    const seeds = 'redis://:s3cret@10.0.0.5:7000,10.0.0.6:7000';
    const onCluster = fleetLines({ flag: 'redis-cluster', value: seeds }, [
      { pid: undefined, member: 'm2', owned: [] },
    ]);
    expect(onCluster.join('\n')).not.toContain('s3cret');
    expect(onCluster.slice(0, 2)).toEqual([
      'fleet member m2 on Redis Cluster redis://:***@10.0.0.5:7000,10.0.0.6:7000, owning no book yet',
      '  every sandbox started with this cluster joins this exchange; books move between members as they join and',
    ]);
  });
});

describe.skipIf(!hasRedisServer)(`sandbox --workers${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  let redis: RedisServer;
  beforeEach(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await redis.stop();
  });

  it('starts n workers on one port, as one exchange, and stops them all on SIGTERM', async () => {
    const run = spawnGroup([...built, 'sandbox', '--redis', redis.url, '--workers', '2', '--detached']);
    const line = await run.firstLine;
    expect(line).toMatch(/^sandbox listening ws:\/\/127\.0\.0\.1:[0-9]+\/v3\/ws http:\/\/127\.0\.0\.1:[0-9]+$/);
    const members = spawnSync('redis-cli', ['-s', redis.url, 'smembers', keys.members], { encoding: 'utf8' });
    expect(members.stdout.trim().split('\n')).toHaveLength(2);
    // The document's 4 connections per IP, over both workers: the fifth is refused whichever worker takes it.
    const wsUrl = line.split(' ')[2]!;
    const open = async () => {
      const ws = new WebSocket(wsUrl);
      const first = once(ws, 'message').then(([d]) => String(d));
      await once(ws, 'open');
      return { ws, first };
    };
    const held = [];
    for (let i = 0; i < 4; i++) {
      const c = await open();
      c.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'public/get_time', params: {} }));
      expect(JSON.parse(await c.first).result).toBeTypeOf('number');
      held.push(c.ws);
    }
    const fifth = await open();
    expect(await fifth.first).toMatch(/^connectionLimitExceeded:/);
    for (const ws of held) ws.terminate();
    // A worker killed is replaced; its books move to the others meanwhile.
    // The primary's children that run the command.
    const workers = () =>
      spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(run.child.pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((l) => l.includes('exchange-api.js'))
        .map((l) => Number(l.trim().split(/\s+/)[0]));
    const [victim] = workers();
    process.kill(victim!, 'SIGKILL');
    while (!run.stderr().includes(`worker ${victim} exited (SIGKILL); starting another`))
      await new Promise((r) => setTimeout(r, 20));
    while (workers().length !== 2 || workers().includes(victim!)) await new Promise((r) => setTimeout(r, 20));
    // The replacement says so once it listens.
    while (!run.stdout().includes('joined, replacing')) await new Promise((r) => setTimeout(r, 20));
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(await groupGone(run.pgid, 10_000)).toBe(true);
    // After the listening line, the fleet: its two workers (members, books), Redis, and the replacement.
    const out = run.stdout().trim().split('\n');
    expect(out[0]).toBe(line);
    expect(out[1]).toBe(`fleet of 2 workers on this port, on Redis ${redis.url}:`);
    expect(out.slice(2, 4)).toEqual([
      expect.stringMatching(/^ {2}worker \d+: member m\d+, owning (the books of .* for now|no book yet)$/),
      expect.stringMatching(/^ {2}worker \d+: member m\d+, owning (the books of .* for now|no book yet)$/),
    ]);
    expect(out.at(-1)).toMatch(/^ {2}worker \d+: member m3 joined, replacing one that exited$/);
  });

  it('one process with --redis says which member it is and on which Redis', async () => {
    const run = spawnGroup([...built, 'sandbox', '--redis', redis.url, '--detached']);
    const line = await run.firstLine;
    expect(line).toMatch(/^sandbox listening /);
    while (!run.stdout().includes('what stays in Redis')) await new Promise((r) => setTimeout(r, 20));
    expect(run.stdout().split('\n')[1]).toMatch(
      new RegExp(`^fleet member m1 on Redis ${redis.url.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}, owning the books of `),
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(await groupGone(run.pgid, 10_000)).toBe(true);
    // What stays in Redis once every member stopped is what docs/sandbox.md says stays, and why.
    const left = spawnSync('redis-cli', ['-s', redis.url, '--scan', '--pattern', 'xsb:*'], { encoding: 'utf8' });
    const stays = left.stdout.trim().split('\n').filter(Boolean);
    expect(stays).toContain('xsb:{fleet}:member-seq');
    const documented = /^xsb:(\{fleet\}:member-seq|\{book:[^}]+\}:epoch|nonce:|rl:|bucket:)/;
    expect(stays.filter((k) => !documented.test(k))).toEqual([]);
    const page = readFileSync(join(repoRoot, 'docs', 'sandbox.md'), 'utf8');
    const section = page.slice(page.indexOf('**What stays in Redis**'));
    for (const named of [
      '`xsb:{fleet}:member-seq`',
      '`xsb:{book:<instrument>}:epoch`',
      '`xsb:nonce:',
      '`xsb:rl:',
      '`xsb:bucket:',
    ])
      expect(section, named).toContain(named);
  });
});

describe.skipIf(!hasRedisCluster)(
  `sandbox --redis-cluster${hasRedisCluster ? '' : ` (skipped: ${NO_REDIS_CLUSTER})`}`,
  () => {
    it('starts workers on a Redis Cluster, as one exchange, without the password in ps or the output', async () => {
      const cluster = await startRedisCluster('s3cret');
      try {
        const args = [...built, 'sandbox', '--redis-cluster', cluster.seeds, '--workers', '2', '--detached'];
        const run = spawnGroup(args);
        const line = await run.firstLine;
        expect(line).toMatch(/^sandbox listening ws:\/\/127\.0\.0\.1:[0-9]+\/v3\/ws http:\/\/127\.0\.0\.1:[0-9]+$/);
        while (!run.stdout().includes('what stays in Redis')) await new Promise((r) => setTimeout(r, 20));
        const out = run.stdout().trim().split('\n');
        expect(out[1]).toBe(
          `fleet of 2 workers on this port, on Redis Cluster ${cluster.seeds.replaceAll('s3cret', '***')}:`,
        );
        const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        expect(cmdline(run.child.pid!)).not.toContain('s3cret');
        // Both workers joined the one fleet: two members in its set, wherever the cluster keeps it.
        expect(cluster.command('smembers', keys.members).split('\n')).toHaveLength(2);
        run.child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
        expect(await groupGone(run.pgid, 10_000)).toBe(true);
        expect(run.stdout() + run.stderr()).not.toContain('s3cret');
      } finally {
        await cluster.stop();
      }
    }, 120_000);
  },
);

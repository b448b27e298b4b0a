/**
 * The Redis password stays secret: it is never printed (errors name the URL with `***` for it), it
 * can come from the environment instead of the URL, and `ps` shows neither the primary's nor its
 * workers' command line with it (the workers get the URL by environment).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { hasRedisServer, NO_REDIS, startRedis, type RedisServer } from './redis-server';
import { killGroup, listening, spawnGroup } from './processes';
import { quiet } from './fleet-setup';
import { resolveOptions, startSandbox, type Sandbox } from '../src/index';
import { REDIS_PASSWORD_ENV } from '../src/redis/redact';

const SECRET = 'pw-7f3c1e9a-not-in-any-line';
const SOURCE = ['--conditions=@exchange-api/source', '--import', 'tsx'];

let redis: RedisServer | null = null;
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  delete process.env[REDIS_PASSWORD_ENV];
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  await redis?.stop();
  redis = null;
});

/** The message of what `run` throws. */
async function failure(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('it did not fail');
}

describe('the Redis password in error lines', () => {
  it('is replaced by *** where a bad URL or an unreachable Redis is named', async () => {
    const bad = await failure(() => resolveOptions({ redis: `http://:${SECRET}@127.0.0.1:6379` }));
    expect(bad).toMatch(/^redis: must match/);
    expect(bad).toContain('***');
    expect(bad).not.toContain(SECRET);
    const gone = await failure(() => startSandbox({ redis: `redis://:${SECRET}@127.0.0.1:1` }));
    expect(gone).toMatch(/^--redis redis:\/\/:\*\*\*@127\.0\.0\.1:1: Redis is unreachable \(/);
    expect(gone).not.toContain(SECRET);
  });
});

describe.skipIf(!hasRedisServer)(
  `a Redis that requires a password${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`,
  () => {
    it(`is joined with the password from ${REDIS_PASSWORD_ENV} (none on a command line), refused without`, async () => {
      redis = await startRedis(SECRET);
      const without = await failure(() => startSandbox({ ...quiet, redis: redis!.url }));
      expect(without).toMatch(/Redis is unreachable \(.*(NOAUTH|Authentication required)/);
      process.env[REDIS_PASSWORD_ENV] = 'wrong';
      const wrong = await failure(() => startSandbox({ ...quiet, redis: redis!.url }));
      expect(wrong).toMatch(/Redis is unreachable \(.*(WRONGPASS|invalid)/);
      expect(wrong).not.toContain(SECRET);
      process.env[REDIS_PASSWORD_ENV] = SECRET;
      const sb = await startSandbox({ ...quiet, redis: redis.url });
      sandboxes.push(sb);
      expect(sb.fleet!.member).toMatch(/^m[0-9]+$/);
    });

    it.skipIf(process.platform !== 'linux')(
      'is not in the command line of the primary nor of its workers (what ps shows)',
      async () => {
        redis = await startRedis(SECRET);
        const args = ['packages/cli/bin/exchange-api.js', 'sandbox', '--redis', redis.tcpUrl!, '--workers', '2'];
        const run = spawnGroup([...SOURCE, ...args, '--detached']);
        try {
          expect(listening(await run.firstLine), run.stderr()).not.toBeNull();
          const primary = run.child.pid!;
          // tsx (the sources run through it) has a child of its own: the workers are the command's.
          const workers = childrenOf(primary).filter((pid) => commandLine(pid).includes('exchange-api.js'));
          expect(workers.length).toBe(2);
          for (const pid of [primary, ...workers]) {
            const line = commandLine(pid);
            expect(line, `pid ${pid}`).toContain('--redis redis://:***@127.0.0.1:');
            expect(line, `pid ${pid}`).not.toContain(SECRET);
          }
          expect(run.stderr()).not.toContain(SECRET);
        } finally {
          killGroup(run.pgid, 'SIGKILL');
          await run.exited;
        }
      },
    );
  },
);

/** A process's command line as `ps` shows it. */
function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name)) continue;
    try {
      // Fields after the command name (which may hold spaces, in parentheses): state, then the parent pid.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // The process ended while we looked: not a child any more.
    }
  }
  return out;
}

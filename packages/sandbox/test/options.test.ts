import { describe, expect, it } from 'vitest';
import { limitTable, loginTable } from '@exchange-api/types';
import { resolveOptions, SandboxOptionsError } from '../src/index';
import { once } from 'node:events';
import { exitWithin, spawnGroup } from './processes';

/** Resources that would have kept a process alive. */
const HELD = /Timeout|TCPServerWrap|TCPSocketWrap|Immediate/;

/**
 * test/fixtures/handles.ts in a fresh process, from the sources: it must end by itself (see there why).
 * Resolves with its exit code once its output is all read, or 'hung' after a bound only a hang reaches.
 */
async function handles(mode: 'close' | 'taken') {
  const r = spawnGroup([
    '--conditions=@exchange-api/source',
    '--import',
    'tsx',
    'packages/sandbox/test/fixtures/handles.ts',
    mode,
  ]);
  const outputRead = once(r.child, 'close');
  const code = await exitWithin(r, 60_000);
  if (code !== 'hung') await outputRead;
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

describe('options', () => {
  it('defaults come from the generated tables', () => {
    const o = resolveOptions({});
    for (const l of limitTable) {
      if (l.kind === 'window') expect(o.windows.get(l.id)).toMatchObject({ points: l.points, windowMs: l.windowMs });
      if (l.kind === 'connections') expect(o.maxConnections).toBe(l.max);
      if (l.kind === 'size') expect(o.maxFrameBytes).toBe(l.maxBytes);
      if (l.kind === 'bucket')
        expect(o.buckets.find((b) => b.id === l.id)).toMatchObject({
          capacity: l.capacity,
          refillPerSecond: l.refillPerSecond,
        });
    }
    expect(o.login).toEqual({
      pastMs: loginTable.freshness.pastMs,
      futureMs: loginTable.freshness.futureMs,
      reverifyIntervalMs: loginTable.reverifyIntervalMs,
    });
    expect(o).toMatchObject({ host: '127.0.0.1', port: 0, seed: 1, control: false, market: { intervalMs: 100 } });
  });

  it('names the bad key', () => {
    const bad: Array<[unknown, string]> = [
      [{ colour: 1 }, 'colour'],
      [{ port: -1 }, 'port'],
      [{ limits: { nope: {} } }, 'limits.nope'],
      [{ limits: { matching: { max: 3 } } }, 'limits.matching.max'],
      [{ limits: { matching: { points: 0 } } }, 'limits.matching.points'],
      [{ sessionKeys: [{ address: '0x1', wallet: '0x2' }] }, 'sessionKeys[0].address'],
      [
        { instruments: [{ instrument_name: 'A.B', instrument_type: 'perp', base_currency: 'A' }] },
        'instruments[0].instrument_name',
      ],
      [
        { instruments: [{ instrument_name: 'AB', instrument_type: 'future', base_currency: 'A' }] },
        'instruments[0].instrument_type',
      ],
      [{ market: { intervalMs: 'fast' } }, 'market.intervalMs'],
    ];
    for (const [input, key] of bad) {
      try {
        resolveOptions(input);
        expect.unreachable(`accepted ${JSON.stringify(input)}`);
      } catch (err) {
        expect(err).toBeInstanceOf(SandboxOptionsError);
        expect((err as SandboxOptionsError).key).toBe(key);
      }
    }
  });

  it('close() leaves no handles behind, many times in one process', async () => {
    const r = await handles('close');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toEqual(['closed 5', expect.not.stringMatching(HELD), '']);
  });

  it('a failed start (port in use) rejects and leaves no timer, socket or server behind', async () => {
    const r = await handles('taken');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      expect.stringMatching(/^refused: .*EADDRINUSE/),
      expect.not.stringMatching(HELD),
      '',
    ]);
  });
});

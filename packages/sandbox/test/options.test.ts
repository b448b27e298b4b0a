import { describe, expect, it } from 'vitest';
import { limitTable, loginTable } from '@exchange-api/types';
import { resolveOptions, SandboxOptionsError, startSandbox } from '../src/index';
import { createServer } from 'node:net';
import { Client } from './helpers';

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
    const before = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;
    for (let i = 0; i < 5; i++) {
      const sb = await startSandbox({ control: i % 2 === 0, market: { intervalMs: 10 } });
      const c = await Client.connect(sb.wsUrl);
      await c.call('subscribe', { channels: ['orderbook.ETH-PERP.1.10'] });
      await c.call('public/getRateLimits', {});
      await sb.close();
      await sb.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    const after = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;
    expect(after).toBeLessThanOrEqual(before);
  });

  it('a failed start (port in use) rejects and leaves no timer, socket or server behind', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const count = () => {
      const all = process.getActiveResourcesInfo();
      return {
        timers: all.filter((r) => r === 'Timeout').length,
        servers: all.filter((r) => r === 'TCPServerWrap').length,
      };
    };
    try {
      const before = count();
      await expect(startSandbox({ port, market: { intervalMs: 10 } })).rejects.toThrow(/EADDRINUSE/);
      // The refused listen socket closes asynchronously; nothing else may remain.
      for (let i = 0; i < 50 && JSON.stringify(count()) !== JSON.stringify(before); i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(count()).toEqual(before);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

/** Subscriptions (one wire subscription per address, batching, refusals), validation modes, and client streams. */
import { describe, expect, it } from 'vitest';
import { channels } from '@exchange-api/types';
import { book, until } from './peer';
import { useClientHarness } from './harness';

const t = useClientHarness();

describe('subscriptions', () => {
  it('one wire subscription per channel however many handlers', async () => {
    await t.make().connect();
    const address = channels.orderbook({ instrument_name: 'ETH-PERP', group: 1, depth: 10 });
    const a: number[] = [];
    const b: number[] = [];
    const [sa, sb] = await Promise.all([
      t.client.subscribe(address, (p) => a.push(p.publish_id)),
      t.client.subscribe(address, (p) => b.push(p.publish_id)),
    ]);
    expect(t.peer.subscribeBatches).toEqual([[address]]);
    t.peer.push(address, book(1));
    await until(() => a.length === 1 && b.length === 1);
    await sa.unsubscribe();
    expect(t.peer.requests.filter((r) => r.method === 'unsubscribe')).toHaveLength(0);
    t.peer.push(address, book(2));
    await until(() => b.length === 2);
    expect(a).toEqual([1]);
    await sb.unsubscribe();
    expect(t.peer.requests.filter((r) => r.method === 'unsubscribe').map((r) => r.params.channels)).toEqual([
      [address],
    ]);
    expect(t.errors).toEqual([]);
  });

  it('array channels hand over the pushed array', async () => {
    await t.make().connect();
    const got: unknown[] = [];
    await t.client.subscribe('trades.ETH-PERP', (trades) => got.push(trades.length));
    t.peer.push('trades.ETH-PERP', []);
    await until(() => got.length === 1);
    expect(got).toEqual([0]);
  });

  it('a refused subscription rejects and leaves nothing behind', async () => {
    await t.make().connect();
    t.peer.refuse.add('1.orders');
    const err = await t.client.subscribe('1.orders', () => {}).catch((e) => e);
    expect(err.code).toBe('SUBSCRIBE_REFUSED');
    expect(t.client.subscriptions).toEqual([]);
  });

  it('rejects an address that matches no channel at once', async () => {
    await t.make().connect();
    const err = await t.client.subscribe('nope' as never, () => {}).catch((e) => e);
    expect(err.code).toBe('USAGE');
  });
});

describe('validation modes', () => {
  const bad = { instrument_name: 'ETH-PERP', publish_id: -1, timestamp: 1, bids: [], asks: [] };
  for (const [mode, delivered, reported] of [
    ['off', 2, 0],
    ['warn', 2, 1],
    ['strict', 1, 1],
  ] as const) {
    it(`${mode}: bad payload ${delivered === 2 ? 'delivered' : 'dropped'}, ${reported ? 'reported' : 'not reported'}`, async () => {
      await t.make({ validate: mode }).connect();
      const got: unknown[] = [];
      await t.client.subscribe('orderbook.ETH-PERP.1.10', (p) => got.push(p));
      t.peer.push('orderbook.ETH-PERP.1.10', bad);
      t.peer.push('orderbook.ETH-PERP.1.10', book(5));
      await until(() => got.length === delivered && (got.at(-1) as { publish_id: number }).publish_id === 5);
      expect(t.reports).toHaveLength(reported);
      if (reported) {
        expect(t.reports[0]).toMatchObject({
          target: 'orderbook.ETH-PERP.1.10',
          channel: 'orderbook',
          dropped: mode === 'strict',
        });
        expect(t.reports[0]!.failures[0]).toMatchObject({ pointer: '/publish_id', rule: 'minimum' });
        expect(t.reports[0]!.error.code).toBe('VALIDATION_FAILED');
      }
    });
  }

  it('a handler that throws is reported and the others still run', async () => {
    await t.make().connect();
    const got: number[] = [];
    await t.client.subscribe('orderbook.ETH-PERP.1.10', () => {
      throw new Error('boom');
    });
    await t.client.subscribe('orderbook.ETH-PERP.1.10', (p) => got.push(p.publish_id));
    t.peer.push('orderbook.ETH-PERP.1.10', book(3));
    await until(() => got.length === 1);
    expect(t.errors.map((e) => e.code)).toEqual(['HANDLER_FAILED']);
  });
});

describe('stream', () => {
  it('iterates payloads and unsubscribes when the loop ends', async () => {
    await t.make().connect();
    const s = t.client.stream('orderbook.ETH-PERP.1.10');
    await s.ready;
    for (let i = 1; i <= 3; i++) t.peer.push('orderbook.ETH-PERP.1.10', book(i));
    const seen: number[] = [];
    for await (const p of s) {
      seen.push(p.publish_id);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([1, 2, 3]);
    await until(() => t.peer.requests.some((r) => r.method === 'unsubscribe'));
    expect(t.client.subscriptions).toEqual([]);
  });

  it('drops the oldest payload when the buffer is full, and says so', async () => {
    await t.make().connect();
    const overflows: number[] = [];
    t.client.on('overflow', (o) => overflows.push(o.dropped));
    const s = t.client.stream('orderbook.ETH-PERP.1.10', { bufferSize: 2 });
    await s.ready;
    for (let i = 1; i <= 5; i++) t.peer.push('orderbook.ETH-PERP.1.10', book(i));
    await until(() => overflows.length === 3);
    const a = await s.next();
    const b = await s.next();
    expect([a.value?.publish_id, b.value?.publish_id]).toEqual([4, 5]);
    await s.return!();
  });

  it("overflow 'error' ends the stream with a StreamOverflowError", async () => {
    await t.make().connect();
    const s = t.client.stream('orderbook.ETH-PERP.1.10', { bufferSize: 1, overflow: 'error' });
    await s.ready;
    let arrived = 0;
    await t.client.subscribe('orderbook.ETH-PERP.1.10', () => arrived++);
    t.peer.push('orderbook.ETH-PERP.1.10', book(1));
    t.peer.push('orderbook.ETH-PERP.1.10', book(2));
    await until(() => arrived === 2);
    const err = await s.next().catch((e) => e);
    expect(err.code).toBe('STREAM_OVERFLOW');
    expect(await s.next()).toEqual({ value: undefined, done: true });
  });
});

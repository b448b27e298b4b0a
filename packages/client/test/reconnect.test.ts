/** Reconnects (resubscription, fallback one by one, connection-limit back-off) and when a connection counts as open. */
import { describe, expect, it } from 'vitest';
import { ConnectionLimitError, type WebSocketConstructor } from '../src/index';
import { book, until } from './peer';
import { useClientHarness } from './harness';

const t = useClientHarness();

describe('reconnect', () => {
  it('resubscribes in one batch after each drop; every handler runs once per frame', async () => {
    await t.make().connect();
    const seen = new Map<string, number[]>();
    const addresses = ['orderbook.ETH-PERP.1.10', 'orderbook.BTC-PERP.1.10', 'trades.ETH-PERP'] as const;
    for (const a of addresses) {
      seen.set(a, []);
      await t.client.subscribe(a, (p: unknown) =>
        seen.get(a)!.push(Array.isArray(p) ? p.length : (p as { publish_id: number }).publish_id),
      );
    }
    for (let round = 1; round <= 5; round++) {
      t.peer.subscribeBatches.length = 0;
      t.peer.drop();
      await until(() => t.client.state === 'reconnecting', 2000, 'reconnecting');
      await until(() => t.client.state === 'open', 5000, 'open again');
      expect(t.peer.subscribeBatches).toEqual([[...addresses]]);
      t.peer.push('orderbook.ETH-PERP.1.10', book(round));
      await until(() => seen.get('orderbook.ETH-PERP.1.10')!.length === round);
    }
    expect(seen.get('orderbook.ETH-PERP.1.10')).toEqual([1, 2, 3, 4, 5]);
    expect(t.states.filter((s) => s === 'reconnecting')).toHaveLength(5);
    expect(t.client.pendingCount).toBe(0);
  });

  it('falls back one by one when the batch is refused', async () => {
    await t.make().connect();
    await t.client.subscribe('orderbook.ETH-PERP.1.10', () => {});
    await t.client.subscribe('trades.ETH-PERP', () => {});
    t.peer.refuseBatches = true;
    t.peer.subscribeBatches.length = 0;
    t.peer.drop();
    await until(() => t.client.state === 'reconnecting');
    await until(() => t.client.state === 'open');
    expect(t.peer.subscribeBatches).toEqual([
      ['orderbook.ETH-PERP.1.10', 'trades.ETH-PERP'],
      ['orderbook.ETH-PERP.1.10'],
      ['trades.ETH-PERP'],
    ]);
  });

  it('a connection-limit frame becomes a ConnectionLimitError and a longer back-off', async () => {
    await t
      .make({ reconnect: { initialDelayMs: 10, maxDelayMs: 50, connectionLimitDelayMs: 400, jitter: 0 } })
      .connect();
    const delays: number[] = [];
    t.client.on('reconnect', (r) => delays.push(r.delayMs));
    const ws = [...t.peer.sockets][0]!;
    ws.send('connectionLimitExceeded: too many connections from 127.0.0.1');
    ws.close(1008);
    await until(() => delays.length === 1);
    const limit = t.errors.find((e) => e instanceof ConnectionLimitError)!;
    expect([limit.code, limit.rpcCode]).toEqual(['CONNECTION_LIMIT', -32100]);
    expect(delays[0]).toBeGreaterThanOrEqual(400);
    await until(() => t.client.state === 'open', 5000);
  });
});

describe('connection acceptance', () => {
  it('connect() rejects with the ConnectionLimitError when the server refuses the new socket', async () => {
    t.peer.refuseConnections =
      'connectionLimitExceeded: {"code":-32100,"message":"Number of concurrent websocket clients limit exceeded"}';
    t.make();
    // A call made while connecting fails with it, rather than wait.
    let call: Promise<unknown> | null = null;
    t.client.on(
      'state',
      (s) => s === 'connecting' && (call = t.client.call('public/getRateLimits', {}).catch((e) => e)),
    );
    const err = await t.client.connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionLimitError);
    expect([err.code, err.rpcCode]).toEqual(['CONNECTION_LIMIT', -32100]);
    expect(await call).toBe(err);
    expect(t.states).not.toContain('open');
    expect(t.client.state).toBe('closed');
  });

  it('while reconnecting, a refused socket is not reported open; the next accepted one is', async () => {
    await t
      .make({ reconnect: { initialDelayMs: 10, maxDelayMs: 20, connectionLimitDelayMs: 30, jitter: 0 } })
      .connect();
    t.peer.refuseConnections = 'connectionLimitExceeded: too many';
    t.states.length = 0;
    t.peer.drop();
    await until(() => t.peer.refused >= 2, 5000, 'two refused attempts');
    expect(t.states).toEqual(['reconnecting']);
    t.peer.refuseConnections = null;
    await until(() => t.client.state === 'open', 5000, 'open again');
    expect(t.states).toEqual(['reconnecting', 'open']);
    expect((await t.client.call('public/getRateLimits', {})).remaining_matching).toBeDefined();
  });

  it('a socket constructor that throws during a reconnect: reported, and the next attempt follows', async () => {
    const Real = (await import('ws')).default;
    let made = 0;
    const Flaky = function (this: unknown, url: string) {
      if (++made === 2) throw new Error('constructor refused');
      return new Real(url);
    } as unknown as WebSocketConstructor;
    await t.make({ WebSocket: Flaky }).connect();
    t.peer.drop();
    await until(() => made >= 3 && t.client.state === 'open', 5000, 'open after the throwing constructor');
    expect(t.errors.filter((e) => e.code === 'CONNECT_FAILED').map((e) => e.message)).toEqual([
      expect.stringContaining('constructor refused'),
    ]);
  });
});

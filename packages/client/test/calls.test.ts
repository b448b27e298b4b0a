/**
 * Calls over WebSocket (typed answers, timeouts, aborts, drops, error classes) and wire faults reported, not
 * thrown.
 */
import { describe, expect, it } from 'vitest';
import {
  createClient,
  AbortedError,
  ConnectionClosedError,
  ProtocolError,
  RateLimitError,
  TimeoutError,
  AuthError,
  ConnectError,
} from '../src/index';
import { startPeer, until } from './peer';
import { useClientHarness } from './harness';

const t = useClientHarness();

describe('calls over WebSocket', () => {
  it('sends a JSON-RPC request and resolves with the result', async () => {
    await t.make().connect();
    expect(t.states).toEqual(['connecting', 'open']);
    const r = await t.client.call('public/getRateLimits', {});
    expect(r.remaining_matching.remainingPoints).toBe(5);
    const req = t.peer.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'public/getRateLimits', params: {} });
    expect(t.client.pendingCount).toBe(0);
  });

  it('times out with a TimeoutError and leaves nothing pending', async () => {
    await t.make().connect();
    t.peer.answer = () => undefined;
    const err = await t.client.call('public/get_all_live_instruments', {}, { timeoutMs: 100 }).catch((e) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.code).toBe('TIMEOUT');
    expect(t.client.pendingCount).toBe(0);
  });

  it('aborts with an AbortedError', async () => {
    await t.make().connect();
    t.peer.answer = () => undefined;
    const ctl = new AbortController();
    const p = t.client.call('public/get_all_live_instruments', {}, { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 20);
    const err = await p.catch((e) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.code).toBe('ABORTED');
    expect(t.client.pendingCount).toBe(0);
  });

  it('fails every pending call at once when the connection drops', async () => {
    await t.make({ reconnect: false }).connect();
    t.peer.answer = () => undefined;
    // A call's own timeout (an hour) cannot be what ends these: only the drop can, or the test's bound.
    const calls = [1, 2, 3].map(() =>
      t.client.call('public/get_all_live_instruments', {}, { timeoutMs: 3_600_000 }).catch((e) => e),
    );
    await until(() => t.peer.requests.length >= 3);
    t.peer.drop();
    const results = await Promise.all(calls);
    for (const r of results) {
      expect(r).toBeInstanceOf(ConnectionClosedError);
      expect(r.code).toBe('CONNECTION_CLOSED');
    }
    expect(t.client.pendingCount).toBe(0);
    expect(t.client.state).toBe('closed');
  });

  it('turns error answers into classes from the error table', async () => {
    await t.make().connect();
    t.peer.answer = (req) =>
      req.method === 'public/get_all_live_instruments'
        ? { error: { code: -32000, message: 'Rate limit exceeded', data: 'Retry after 1234 ms' } }
        : { error: { code: 14000, message: 'Authentication required' } };
    const rl = await t.client.call('public/get_all_live_instruments', {}).catch((e) => e);
    expect(rl).toBeInstanceOf(RateLimitError);
    expect([rl.code, rl.rpcCode, rl.retryAfterMs]).toEqual(['RATE_LIMITED', -32000, 1234]);
    const auth = await t.client.call('private/cancel_all', { subaccount_id: 1 }).catch((e) => e);
    expect(auth).toBeInstanceOf(AuthError);
    expect([auth.code, auth.rpcCode]).toEqual(['AUTH_REQUIRED', 14000]);
  });

  it('refuses a method on a transport the tables do not list', async () => {
    await t.make().connect();
    const err = await t.client.call('public/login', {} as never, { transport: 'http' }).catch((e) => e);
    expect(err.code).toBe('USAGE');
  });

  it('rejects connect with a ConnectError when nothing listens', async () => {
    const url = t.peer.url;
    await t.peer.close();
    const c = createClient({ wsUrl: url, reconnect: false });
    const err = await c.connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect(c.state).toBe('closed');
    t.peer = await startPeer();
  });
});

describe('faults on the wire are reported, not thrown', () => {
  it('garbage, unknown ids, unknown channels and binary frames', async () => {
    await t.make().connect();
    const ws = [...t.peer.sockets][0]!;
    ws.send('this is not json {');
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 987654, result: 1 }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel: 'trades.NOPE', data: [] } }));
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await until(() => t.errors.length >= 4);
    expect(t.errors.map((e) => (e as ProtocolError).fault)).toEqual([
      'garbage',
      'unknown-id',
      'unknown-channel',
      'binary',
    ]);
    expect(t.errors.every((e) => e.code === 'PROTOCOL')).toBe(true);
    const r = await t.client.call('public/getRateLimits', {});
    expect(r.remaining_non_matching.remainingPoints).toBe(25);
  });
});

/**
 * The client driven by another API's tables (`api` option), as a generated SDK drives it: calls of
 * that API's methods, streams of its channels, no call of this interface's own methods on connect;
 * with the limiter on, none of this interface's budgets or error codes apply to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createClient,
  RateLimitError,
  RpcError,
  UsageError,
  type ApiTables,
  type WebSocketConstructor,
} from '../src/index';
import { startPeer, until, type Peer } from './peer';

/** A small weather API: one method, one parameterised channel. */
const weather: ApiTables = {
  methods: [{ name: 'getStation', transports: ['ws'], httpPath: null, auth: 'none' }],
  channels: [
    {
      id: 'readings',
      address: 'readings.{region}.{unit}',
      parameters: [
        { name: 'region', enum: null },
        { name: 'unit', enum: ['celsius', 'fahrenheit'] },
      ],
    },
  ],
};

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

const clientOf = (p: Peer, api?: ApiTables) =>
  createClient({
    wsUrl: p.url,
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    validate: 'off',
    timeoutMs: 3000,
    ...(api ? { api } : {}),
  });

describe("the client with another API's tables", () => {
  it("calls that API's methods and streams its channels; sends none of this interface's methods on connect", async () => {
    peer = await startPeer();
    peer.answer = (req) =>
      req.method === 'getStation' ? { result: { station_id: req.params.station_id, name: 'Harbour mast' } } : undefined;
    const client = clientOf(peer, weather);
    await client.connect();
    const call = client.call.bind(client) as unknown as (method: string, params: unknown) => Promise<unknown>;
    expect(await call('getStation', { station_id: 'ST-7' })).toEqual({ station_id: 'ST-7', name: 'Harbour mast' });
    const stream = client.stream('readings.north.celsius' as never);
    const first = (stream as AsyncIterator<unknown>).next();
    await until(() => peer!.subscribeBatches.length === 1, 3000, 'the subscribe');
    peer.push('readings.north.celsius', [{ station_id: 'ST-7', temperature: 17.5 }]);
    expect((await first).value).toEqual([{ station_id: 'ST-7', temperature: 17.5 }]);
    await client.close();
    expect(peer.requests.map((r) => r.method)).toEqual(['getStation', 'subscribe']);
  });

  it("refuses what is not in that API's tables: this interface's own methods, and addresses of no channel", async () => {
    peer = await startPeer();
    const client = clientOf(peer, weather);
    const call = client.call.bind(client) as unknown as (method: string, params: unknown) => Promise<unknown>;
    await expect(call('public/getRateLimits', {})).rejects.toBeInstanceOf(UsageError);
    await expect(client.subscribe('orderbook.ETH-PERP.1.10', () => {})).rejects.toThrow(
      /matches no channel of the API/,
    );
    // Without the option, the same client knows this interface's methods and not the weather API's.
    const ours = clientOf(peer);
    await expect((ours.call.bind(ours) as unknown as typeof call)('getStation', {})).rejects.toThrow(
      /unknown method getStation/,
    );
  });

  it("an API without limits or error table: not throttled by this interface's budgets, -32000 a plain RpcError", async () => {
    peer = await startPeer();
    peer.answer = (req) =>
      req.params.station_id === 'busy'
        ? { error: { code: -32000, message: 'Rate limit exceeded', data: 'Retry after 60000 ms' } }
        : { result: { station_id: req.params.station_id, name: 'Harbour mast' } };
    const client = clientOf(peer, weather);
    await client.connect();
    const call = client.call.bind(client) as unknown as (method: string, params: unknown) => Promise<unknown>;
    // 30 at once: more than this interface's public budget (25 per 5 s) holds.
    await Promise.all(Array.from({ length: 30 }, (_, i) => call('getStation', { station_id: `ST-${i}` })));
    expect(peer.requests).toHaveLength(30);
    const busy = await call('getStation', { station_id: 'busy' }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(RpcError);
    expect(busy).not.toBeInstanceOf(RateLimitError);
    // No hold either: the next call goes at once.
    await call('getStation', { station_id: 'ST-7' });
    expect(client.limiter?.waiting).toBe(0);
    await client.close();
  });
});

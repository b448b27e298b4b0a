/**
 * The core driven by another API's tables and typed by its maps (createApiClient), as a generated SDK
 * drives it: calls of that API's methods, streams of its channels, no call of this interface's own
 * methods on connect; with the limiter on, none of this interface's budgets or error codes apply to it.
 * No cast: the method and channel maps type the calls and payloads.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import WebSocket from 'ws';
import {
  createApiClient,
  createClient,
  RateLimitError,
  RpcError,
  UsageError,
  type ApiTables,
  type ChannelMap,
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

/** The weather API's method map, as its generated code would declare it. */
interface WeatherMethods {
  getStation: { assumedParams: { station_id: string }; assumedResult: { station_id: string; name: string } };
}
interface Reading {
  station_id: string;
  temperature: number;
}
/** Its channel map: one parameterised channel of readings. */
interface WeatherChannels extends ChannelMap {
  readonly address: `readings.${string}.${'celsius' | 'fahrenheit'}`;
  readonly payload: this['at'] extends `readings.${string}` ? Reading[] : never;
}

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

const options = (p: Peer) => ({
  wsUrl: p.url,
  WebSocket: WebSocket as unknown as WebSocketConstructor,
  validate: 'off' as const,
  timeoutMs: 3000,
});
const clientOf = (p: Peer) => createApiClient<WeatherMethods, WeatherChannels>({ ...options(p), api: weather });

describe("the client with another API's tables", () => {
  it(
    "calls that API's methods and streams its channels; sends none of this interface's " + 'methods on connect',
    async () => {
      peer = await startPeer();
      peer.answer = (req) =>
        req.method === 'getStation'
          ? { result: { station_id: req.params.station_id, name: 'Harbour mast' } }
          : undefined;
      const client = clientOf(peer);
      await client.connect();
      const station: { name: string } = await client.call('getStation', { station_id: 'ST-7' });
      expect(station).toEqual({ station_id: 'ST-7', name: 'Harbour mast' });
      // The map types the names: only the weather API's method (checked by the type-check of the tests).
      expectTypeOf(client.call<'getStation'>)
        .parameter(0)
        .toEqualTypeOf<'getStation'>();
      expectTypeOf<Parameters<typeof client.call>[0]>().toEqualTypeOf<'getStation'>();
      const stream = client.stream('readings.north.celsius');
      const first = stream.next();
      await until(() => peer!.subscribeBatches.length === 1, 3000, 'the subscribe');
      peer.push('readings.north.celsius', [{ station_id: 'ST-7', temperature: 17.5 }]);
      const readings: Reading[] | undefined = (await first).value;
      expect(readings).toEqual([{ station_id: 'ST-7', temperature: 17.5 }]);
      await client.close();
      expect(peer.requests.map((r) => r.method)).toEqual(['getStation', 'subscribe']);
    },
  );

  it(
    "refuses what is not in that API's tables: this interface's own methods, " + 'and addresses of no channel',
    async () => {
      peer = await startPeer();
      // Untyped (the default maps), so that names the tables lack reach the run-time checks.
      const client = createApiClient({ ...options(peer), api: weather });
      await expect(client.call('public/getRateLimits', {})).rejects.toBeInstanceOf(UsageError);
      await expect(client.subscribe('orderbook.ETH-PERP.1.10', () => {})).rejects.toThrow(
        /matches no channel of the API/,
      );
      // This interface's client knows its methods and not the weather API's.
      const ours = createClient(options(peer));
      await expect(ours.call('getStation' as 'public/get_time', {})).rejects.toThrow(/unknown method getStation/);
    },
  );

  it(
    "an API without limits or error table: not throttled by this interface's " + 'budgets, -32000 a plain RpcError',
    async () => {
      peer = await startPeer();
      peer.answer = (req) =>
        req.params.station_id === 'busy'
          ? { error: { code: -32000, message: 'Rate limit exceeded', data: 'Retry after 60000 ms' } }
          : { result: { station_id: req.params.station_id, name: 'Harbour mast' } };
      const client = clientOf(peer);
      await client.connect();
      const call = (method: 'getStation', params: { station_id: string }) => client.call(method, params);
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
    },
  );
});

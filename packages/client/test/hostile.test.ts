/**
 * The client against hostile servers (black hole, silent peer, garbage, echo): every connection
 * attempt is bounded by `timeoutMs`, and a connection that never answered is never reported open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createClient,
  ConnectError,
  type ClientError,
  type ConnectionState,
  type ExchangeClient,
  type WebSocketConstructor,
} from '../src/index';
import {
  startBlackHole,
  startEchoPeer,
  startGarbagePeer,
  startSilentPeer,
  type HostileServer,
} from './hostile-servers';
import { startPeer, until, type Peer } from './peer';

const TIMEOUT_MS = 300;
const servers: Array<HostileServer | Peer> = [];
const clients: ExchangeClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve<S extends HostileServer | Peer>(server: Promise<S>): Promise<S> {
  const s = await server;
  servers.push(s);
  return s;
}

/** A client that records its states and errors. */
function watched(options: Parameters<typeof createClient>[0]) {
  const client = createClient(options);
  clients.push(client);
  const states: ConnectionState[] = [];
  const errors: ClientError[] = [];
  client.on('state', (s) => states.push(s));
  client.on('error', (e) => errors.push(e));
  return { client, states, errors };
}

// A peer that completes the handshake gets a longer bound: the reason asserted is the first request's,
// and on a busy machine a loopback handshake once took longer than 300 ms (the error then named the
// handshake, rightly, and the test failed).
const ANSWERING_TIMEOUT_MS = 2_000;
const hostile = [
  ['a black hole (TCP accepted, no WebSocket handshake)', startBlackHole, /handshake did not complete/, TIMEOUT_MS],
  [
    'a silent peer (handshake, then nothing)',
    startSilentPeer,
    /did not answer the first request/,
    ANSWERING_TIMEOUT_MS,
  ],
  ['a garbage-only peer', startGarbagePeer, /did not answer the first request/, ANSWERING_TIMEOUT_MS],
  ['an echo peer', startEchoPeer, /did not answer the first request/, ANSWERING_TIMEOUT_MS],
] as const;

describe('connect() against a server that never answers', () => {
  for (const [name, start, reason, timeoutMs] of hostile) {
    it(`${name}: rejects with ConnectError within timeoutMs and never reports open`, async () => {
      const server = await serve(start());
      // Validation off: loading the validators is not what is timed here.
      const { client, states } = watched({
        wsUrl: server.url,
        timeoutMs,
        reconnect: false,
        validate: 'off',
      });
      // A call made while connecting fails with the connection's error rather than wait.
      let call: Promise<unknown> | null = null;
      client.on(
        'state',
        (s) =>
          s === 'connecting' && (call = client.call('public/getRateLimits', {}, { timeoutMs: 60_000 }).catch((e) => e)),
      );
      const t0 = Date.now();
      const err = await client.connect().then(
        () => new Error('connect() resolved'),
        (e: unknown) => e,
      );
      const elapsed = Date.now() - t0;
      expect(err).toBeInstanceOf(ConnectError);
      expect((err as ConnectError).code).toBe('CONNECT_FAILED');
      expect((err as Error).message).toMatch(reason);
      // Ended by the timeout, not before it (a hang meets the test's own bound).
      expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 20);
      expect(states).not.toContain('open');
      expect(client.state).toBe('closed');
      expect(await call).toBe(err);
      expect(server.connections).toBe(1);
      expect(client.pendingCount).toBe(0);
    });
  }

  it('what garbage and echoes say is reported as protocol faults, not taken for answers', async () => {
    for (const [start, faults] of [
      [startGarbagePeer, ['garbage', 'bad-frame']],
      [startEchoPeer, ['bad-frame']],
    ] as const) {
      const server = await serve(start());
      const { client, errors } = watched({ wsUrl: server.url, timeoutMs: TIMEOUT_MS, reconnect: false });
      await expect(client.connect()).rejects.toBeInstanceOf(ConnectError);
      expect(server.framesReceived).toBeGreaterThanOrEqual(1);
      expect([...new Set(errors.map((e) => (e as { fault?: string }).fault))]).toEqual(faults);
    }
  });
});

/**
 * A socket constructor whose first socket goes to `first` and every later one to `later`: a server that turns
 * hostile.
 */
function turnsHostile(first: string, later: string): WebSocketConstructor {
  let made = 0;
  return function (this: unknown) {
    return new WebSocket(made++ === 0 ? first : later);
  } as unknown as WebSocketConstructor;
}

describe('reconnect against a server that never answers', () => {
  for (const [name, start] of hostile.slice(0, 2)) {
    it(
      `${name}: every attempt ends at timeoutMs, maxAttempts is reached, the client ` + `closes and its stream ends`,
      async () => {
        const peer = await serve(startPeer());
        const server = await serve(start());
        const { client, states } = watched({
          wsUrl: peer.url,
          WebSocket: turnsHostile(peer.url, server.url),
          timeoutMs: TIMEOUT_MS,
          reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 3 },
        });
        const attempts: number[] = [];
        client.on('reconnect', (r) => attempts.push(r.attempt));
        await client.connect();
        const stream = client.stream('trades.ETH-PERP');
        await stream.ready;
        const read = stream.next().catch((e: unknown) => e);
        peer.drop();
        await until(() => client.state === 'closed', 3 * TIMEOUT_MS + 10_000, 'the client to give up');
        expect(attempts).toEqual([1, 2, 3]);
        expect(server.connections).toBe(3);
        expect(states).toEqual(['connecting', 'open', 'reconnecting', 'closed']);
        const err = await read;
        expect(err).toBeInstanceOf(ConnectError);
        expect((err as Error).message).toMatch(/gave up after 3 reconnect attempts/);
      },
    );
  }
});

/**
 * SDKs generated (`generate --out`) for five public WebSocket specs that are not JSON-RPC
 * (test/sdk/fixtures/public/: Kraken twice, Gemini, Slack RTM, Postman echo), each against a small
 * server written here from its spec on loopback port 0: the client sends, requests (the reply matched
 * by its correlation id, or without one the next fitting frame) and streams by the spec's own operation
 * ids, on the URL the spec's address gives; what fits no operation, and what fails its schema, is
 * reported (issue 33, item 1).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { generateInto } from '@exchange-api/codegen';
import { ProtocolError, TimeoutError, type ClientError, type ValidationReport } from '@exchange-api/client';

const repoRoot = join(import.meta.dirname, '..', '..');
const SPECS = ['kraken-message-filter', 'kraken-multiple-channels', 'gemini', 'slack-rtm', 'postman-echo'] as const;
type SpecName = (typeof SPECS)[number];

interface Stream extends AsyncIterableIterator<unknown> {
  opened: Promise<void>;
}
/** The generated client, as these tests use it (its own types are checked by the type-check test below). */
interface Client {
  on(event: 'error', fn: (e: ClientError) => void): () => void;
  on(event: 'validation', fn: (r: ValidationReport) => void): () => void;
  send(op: string, payload: unknown, o?: object): Promise<void>;
  request(op: string, payload: unknown, o?: object): Promise<unknown>;
  stream(op: string, o?: object): Stream;
  ops: Record<string, (...args: unknown[]) => unknown>;
  close(): Promise<void>;
}
interface Sdk {
  createClient(options: { url: string; timeoutMs?: number; validate?: 'off' | 'warn' | 'strict' }): Client;
}

/** A server written from a spec: `onConnection` gets each socket, its path and the frames' handler. */
interface Server {
  url: string;
  /** Paths (with query) clients connected on. */
  paths: string[];
  close(): Promise<void>;
}

const servers: Server[] = [];
const clients: Client[] = [];

async function serve(
  onConnection: (ws: WebSocket, path: string, send: (v: unknown) => void) => void,
  pathname = '',
): Promise<Server> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const server: Server = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}${pathname}`,
    paths: [],
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      return new Promise((r) => wss.close(() => r()));
    },
  };
  wss.on('connection', (ws, req) => {
    server.paths.push(req.url ?? '');
    onConnection(ws, req.url ?? '', (v) => ws.send(JSON.stringify(v)));
  });
  servers.push(server);
  return server;
}

const sdks = {} as Record<SpecName, Sdk>;
let out: string;

beforeAll(async () => {
  // Inside the repository, so that the SDK's imports of @exchange-api/* resolve to the workspace's sources.
  mkdirSync(join(repoRoot, 'test-output', 'sdk'), { recursive: true });
  out = mkdtempSync(join(repoRoot, 'test-output', 'sdk', 'public-'));
  for (const name of SPECS) {
    const spec = join(import.meta.dirname, 'fixtures', 'public', `${name}.asyncapi.yaml`);
    await generateInto(spec, join(out, name), { check: false });
    sdks[name] = (await import(pathToFileURL(join(out, name, 'src', 'index.ts')).href)) as Sdk;
  }
}, 240_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function client(
  name: SpecName,
  url: string,
  options: { timeoutMs?: number; validate?: 'off' | 'warn' | 'strict' } = {},
) {
  const c = sdks[name].createClient({ url, timeoutMs: 5_000, ...options });
  clients.push(c);
  return c;
}

/** The next `n` items of a stream (which then stops, as leaving a for-await loop does). */
async function take(stream: AsyncIterableIterator<unknown>, n: number): Promise<unknown[]> {
  const got: unknown[] = [];
  for await (const item of stream) {
    got.push(item);
    if (got.length === n) break;
  }
  return got;
}

/** Resolves with the first event of `event` the client reports. */
const nextEvent = <E extends 'error' | 'validation'>(c: Client, event: E) =>
  new Promise<E extends 'error' ? ClientError : ValidationReport>((resolve) => {
    const off = c.on(event as 'error', (v) => (off(), resolve(v as never)));
  });

/** Kraken's server, as both Kraken specs describe it: status on connect, pong, subscriptionStatus, heartbeats. */
function krakenServer(
  options: { wrongReqidFirst?: boolean; silent?: boolean; badStatus?: boolean; unknown?: boolean } = {},
) {
  return serve((ws, _path, send) => {
    if (options.unknown) send({ event: 'bookSnapshot', asks: [] });
    send({ event: 'systemStatus', connectionID: 7, status: options.badStatus ? 'sleeping' : 'online', version: '1.9' });
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { event: string; reqid?: number; pair?: string[] };
      if (options.silent) return;
      if (m.event === 'ping') send({ event: 'pong', reqid: m.reqid });
      if (m.event === 'subscribe') {
        const status = (reqid: unknown) => ({
          event: 'subscriptionStatus',
          reqid,
          channelID: 42,
          channelName: 'ticker',
          pair: m.pair,
          status: 'online',
          subscription: { name: 'ticker' },
        });
        if (options.wrongReqidFirst) send(status(Number(m.reqid) + 1000));
        send(status(m.reqid));
        send({ event: 'heartbeat' });
        send({ event: 'heartbeat' });
      }
    });
  });
}

describe('Kraken: requests matched by reqid, events told apart by `event`', () => {
  for (const [name, subscribe, heartbeat, ping] of [
    ['kraken-message-filter', 'receiveSubscribeRequest', 'sendHeartbeat', 'receivePing'],
    ['kraken-multiple-channels', 'subscribe', 'heartbeat', 'receivePing'],
  ] as const) {
    it(
      `${name}: request fills reqid and resolves with the reply; stream yields ` + `heartbeats; ping gets its pong`,
      async () => {
        const server = await krakenServer();
        const c = client(name, server.url);
        const beats = c.stream(heartbeat);
        await beats.opened;
        const reply = await c.request(subscribe, {
          event: 'subscribe',
          pair: ['XBT/USD'],
          subscription: { name: 'ticker' },
        });
        expect(reply).toMatchObject({ event: 'subscriptionStatus', reqid: 1, channelID: 42 });
        expect(await take(beats, 2)).toEqual([{ event: 'heartbeat' }, { event: 'heartbeat' }]);
        expect(await c.request(ping, { event: 'ping', reqid: 99 })).toEqual({ event: 'pong', reqid: 99 });
        // Every channel is at `/`: one socket, on the server's path plus the address.
        expect(server.paths).toEqual(['/']);
      },
    );
  }

  it('a reply with another reqid arriving first is not taken, and is reported as unasked', async () => {
    const server = await krakenServer({ wrongReqidFirst: true });
    const c = client('kraken-message-filter', server.url);
    const unasked = nextEvent(c, 'error');
    const reply = await c.request('receiveSubscribeRequest', {
      event: 'subscribe',
      reqid: 5,
      subscription: { name: 'ticker' },
    });
    expect(reply).toMatchObject({ reqid: 5 });
    const err = await unasked;
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).fault).toBe('unasked');
    expect((err as ProtocolError).frame).toContain('"reqid":1005');
  });

  it('no reply within the bound: TimeoutError naming the operation', async () => {
    const server = await krakenServer({ silent: true });
    const c = client('kraken-message-filter', server.url, { timeoutMs: 300 });
    const err = await c.request('receivePing', { event: 'ping' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).method).toBe('receivePing');
  });

  it('a systemStatus its schema refuses: a validation event, dropped in strict, delivered in warn', async () => {
    for (const mode of ['strict', 'warn'] as const) {
      const server = await krakenServer({ badStatus: true });
      const c = client('kraken-message-filter', server.url, { validate: mode });
      const report = nextEvent(c, 'validation');
      const status = c.stream('systemStatus');
      const r = await report;
      expect(r).toMatchObject({ target: 'systemStatus', dropped: mode === 'strict' });
      expect(r.failures.map((f) => f.pointer)).toContain('/status');
      if (mode === 'warn') expect(await take(status, 1)).toMatchObject([{ status: 'sleeping' }]);
    }
  });

  it(
    'a message of no receive operation there is an error event (PROTOCOL, unasked), ' + 'never handed to a stream',
    async () => {
      const server = await krakenServer({ unknown: true });
      const c = client('kraken-message-filter', server.url);
      const unasked = nextEvent(c, 'error');
      const status = c.stream('systemStatus');
      const err = (await unasked) as ProtocolError;
      expect([err.code, err.fault]).toEqual(['PROTOCOL', 'unasked']);
      expect(err.frame).toBe('{"event":"bookSnapshot","asks":[]}');
      expect(await take(status, 1)).toMatchObject([{ event: 'systemStatus' }]);
    },
  );
});

describe('Gemini: an address with a parameter and a query, pushed on connect', () => {
  it(
    'stream(op, { params, query }) connects to /v1/marketdata/<symbol>?… and ' + 'yields updates and heartbeats',
    async () => {
      const update = {
        type: 'update',
        eventId: 36902233362,
        timestamp: 1619769673,
        timestampms: 1619769673527,
        socket_sequence: 661,
        events: [{ type: 'change', side: 'bid', price: 54350.4, remaining: 0.002, delta: 0.002, reason: 'place' }],
      };
      const server = await serve((_ws, _path, send) => {
        send(update);
        send({ type: 'heartbeat', socket_sequence: 662 });
      });
      const c = client('gemini', server.url, { validate: 'strict' });
      const invalid: ValidationReport[] = [];
      c.on('validation', (r) => invalid.push(r));
      const market = c.stream('sendMarketData', {
        params: { symbol: 'btcusd' },
        query: { heartbeat: true, trades: false },
      });
      expect(await take(market, 2)).toEqual([update, { type: 'heartbeat', socket_sequence: 662 }]);
      expect(server.paths).toEqual(['/v1/marketdata/btcusd?heartbeat=true&trades=false']);
      expect(invalid).toEqual([]);
    },
  );

  it('a missing address parameter is a usage error, thrown at once', async () => {
    const c = client('gemini', 'ws://127.0.0.1:1');
    expect(() => c.stream('sendMarketData')).toThrow(/address parameter symbol is missing/);
  });
});

describe('Slack RTM: one message sent, many event types received', () => {
  it(
    'hello on connect, then the message event for what the client sent; other ' + 'event types stay out of the stream',
    async () => {
      const server = await serve((ws, _path, send) => {
        send({ type: 'hello' });
        ws.on('message', (raw) => {
          const m = JSON.parse(String(raw)) as { channel: string; text: string };
          send({ type: 'channel_joined', channel: { id: m.channel } });
          send({ type: 'message', channel: m.channel, text: m.text, user: 'U1', ts: '1.0' });
        });
      });
      const c = client('slack-rtm', server.url);
      const events = c.stream('sendMessages');
      // next(), not a loop: leaving a for-await loop stops the stream.
      expect((await events.next()).value).toEqual({ type: 'hello' });
      await c.send('receiveOutgoingMessage', { id: 1, type: 'message', channel: 'C1', text: 'hi' });
      const [joined, message] = await take(events, 2);
      expect(joined).toMatchObject({ type: 'channel_joined' });
      expect(message).toEqual({ type: 'message', channel: 'C1', text: 'hi', user: 'U1', ts: '1.0' });
    },
  );
});

describe('Postman echo: a pathname, and a reply without a correlation id', () => {
  it(
    'the reply is the next frame that fits it, exactly as sent; the URL keeps ' + 'the server path (/raw + / → /raw/)',
    async () => {
      const server = await serve((ws) => ws.on('message', (raw) => ws.send(String(raw))), '/raw');
      const c = client('postman-echo', server.url);
      expect(await c.request('sendEchoMessage', { test: 'test text' })).toEqual({ test: 'test text' });
      expect(await c.request('sendEchoMessage', 'test')).toBe('test');
      expect(await c.ops.sendEchoMessage!([1, 2.5, null])).toEqual([1, 2.5, null]);
      expect(server.paths).toEqual(['/raw/']);
    },
  );
});

describe('exchange-api mock: each spec served, and the generated client against it (strict validation)', () => {
  /** A mock of a fixture, started in process as the command starts it (startMock over the generator's model). */
  async function mockOf(name: SpecName, seed = 1) {
    const { lenientModelFromSpec } = await import('@exchange-api/codegen');
    const { startMock } = await import('@exchange-api/mock');
    const spec = join(import.meta.dirname, 'fixtures', 'public', `${name}.asyncapi.yaml`);
    const { model } = await lenientModelFromSpec(spec);
    const mock = await startMock({ model, seed, pushIntervalMs: 50 });
    servers.push({ url: mock.url, paths: [], close: () => mock.close() });
    return mock;
  }

  /** A strict client of the mock that records every event: none is expected. */
  function strictClient(name: SpecName, url: string) {
    const c = client(name, url, { validate: 'strict' });
    const events: unknown[] = [];
    c.on('validation', (r) => events.push(r));
    c.on('error', (e) => events.push(e));
    return { c, events };
  }

  it(
    'Kraken (both): requests get their reply, reqid copied; heartbeats and statuses ' + 'are pushed, all valid',
    async () => {
      for (const [name, subscribe, heartbeat] of [
        ['kraken-message-filter', 'receiveSubscribeRequest', 'sendHeartbeat'],
        ['kraken-multiple-channels', 'subscribe', 'heartbeat'],
      ] as const) {
        const mock = await mockOf(name);
        const { c, events } = strictClient(name, mock.url);
        const beats = c.stream(heartbeat);
        const reply = await c.request(subscribe, { event: 'subscribe', reqid: 77, subscription: { name: 'ticker' } });
        expect(reply).toMatchObject({ reqid: 77 });
        expect(await c.request('receivePing', { event: 'ping', reqid: 3 })).toMatchObject({ event: 'pong', reqid: 3 });
        expect(await take(beats, 2)).toEqual([{ event: 'heartbeat' }, { event: 'heartbeat' }]);
        expect(events).toEqual([]);
      }
    },
  );

  it(
    'Gemini: market data pushed at /v1/marketdata/<symbol>, the first at once; ' + 'Slack: its events; all valid',
    async () => {
      const gemini = await mockOf('gemini');
      const g = strictClient('gemini', gemini.url);
      const market = await take(g.c.stream('sendMarketData', { params: { symbol: 'ethusd' } }), 3);
      expect(market.map((m) => (m as { type: string }).type).every((t) => t === 'update' || t === 'heartbeat')).toBe(
        true,
      );
      const slack = await mockOf('slack-rtm');
      const s = strictClient('slack-rtm', slack.url);
      const events = await take(s.c.stream('sendMessages'), 3);
      expect(events).toHaveLength(3);
      expect([...g.events, ...s.events].map(String)).toEqual([]);
    },
  );

  it('Postman echo: a reply to each request; the same seed gives the same messages', async () => {
    const replies = [];
    for (const seed of [5, 5]) {
      const mock = await mockOf('postman-echo', seed);
      const { c, events } = strictClient('postman-echo', mock.url);
      replies.push(await c.request('sendEchoMessage', { hello: 1 }));
      expect(events).toEqual([]);
    }
    expect(replies[0]).toEqual(replies[1]);
  });

  it('refuses by name: a path that is no channel (404), a message no operation takes (close 1008)', async () => {
    const mock = await mockOf('gemini');
    const { WebSocket: Ws } = await import('ws');
    const status = await new Promise<number>((resolve) => {
      const ws = new Ws(`${mock.url}/v2/nothing`);
      ws.on('unexpected-response', (_req, res) => (resolve(res.statusCode ?? 0), ws.terminate()));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(404);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = new Ws(`${mock.url}/v1/marketdata/btcusd`);
      ws.on('open', () => ws.send(JSON.stringify({ hello: 'there' })));
      ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
    });
    expect(closed).toEqual({ code: 1008, reason: 'no send operation of this channel takes this message' });
  });
});

describe('the generated SDK types and README', () => {
  it("each README's example type-checks against its SDK; a wrong operation, payload or parameter does not", () => {
    writeFileSync(
      join(out, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          // No source condition: the SDK's imports of @exchange-api/* resolve to the built types a user
          // gets (the e2e task runs after every build), which skipLibCheck leaves unchecked. Against the
          // sources, the client's own files were checked again here (3.5 s more of CPU); npm test's one
          // type-check of the repository checks them.
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          lib: ['ES2023', 'DOM'],
        },
        include: ['*/src/*.ts'],
      }),
    );
    for (const name of SPECS) {
      const readme = readFileSync(join(out, name, 'README.md'), 'utf8');
      const code = /## Connect, request, stream, send\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
      expect(code, `${name}: the README's example`).toBeDefined();
      writeFileSync(join(out, name, 'src', 'readme-example.ts'), code!.replace(/from '[^']+';/, "from './index';"));
    }
    writeFileSync(
      join(out, 'kraken-message-filter', 'src', 'misuse.ts'),
      [
        "import { createClient } from './index';",
        "const client = createClient({ url: 'ws://127.0.0.1:1' });",
        '// @ts-expect-error no such operation',
        "void client.request('nope', {});",
        '// @ts-expect-error a receive operation is streamed, not requested',
        "void client.request('sendHeartbeat', { event: 'heartbeat' });",
        '// @ts-expect-error the event of a subscribe is its constant',
        "void client.request('receiveSubscribeRequest', { event: 'ping' });",
        "export const reply: Promise<{ event?: 'pong'; reqid?: number }> = client.request('receivePing', " +
          "{ event: 'ping' });",
      ].join('\n'),
    );
    writeFileSync(
      join(out, 'gemini', 'src', 'misuse.ts'),
      [
        "import { createClient } from './index';",
        "const client = createClient({ url: 'ws://127.0.0.1:1' });",
        '// @ts-expect-error not one of the symbols',
        "client.stream('sendMarketData', { params: { symbol: 'nope' } });",
        "client.stream('sendMarketData', { params: { symbol: 'btcusd' }, query: { heartbeat: true } });",
      ].join('\n'),
    );
    const r = spawnSync(join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', out], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);
});

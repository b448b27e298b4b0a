/**
 * The message client's reconnects and the `ws` bindings' headers (issue 33, item 1), through the SDK
 * generated for fixtures/ticker.asyncapi.yaml against a `ws` server on loopback port 0: the headers go
 * with the handshake, one socket per URL and headers; a socket with streams that drops is reopened with
 * back-off, its streams going on, while the requests open at the drop fail; `reconnect: false` lets the
 * drop fail the streams; a server that stays away is given up on after `maxAttempts`; the browser entry
 * refuses headers by name.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { generateInto } from '@exchange-api/codegen';
import { ConnectError, ConnectionClosedError, UsageError } from '@exchange-api/client';

const repoRoot = join(import.meta.dirname, '..', '..');
type Options = { url: string; reconnect?: object | false; timeoutMs?: number; WebSocket?: unknown };
interface Stream extends AsyncIterableIterator<unknown> {
  opened: Promise<void>;
}
interface Client {
  on(event: string, fn: (v: never) => void): () => void;
  request(op: string, payload: unknown, o?: object): Promise<unknown>;
  stream(op: string, o?: object): Stream;
  close(): Promise<void>;
}
let sdk: { createClient(o: Options): Client; wireTable: unknown; wireValidators: unknown };
let out: string;

beforeAll(async () => {
  mkdirSync(join(repoRoot, 'test-output', 'sdk'), { recursive: true });
  out = mkdtempSync(join(repoRoot, 'test-output', 'sdk', 'ticker-'));
  await generateInto(join(import.meta.dirname, 'fixtures', 'ticker.asyncapi.yaml'), out, { check: false });
  sdk = (await import(pathToFileURL(join(out, 'src', 'index.ts')).href)) as typeof sdk;
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A ticker server: `onConnection` gets each socket with its handshake's path and headers. */
async function serve(onConnection: (ws: WebSocket, n: number, req: { url: string; key: unknown }) => void) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  let n = 0;
  wss.on('connection', (ws, req) => onConnection(ws, n++, { url: req.url ?? '', key: req.headers['x-api-key'] }));
  const stop = () => {
    for (const ws of wss.clients) ws.terminate();
    return new Promise<void>((r) => wss.close(() => r()));
  };
  closers.push(stop);
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`, stop };
}

function client(options: Options) {
  const c = sdk.createClient({ timeoutMs: 5_000, ...options });
  closers.push(() => c.close());
  return c;
}

const tick = (price: number) => JSON.stringify({ event: 'tick', price });
const nextOf = async (s: Stream) => (await s.next()).value as { price: number };
const once = <T>(c: Client, event: string) => new Promise<T>((resolve) => c.on(event, (v) => resolve(v as T)));

describe('the ws bindings headers', () => {
  it('go with the handshake, beside the query; other headers, another socket', async () => {
    const seen: Array<{ url: string; key: unknown }> = [];
    const server = await serve((ws, _n, req) => (seen.push(req), ws.send(tick(seen.length))));
    const c = client({ url: server.url });
    const address = { params: { pair: 'btcusd' }, query: { depth: 10 } };
    const a = c.stream('ticks', { ...address, headers: { 'X-Api-Key': 'k1' } });
    expect(await nextOf(a)).toEqual({ event: 'tick', price: 1 });
    const b = c.stream('ticks', { ...address, headers: { 'X-Api-Key': 'k2' } });
    expect(await nextOf(b)).toEqual({ event: 'tick', price: 2 });
    expect(seen).toEqual([
      { url: '/ws/ticker/btcusd?depth=10', key: 'k1' },
      { url: '/ws/ticker/btcusd?depth=10', key: 'k2' },
    ]);
  });

  it("are refused by name by the browser entry (a browser's WebSocket cannot send them)", async () => {
    const browser = await import('@exchange-api/client/browser');
    const c = browser.createMessageClient({ table: sdk.wireTable, validators: sdk.wireValidators } as never, {
      url: 'ws://127.0.0.1:1',
      WebSocket: class {} as never,
    });
    const call = () =>
      c.stream('ticks' as never, { params: { pair: 'btcusd' }, headers: { 'X-Api-Key': 'k' } } as never);
    expect(call).toThrow(UsageError);
    expect(call).toThrow("channel ticker: a browser's WebSocket cannot send headers (options.headers)");
  });
});

describe('reconnects', () => {
  it('a dropped socket with a stream is reopened: the stream goes on, the open request fails', async () => {
    // The first connection drops when asked to subscribe; the second answers.
    const server = await serve((ws, n) => {
      ws.send(tick(n));
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw)) as { reqid: number };
        if (n === 0) ws.terminate();
        else ws.send(JSON.stringify({ event: 'subscribed', reqid: m.reqid }));
      });
    });
    const c = client({ url: server.url, reconnect: { initialDelayMs: 10, jitter: 0 } });
    const reconnect = once<{ url: string; attempt: number; delayMs: number }>(c, 'reconnect');
    const reconnected = once<{ url: string; attempts: number }>(c, 'reconnected');
    const ticks = c.stream('ticks', { params: { pair: 'ethusd' } });
    expect(await nextOf(ticks)).toMatchObject({ price: 0 });
    const dropped = await c
      .request('subscribe', { event: 'subscribe' }, { params: { pair: 'ethusd' } })
      .catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(ConnectionClosedError);
    expect(await reconnect).toEqual({ url: `${server.url}/ticker/ethusd`, attempt: 1, delayMs: 10 });
    expect(await nextOf(ticks)).toMatchObject({ price: 1 });
    expect(await reconnected).toEqual({ url: `${server.url}/ticker/ethusd`, attempts: 1 });
    const reply = await c.request('subscribe', { event: 'subscribe' }, { params: { pair: 'ethusd' } });
    expect(reply).toMatchObject({ event: 'subscribed' });
  });

  it('a socket the constructor refuses while reopening is an error event, and the next attempt follows', async () => {
    const server = await serve((ws, n) => (ws.send(tick(n)), n === 0 && ws.terminate()));
    const { WebSocket: Ws } = await import('ws');
    let made = 0;
    // The second socket (the first reopening) is refused by the constructor itself.
    const Flaky = class extends Ws {
      constructor(url: string) {
        if (++made === 2) throw new Error('no sockets left');
        super(url);
      }
    };
    const c = sdk.createClient({ url: server.url, reconnect: { initialDelayMs: 5 }, WebSocket: Flaky } as Options);
    closers.push(() => c.close());
    const refused = once<Error>(c, 'error');
    const ticks = c.stream('ticks', { params: { pair: 'btcusd' } });
    expect(await nextOf(ticks)).toMatchObject({ price: 0 });
    expect(await nextOf(ticks)).toMatchObject({ price: 1 });
    const err = await refused;
    expect(err).toBeInstanceOf(ConnectError);
    expect(err.message).toBe(`${server.url}/ticker/btcusd: no sockets left`);
    expect(made).toBe(3);
  });

  it('reconnect: false: the drop fails the stream', async () => {
    const server = await serve((ws) => (ws.send(tick(1)), ws.terminate()));
    const c = client({ url: server.url, reconnect: false });
    const ticks = c.stream('ticks', { params: { pair: 'btcusd' } });
    expect(await nextOf(ticks)).toMatchObject({ price: 1 });
    const err = await ticks.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionClosedError);
  });

  it('a server that stays away is given up on after maxAttempts: the stream fails with ConnectError', async () => {
    const server = await serve((ws) => ws.send(tick(1)));
    const c = client({ url: server.url, reconnect: { initialDelayMs: 5, maxAttempts: 2 } });
    const attempts: number[] = [];
    c.on('reconnect', (r: { attempt: number }) => attempts.push(r.attempt));
    const ticks = c.stream('ticks', { params: { pair: 'btcusd' } });
    expect(await nextOf(ticks)).toMatchObject({ price: 1 });
    await server.stop();
    const err = await ticks.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as Error).message).toBe(`${server.url}/ticker/btcusd: gave up after 2 reconnect attempts`);
    expect(attempts).toEqual([1, 2]);
  });
});

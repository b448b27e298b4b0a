/**
 * The mock's pushes and its control endpoint (issue 33, item 2; docs/mock.md): where the spec has a
 * subscription message (Kraken's `subscribe`), pushes start when a client sends it, right after its
 * reply, and stop at `unsubscribe`; elsewhere (Gemini) on connect; `--seed` gives the same pushes; the
 * control endpoint (off unless asked for, on 127.0.0.1) pushes a chosen message to the clients at its
 * channel now, and refuses by name what it does not take. Raw `ws` clients: what is on the wire, in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { lenientModelFromSpec } from '@exchange-api/codegen';
import { startMock, type Mock } from '@exchange-api/mock';

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', 'public', `${name}.asyncapi.yaml`);
const mocks: Mock[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

async function mockOf(name: string, options: { seed?: number; pushIntervalMs?: number; control?: boolean } = {}) {
  const { model } = await lenientModelFromSpec(fixture(name));
  const mock = await startMock({ model, pushIntervalMs: 50, ...options });
  mocks.push(mock);
  return mock;
}

type Frame = Record<string, unknown>;
/** A raw client that queues every frame; `next()` resolves with the next one, in order. */
async function connect(url: string) {
  const ws = new WebSocket(url);
  sockets.push(ws);
  const queue: Frame[] = [];
  const waiting: Array<(f: Frame) => void> = [];
  ws.on('message', (raw) => {
    const f = JSON.parse(String(raw)) as Frame;
    const w = waiting.shift();
    if (w) w(f);
    else queue.push(f);
  });
  await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
  const next = () =>
    new Promise<Frame>((resolve) => (queue.length > 0 ? resolve(queue.shift()!) : waiting.push(resolve)));
  /** The frames up to and including the first that `until` accepts. */
  const upTo = async (until: (f: Frame) => boolean) => {
    const got: Frame[] = [];
    for (let f = await next(); ; f = await next()) {
      got.push(f);
      if (until(f)) return got;
    }
  };
  return { send: (v: unknown) => ws.send(JSON.stringify(v)), next, upTo };
}

describe('pushes', () => {
  it('Kraken: none before subscribe; right after its reply, then each interval; none after unsubscribe', async () => {
    const mock = await mockOf('kraken-message-filter');
    const c = await connect(`${mock.url}/`);
    // A push on connect would be on the wire before the reply to the first request.
    c.send({ event: 'ping', reqid: 1 });
    expect(await c.upTo((f) => f.event === 'pong')).toEqual([expect.objectContaining({ event: 'pong', reqid: 1 })]);
    c.send({ event: 'subscribe', reqid: 2, subscription: { name: 'ticker' } });
    const reply = await c.next();
    expect(reply).toMatchObject({ reqid: 2 });
    // The first round at once (one message of each receive operation), then rounds at the interval.
    const rounds = [
      [await c.next(), await c.next()],
      [await c.next(), await c.next()],
    ];
    for (const round of rounds) expect(round.map((f) => f.event).sort()).toEqual(['heartbeat', 'systemStatus']);
    c.send({ event: 'unsubscribe', reqid: 3, subscription: { name: 'ticker' } });
    const untilUnsubscribed = await c.upTo((f) => f.reqid === 3);
    expect(untilUnsubscribed.at(-1)).toMatchObject({ event: 'subscriptionStatus', reqid: 3 });
    // Stopped with the reply: the next frame is the reply to the next request.
    c.send({ event: 'ping', reqid: 4 });
    expect(await c.next()).toMatchObject({ event: 'pong', reqid: 4 });
  });

  it('Gemini (no subscription message): pushed on connect', async () => {
    const mock = await mockOf('gemini');
    const c = await connect(`${mock.url}/v1/marketdata/btcusd`);
    expect(['update', 'heartbeat']).toContain((await c.next()).type);
  });

  it('the same seed gives the same pushes, whatever requests come between; another seed others', async () => {
    const pushes = async (seed: number, pings: number) => {
      const mock = await mockOf('kraken-message-filter', { seed });
      const c = await connect(`${mock.url}/`);
      c.send({ event: 'subscribe', reqid: 1, subscription: { name: 'ticker' } });
      for (let i = 0; i < pings; i++) c.send({ event: 'ping', reqid: 100 + i });
      const frames = await c.upTo((f) => f.event === 'systemStatus');
      return frames.filter((f) => f.event === 'systemStatus');
    };
    const first = await pushes(9, 0);
    expect(await pushes(9, 3)).toEqual(first);
    const slack = async (seed: number) => {
      const mock = await mockOf('slack-rtm', { seed });
      const c = await connect(`${mock.url}/`);
      return [await c.next(), await c.next(), await c.next(), await c.next()];
    };
    const s9 = await slack(9);
    expect(await slack(9)).toEqual(s9);
    expect(await slack(10)).not.toEqual(s9);
  });
});

describe('bad paths', () => {
  it('a path that is no valid URI (a stray %) is refused with 404, and the mock serves on', async () => {
    const mock = await mockOf('gemini');
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${mock.url.replace('ws:', 'http:')}/v1/marketdata/%E0`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('response', (res) => (resolve(res.statusCode ?? 0), res.resume()));
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(404);
    const c = await connect(`${mock.url}/v1/marketdata/btcusd`);
    expect(['update', 'heartbeat']).toContain((await c.next()).type);
  });
});

describe('the control endpoint', () => {
  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${url}/push`, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('is off unless asked for; on 127.0.0.1 when asked for, listing what it can push', async () => {
    expect((await mockOf('gemini')).controlUrl).toBeUndefined();
    const mock = await mockOf('gemini', { control: true });
    expect(mock.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    const listed = (await (await fetch(`${mock.controlUrl}/`)).json()) as unknown;
    expect(listed).toEqual({
      operations: [{ id: 'sendMarketData', channel: 'marketDataV1', messages: ['marketData'] }],
    });
  });

  it('pushes a chosen message now, to the clients at its path only; a drawn one when no payload is given', async () => {
    const mock = await mockOf('gemini', { control: true, pushIntervalMs: 3_600_000 });
    const [a, b, other] = await Promise.all(
      ['btcusd', 'btcusd', 'ethusd'].map((s) => connect(`${mock.url}/v1/marketdata/${s}`)),
    );
    // Each has had its push on connect; the next push would be an hour away.
    await Promise.all([a!.next(), b!.next(), other!.next()]);
    const beat = { type: 'heartbeat', socket_sequence: 77 };
    const r = await post(mock.controlUrl!, {
      operation: 'sendMarketData',
      payload: beat,
      path: '/v1/marketdata/btcusd',
    });
    expect(r).toEqual({ status: 200, body: { pushed: 2, payload: beat } });
    expect([await a!.next(), await b!.next()]).toEqual([beat, beat]);
    const drawn = await post(mock.controlUrl!, { operation: 'sendMarketData', message: 'marketData' });
    expect(drawn.body.pushed).toBe(3);
    expect(await other!.next()).toEqual(drawn.body.payload);
  });

  it('refuses by name: an unknown operation, message or key, an invalid payload, no JSON, another method', async () => {
    const mock = await mockOf('kraken-message-filter', { control: true });
    const url = mock.controlUrl!;
    expect(await post(url, { operation: 'nope' })).toMatchObject({
      status: 404,
      body: {
        error: expect.stringMatching(/^"operation" must name a receive operation \(sendHeartbeat, systemStatus\)/),
      },
    });
    expect(await post(url, { operation: 'receivePing' })).toMatchObject({ status: 404 });
    expect(await post(url, { operation: 'systemStatus', message: 'pong' })).toMatchObject({
      status: 404,
      body: { error: expect.stringContaining('"message" must be one of systemStatus\'s messages (systemStatus)') },
    });
    expect(await post(url, { operation: 'systemStatus', payload: { event: 'systemStatus', status: 7 } })).toMatchObject(
      {
        status: 422,
        body: {
          error: expect.stringMatching(/^the payload is no valid message of systemStatus: systemStatus: .*\/status/),
        },
      },
    );
    expect(await post(url, { operation: 'systemStatus', at: 1 })).toMatchObject({
      status: 400,
      body: { error: 'unknown key(s) at: the body takes operation, message, payload, path' },
    });
    const notJson = await fetch(`${url}/push`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
    const get = await fetch(`${url}/push`);
    expect([get.status, await get.json()]).toEqual([405, { error: '/push takes POST, not GET' }]);
  });
});

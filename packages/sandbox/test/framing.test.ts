import { describe, expect, it } from 'vitest';
import { errorTable } from '@exchange-api/types';
import { Client, HANG_MS, post, start } from './helpers';
import { httpStatusOf } from '../src/rpc';
import { MAX_READ_BYTES } from '../src/server';
import { within } from './peers';

const messageOf = (code: number) => errorTable.codes.find((c) => c.code === code)!.message;

describe('framing', () => {
  it('echoes string, number and null ids with a result', async () => {
    const sb = await start();
    const c = await Client.connect(sb.wsUrl);
    for (const id of ['abc', 42, 0, -1.5, null]) {
      const from = c.frames.length;
      c.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'public/get_all_live_instruments', params: {} }));
      const reply = (await c.next((f) => f.json && 'id' in f.json && f.json.method === undefined, 3000, from)).json;
      expect(reply.id).toStrictEqual(id);
      expect(reply.jsonrpc).toBe('2.0');
      expect(Array.isArray(reply.result)).toBe(true);
      expect(reply.error).toBeUndefined();
    }
  });

  it('answers each malformed input with the right error and keeps the connection', async () => {
    const sb = await start({ limits: { max_frame_bytes: { maxBytes: 2048 } } });
    const c = await Client.connect(sb.wsUrl);
    const cases: Array<[string | Buffer, boolean, number, unknown]> = [
      ['{not json', false, -32700, null],
      [Buffer.from([1, 2, 3]), true, -32700, null],
      ['[1,2]', false, -32600, null],
      ['42', false, -32600, null],
      ['"text"', false, -32600, null],
      ['null', false, -32600, null],
      [JSON.stringify({ jsonrpc: '2.0', id: 7, params: {} }), false, -32600, 7],
      [JSON.stringify({ jsonrpc: '2.0', id: 8, method: 12, params: {} }), false, -32600, 8],
      [JSON.stringify({ jsonrpc: '1.0', id: 9, method: 'subscribe', params: { channels: [] } }), false, -32600, 9],
      [JSON.stringify({ jsonrpc: '2.0', method: 'subscribe', params: { channels: [] } }), false, -32600, null],
      [JSON.stringify({ jsonrpc: '2.0', id: { x: 1 }, method: 'subscribe', params: {} }), false, -32600, null],
      [JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'no/such', params: {} }), false, -32601, 10],
      [JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'private/get_subaccounts', params: {} }), false, 14000, 11],
      [JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'subscribe', params: { channels: 'x' } }), false, -32602, 12],
      [JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'subscribe', params: {} }), false, -32602, 13],
      [JSON.stringify({ jsonrpc: '2.0', id: 14, method: 'public/getRateLimits', params: { a: 1 } }), false, -32602, 14],
      [
        JSON.stringify({ jsonrpc: '2.0', id: 15, method: 'subscribe', params: { channels: ['x'.repeat(3000)] } }),
        false,
        -32600,
        null,
      ],
      [
        JSON.stringify({ jsonrpc: '2.0', id: 16, method: 'subscribe', params: { channels: [] }, headers: 5 }),
        false,
        -32600,
        16,
      ],
    ];
    for (const [frame, binary, code, id] of cases) {
      const from = c.frames.length;
      c.send(frame, binary);
      const reply = (await c.next((f) => f.json?.error !== undefined || f.json?.result !== undefined, 3000, from)).json;
      expect(reply.error.code, String(frame).slice(0, 80)).toBe(code);
      expect(reply.error.message).toBe(messageOf(code));
      expect(reply.id).toStrictEqual(id);
      expect(typeof reply.error.data).toBe('string');
    }
    // Invalid params name the JSON pointer and the rule.
    const bad = await c.request('subscribe', { channels: [1] });
    expect(bad.error.data).toMatch(/\/channels\/0: type string/);
    expect(c.closed).toBeNull();
    expect((await c.call('subscribe', { channels: ['trades.ETH-PERP'] })).status['trades.ETH-PERP']).toBe('ok');
  });

  it('reports refused channels in the status map, not as an error', async () => {
    const sb = await start();
    const c = await Client.connect(sb.wsUrl);
    const r = await c.call('subscribe', {
      channels: [
        'orderbook.ETH-PERP.1.10',
        'orderbook.ETH-PERP.7.10',
        'orderbook.NOPE.1.10',
        '123.orders',
        'spot_feed.XYZ',
        'nonsense',
      ],
    });
    expect(r.status).toEqual({
      'orderbook.ETH-PERP.1.10': 'ok',
      'orderbook.ETH-PERP.7.10': 'Invalid channel',
      'orderbook.NOPE.1.10': 'Unknown instrument',
      '123.orders': messageOf(14000),
      'spot_feed.XYZ': 'Unknown currency',
      nonsense: 'Invalid channel',
    });
    expect(r.current_subscriptions).toEqual(['orderbook.ETH-PERP.1.10']);
    const u = await c.call('unsubscribe', { channels: ['orderbook.ETH-PERP.1.10', 'trades.BTC-PERP'] });
    expect(u).toEqual({
      status: { 'orderbook.ETH-PERP.1.10': 'ok', 'trades.BTC-PERP': 'Not subscribed' },
      current_subscriptions: [],
      remaining_subscriptions: [],
    });
    await c.call('subscribe', { channels: ['trades.ETH-PERP', 'trades.BTC-PERP'] });
    expect((await c.call('unsubscribe', {})).current_subscriptions).toEqual([]);
  });

  it('serves HTTP POST with JSON-RPC bodies and the assumed status codes', async () => {
    const sb = await start();
    const ok = await post(sb, '/v3/public/getRateLimits', {});
    expect(ok.status).toBe(200);
    expect(ok.json.id).toBeNull();
    expect(ok.json.result.remaining_non_matching.remainingPoints).toBeGreaterThan(0);
    const env = await post(sb, '/v3/public/get_all_live_instruments', {
      jsonrpc: '2.0',
      id: 'h1',
      method: 'public/get_all_live_instruments',
      params: {},
    });
    expect(env.status).toBe(200);
    expect(env.json.id).toBe('h1');
    const notJson = await post(sb, '/v3/public/getRateLimits', '{oops');
    expect([notJson.status, notJson.json.error.code]).toEqual([400, -32700]);
    const badParams = await post(sb, '/v3/public/getRateLimits', { x: 1 });
    expect([badParams.status, badParams.json.error.code]).toEqual([400, -32602]);
    const missing = await post(sb, '/v3/public/order', {});
    expect([missing.status, missing.json.error.code]).toEqual([404, -32601]);
    const preflight = await fetch(sb.httpUrl + '/v3/private/get_subaccounts', { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('X-ServiceSignature');
    expect(
      ok.status === 200 &&
        (await fetch(sb.httpUrl + '/v3/public/getRateLimits', { method: 'POST', body: '{}' })).headers.get(
          'access-control-allow-origin',
        ),
    ).toBe('*');
    // A GET is the method with empty params (the http-get assumption); other verbs are refused.
    const get = await fetch(sb.httpUrl + '/v3/public/getRateLimits');
    expect(get.status).toBe(200);
    expect((await fetch(sb.httpUrl + '/v3/public/getRateLimits', { method: 'PUT' })).status).toBe(404);
    const limited = await start({ limits: { public: { points: 1, windowMs: 5000 } } });
    expect((await post(limited, '/v3/public/getRateLimits', {})).status).toBe(200);
    const over = await post(limited, '/v3/public/getRateLimits', {});
    expect(over.status).toBe(429);
    expect(over.json.error).toEqual({
      code: -32000,
      message: 'Rate limit exceeded',
      data: expect.stringMatching(/^Retry after [0-9]+ ms$/),
    });
    const noLogin = await post(sb, '/v3/private/get_subaccounts', {
      wallet: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
    });
    expect([noLogin.status, noLogin.json.error.code]).toEqual([401, 14000]);
  });

  it(
    'a frame over max_frame_bytes gets -32600 and the connection stays; one over ' + '16 MiB is not read: close 1009',
    async () => {
      expect(MAX_READ_BYTES).toBe(16 * 1024 * 1024);
      const sb = await start();
      const c = await Client.connect(sb.wsUrl);
      const big = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscribe',
        params: { channels: ['x'.repeat(2_000_000)] },
      });
      const from = c.frames.length;
      c.send(big);
      const reply = (await c.next((f) => f.json?.error !== undefined, 5000, from)).json;
      expect(reply.error).toMatchObject({ code: -32600, data: expect.stringMatching(/over the 65536-byte limit/) });
      expect(c.closed).toBeNull();
      expect((await c.call('subscribe', { channels: ['trades.ETH-PERP'] })).status['trades.ETH-PERP']).toBe('ok');
      c.send(Buffer.alloc(MAX_READ_BYTES + 1, 0x20));
      expect(await within(c.whenClosed, HANG_MS)).toMatchObject({ code: 1009 });
    },
  );

  it("HTTP status of every error code is errorTable's httpStatus", () => {
    for (const row of errorTable.codes) expect(httpStatusOf(row.code), String(row.code)).toBe(row.httpStatus);
  });
});

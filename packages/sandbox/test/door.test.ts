/** What the door checks once for both transports: ids echoed exactly, params depth, status maps keyed safely. */
import { describe, expect, it } from 'vitest';
import { errorByName } from '@exchange-api/types';
import { Client, newWallet, signed, start } from './helpers';
import { MAX_PARAMS_DEPTH, topLevelMember } from '../src/envelope';

const INVALID_PARAMS = errorByName('RPC_INVALID_PARAMS').code;

/** `[[…[0]…]]`, `levels` arrays deep, as text: JSON.stringify itself runs out of stack on thousands of levels. */
const nestedText = (levels: number) => `${'['.repeat(levels)}0${']'.repeat(levels)}`;
/** `{"x":[[…[0]…]]}` nesting `levels` containers below the object. */
const nested = (levels: number) => JSON.parse(`{"x":${nestedText(levels)}}`);

/** Send a request whose params are this JSON text; resolves with the reply. */
async function rawRequest(c: Client, id: number, method: string, paramsText: string): Promise<any> {
  const from = c.frames.length;
  c.send(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${paramsText}}`);
  return (await c.next((f) => f.json?.id === id, 5000, from)).json;
}

describe('the door', () => {
  it('echoes a number id with the digits it was sent with (no rounding above 2^53)', async () => {
    const sb = await start();
    const c = await Client.connect(sb.wsUrl);
    for (const id of ['12345678901234567890', '9007199254740993', '1.10', '-0', '1e2', '0.30000000000000004']) {
      const from = c.frames.length;
      c.send(`{"jsonrpc":"2.0","id":${id},"method":"public/get_all_live_instruments","params":{}}`);
      const reply = await c.next((f) => f.json?.result !== undefined || f.json?.error !== undefined, 5000, from);
      expect(reply.text.startsWith(`{"jsonrpc":"2.0","id":${id},"result":`), reply.text.slice(0, 80)).toBe(true);
    }
    // Over HTTP too, for a full JSON-RPC request object.
    const res = await fetch(`${sb.httpUrl}/v3/public/get_all_live_instruments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":12345678901234567890,"method":"public/get_all_live_instruments","params":{}}',
    });
    expect((await res.text()).startsWith('{"jsonrpc":"2.0","id":12345678901234567890,')).toBe(true);
  });

  it('finds the source text of a top-level member, the last one when it repeats', () => {
    expect(topLevelMember('{"a":{"id":1},"id" : 12345678901234567890 ,"b":"}"}', 'id')).toBe('12345678901234567890');
    expect(topLevelMember('{"id":1,"x":["\\"id\\"",{"id":2}],"id":3.50}', 'id')).toBe('3.50');
    expect(topLevelMember('{"x":1}', 'id')).toBeNull();
    expect(topLevelMember('[1]', 'id')).toBeNull();
  });

  it('refuses params nested deeper than the bound with -32602, naming it, on both transports', async () => {
    const sb = await start({ market: { intervalMs: 60_000 } });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    // A signed order carrying 5000 levels of nesting in one more field (the signer's own canonical
    // JSON would overflow on it too, so it is added after signing: the server recovers over it).
    const order = JSON.stringify(
      await signed(w, 'private/order', {
        subaccount_id: sub!,
        instrument_name: 'ETH-PERP',
        direction: 'buy',
        order_type: 'limit',
        amount: '0.1',
        limit_price: '1000',
        max_fee: '1',
      }),
    );
    const r = await rawRequest(c, 900, 'private/order', `${order.slice(0, -1)},"memo":${nestedText(5000)}}`);
    expect(r.error).toMatchObject({
      code: INVALID_PARAMS,
      data: `/params: nested deeper than ${MAX_PARAMS_DEPTH} levels`,
    });
    expect((await c.request('subscribe', { channels: [], extra: nested(MAX_PARAMS_DEPTH) })).error.code).toBe(
      INVALID_PARAMS,
    );
    const http = await fetch(`${sb.httpUrl}/v3/public/getRateLimits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"x":${nestedText(5000)}}`,
    });
    expect(http.status).toBe(400);
    expect((await http.json()).error).toMatchObject({
      code: INVALID_PARAMS,
      data: expect.stringMatching(/nested deeper than/),
    });
    // Params exactly as deep as the bound are served as before (params, extra, x and its arrays), and the connection
    // keeps serving.
    expect((await c.request('subscribe', { channels: [], extra: nested(MAX_PARAMS_DEPTH - 2) })).result).toBeDefined();
    expect((await c.call('subscribe', { channels: ['trades.ETH-PERP'] })).status['trades.ETH-PERP']).toBe('ok');
  });

  it('a __proto__ address keeps its entry in the status map', async () => {
    const sb = await start();
    const c = await Client.connect(sb.wsUrl);
    const r = await c.request('subscribe', { channels: ['__proto__', 'constructor', 'trades.ETH-PERP'] });
    expect(Object.keys(r.result.status)).toEqual(['__proto__', 'constructor', 'trades.ETH-PERP']);
    expect(Object.getOwnPropertyDescriptor(r.result.status, '__proto__')?.value).toBe('Invalid channel');
    const u = await c.request('unsubscribe', { channels: ['__proto__'] });
    expect(Object.getOwnPropertyDescriptor(u.result.status, '__proto__')?.value).toBe('Not subscribed');
  });

  it('unsubscribing a channel listed twice reports it ok, since it was removed', async () => {
    const sb = await start();
    const c = await Client.connect(sb.wsUrl);
    await c.call('subscribe', { channels: ['trades.ETH-PERP', 'trades.ETH-PERP'] });
    const u = await c.call('unsubscribe', { channels: ['trades.ETH-PERP', 'trades.ETH-PERP', 'trades.BTC-PERP'] });
    expect(u).toEqual({
      status: { 'trades.ETH-PERP': 'ok', 'trades.BTC-PERP': 'Not subscribed' },
      current_subscriptions: [],
      remaining_subscriptions: [],
    });
  });
});

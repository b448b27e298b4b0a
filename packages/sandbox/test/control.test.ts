import { describe, expect, it } from 'vitest';
import { channelTable, fillAddress } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import { Client, control, HANG_MS, newWallet, post, start } from './helpers';
import { rawHttp, within } from './peers';
import { Clock } from '../src/clock';
import { MAX_ADVANCE_MS, MAX_DELAY_MS } from '../src/control';

describe('control plane', () => {
  it('is 404 without --control, and nothing else changes', async () => {
    const sb = await start();
    expect(sb.controlUrl).toBeNull();
    for (const action of ['push', 'drop', 'delay', 'garbage', 'advance'])
      expect((await control(sb, action, {})).status).toBe(404);
    expect((await fetch(`${sb.httpUrl}/control/connections`)).status).toBe(404);
    expect((await fetch(`${sb.httpUrl}/control`)).status).toBe(404);
    expect((await post(sb, '/v3/public/getRateLimits', {})).status).toBe(200);
  });

  it('pushes given data (unvalidated) to subscribers of the exact address', async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    expect(sb.controlUrl).toBe(`${sb.httpUrl}/control`);
    const c = await Client.connect(sb.wsUrl);
    await c.call('subscribe', { channels: ['trades.ETH-PERP'] });
    const r = await control(sb, 'push', { channel: 'trades.ETH-PERP', data: { not: 'a trade' } });
    expect(r.json).toEqual({ delivered: 1 });
    expect(await c.nextPush('trades.ETH-PERP')).toEqual({ not: 'a trade' });
    expect((await control(sb, 'push', { channel: 'trades.BTC-PERP', data: 1 })).json).toEqual({ delivered: 0 });
    expect((await control(sb, 'push', { channel: 5 })).status).toBe(400);
  });

  it('generates a schema-valid payload for every channel', async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const fill: Record<string, string> = {
      instrument_name: 'ETH-PERP',
      currency: 'ETH',
      subaccount_id: String(sub),
      wallet: w.address,
      instrument_type: 'perp',
    };
    for (const ch of channelTable) {
      const address = fillAddress(
        ch.address,
        Object.fromEntries(ch.parameters.map((p) => [p.name, p.enum ? p.enum[0]! : fill[p.name]!])),
      );
      if (ch.id === 'tradesByType') continue;
      const s = await c.call('subscribe', { channels: [address] });
      expect(s.status[address]).toBe('ok');
      expect((await control(sb, 'push', { channel: address, generate: true })).json).toEqual({ delivered: 1 });
      const data = await c.nextPush(address);
      expect(
        validators.channels[ch.id as keyof typeof validators.channels](data),
        `${address}: ${JSON.stringify(data).slice(0, 200)}`,
      ).toBe(true);
    }
  });

  it('lists connections, drops, delays, sends garbage, advances the clock', async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    const a = await Client.connect(sb.wsUrl);
    const b = await Client.connect(sb.wsUrl);
    const w = newWallet();
    const subs = await a.login(w);
    await a.call('subscribe', { channels: ['trades.ETH-PERP'] });
    const list = (await control(sb, 'connections')).json;
    expect(list).toEqual([
      {
        id: expect.any(Number),
        ip: '127.0.0.1',
        wallet: w.address,
        subaccounts: subs,
        subscriptions: ['trades.ETH-PERP'],
      },
      { id: expect.any(Number), ip: '127.0.0.1', wallet: null, subaccounts: [], subscriptions: [] },
    ]);
    const [ida, idb] = list.map((x: any) => x.id);
    expect(idb).toBeGreaterThan(ida);

    expect((await control(sb, 'garbage', { connectionId: idb, text: 'zz{' })).json).toEqual({ sent: 1 });
    expect((await b.next((f) => f.text === 'zz{')).json).toBeUndefined();

    // A delay holds the answer at least that long (a lower bound, which a loaded machine only lengthens).
    expect((await control(sb, 'delay', { ms: 300, connectionId: ida })).json).toEqual({});
    const t0 = Date.now();
    await a.call('public/get_all_live_instruments', {});
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    // 0 resets it: after a minute's delay is set and reset, the answer comes within the hang bound (15 s).
    await control(sb, 'delay', { ms: MAX_DELAY_MS, connectionId: ida });
    await control(sb, 'delay', { ms: 0, connectionId: ida });
    expect(MAX_DELAY_MS).toBeGreaterThan(HANG_MS);
    await a.call('public/get_all_live_instruments', {});

    const before = (await control(sb, 'advance', { ms: 0 })).json.nowMs;
    const after = (await control(sb, 'advance', { ms: 60_000 })).json.nowMs;
    expect(after - before).toBeGreaterThanOrEqual(60_000);
    expect((await control(sb, 'advance', { ms: -1 })).status).toBe(400);

    expect((await control(sb, 'drop', { connectionId: idb })).json).toEqual({ dropped: 1 });
    expect(await within(b.whenClosed, HANG_MS)).not.toBe('timeout');
    expect((await a.call('public/get_all_live_instruments', {})).length).toBeGreaterThan(0);
    expect((await control(sb, 'drop', {})).json).toEqual({ dropped: 1 });
    expect((await control(sb, 'nope', {})).status).toBe(404);
  });

  it(
    'serves no web page: another Origin, a simple content type or a foreign Host ' +
      'is refused, and no CORS header lets a page read it',
    async () => {
      const sb = await start({ control: true, market: { intervalMs: 60_000 } });
      const c = await Client.connect(sb.wsUrl);
      await c.call('subscribe', { channels: ['trades.ETH-PERP'] });
      const url = `${sb.httpUrl}/control`;
      const page = 'http://evil.example';
      const json = { 'content-type': 'application/json' };
      const fakeTrade = JSON.stringify({ channel: 'trades.ETH-PERP', data: [{ trade_id: 'fake' }] });
      const refused = async (res: Response, status: number, error: RegExp) => {
        expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([
          status,
          expect.stringMatching(error),
        ]);
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
      };
      // What a page on another origin did: read the connection list, push a fake trade, drop the client.
      await refused(
        await fetch(`${url}/connections`, { headers: { origin: page } }),
        403,
        /refuses cross-origin.*evil\.example/,
      );
      await refused(
        await fetch(`${url}/push`, { method: 'POST', headers: { ...json, origin: page }, body: fakeTrade }),
        403,
        /refuses cross-origin/,
      );
      await refused(
        await fetch(`${url}/drop`, { method: 'POST', headers: { ...json, origin: 'null' }, body: '{}' }),
        403,
        /refuses cross-origin/,
      );
      await refused(
        await fetch(`${url}/push`, {
          method: 'OPTIONS',
          headers: { origin: page, 'access-control-request-method': 'POST' },
        }),
        403,
        /refuses cross-origin/,
      );
      await refused(
        await fetch(`${url}/drop`, {
          method: 'POST',
          headers: { ...json, 'sec-fetch-site': 'cross-site' },
          body: '{}',
        }),
        403,
        /cross-site/,
      );
      // A body a page may send anywhere without a preflight: text/plain (fetch's default for a string), none.
      await refused(
        await fetch(`${url}/push`, { method: 'POST', body: fakeTrade }),
        415,
        /Content-Type application\/json \(got "text\/plain/,
      );
      await refused(await fetch(`${url}/drop`, { method: 'POST' }), 415, /Content-Type application\/json \(got null\)/);
      // DNS rebinding: a page whose host name now resolves to 127.0.0.1 sends its own Host, and its Origin matches it.
      const port = new URL(sb.httpUrl).port;
      const rebound = await rawHttp(
        sb.httpUrl,
        `GET /control/connections HTTP/1.1\r\nHost: evil.example:${port}\r\nOrigin: ` +
          `http://evil.example:${port}\r\n\r\n`,
      );
      expect(await rebound.response).toMatch(
        /^HTTP\/1\.1 403 [^]*loopback host or to its own address \(Host \\"evil\.example:/,
      );
      // Nothing reached the client: no fake trade (a round trip flushes what was sent), not dropped.
      await c.roundTrip();
      expect(c.pushes('trades.ETH-PERP')).toEqual([]);
      expect(c.closed).toBeNull();
      // The sandbox's own callers are served: a loopback Host (a name or an address), no Origin or its own.
      const local = await rawHttp(sb.httpUrl, `GET /control/connections HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
      expect(await local.response).toMatch(/^HTTP\/1\.1 200 /);
      const own = await fetch(`${url}/connections`, { headers: { origin: sb.httpUrl } });
      expect([own.status, own.headers.get('access-control-allow-origin')]).toEqual([200, null]);
      expect((await control(sb, 'push', JSON.parse(fakeTrade))).json).toEqual({ delivered: 1 });
      // The API itself still answers any origin (the docs' live examples call it from a browser).
      const api = await fetch(`${sb.httpUrl}/v3/public/getRateLimits`, {
        method: 'POST',
        headers: { ...json, origin: page },
        body: '{}',
      });
      expect([api.status, api.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
    },
  );

  it('bounds every input: out-of-range values are refused with a clear error, and the clock stays usable', async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    const c = await Client.connect(sb.wsUrl);
    const refused: Array<[string, unknown, RegExp]> = [
      ['advance', { ms: 1e308 }, new RegExp(`^ms must be a number from 0 to ${MAX_ADVANCE_MS} \\(got 1e\\+308\\)$`)],
      ['advance', { ms: Number.MAX_VALUE }, /^ms must be a number from 0/],
      ['advance', { ms: '5' }, /^ms must be a number/],
      ['advance', { ms: 5, by: 1 }, /^unknown key "by" \(allowed: ms\)$/],
      ['delay', { ms: 1e9 }, new RegExp(`^ms must be a number from 0 to ${MAX_DELAY_MS}`)],
      ['delay', { ms: 10, connectionId: 1.5 }, /^connectionId must be a positive integer \(got 1\.5\)$/],
      ['drop', { connectionId: -1 }, /^connectionId must be a positive integer/],
      ['drop', { connectionId: 2 ** 60 }, /^connectionId must be a positive integer/],
      ['garbage', { text: 'x'.repeat(1024 * 1024 + 1) }, /^text must be at most 1048576 characters/],
      ['push', { channel: 'x'.repeat(1025), data: 1 }, /^channel must be at most 1024 characters/],
      ['push', { channel: 'trades.ETH-PERP', data: 1, generate: 'yes' }, /^generate must be a boolean$/],
    ];
    for (const [action, body, message] of refused) {
      const r = await control(sb, action, body);
      expect([r.status, r.json.error], `${action} ${JSON.stringify(body).slice(0, 60)}`).toEqual([
        400,
        expect.stringMatching(message),
      ]);
    }
    // Twice the largest value is refused both times; the clock stays finite and wallets still log in.
    for (let i = 0; i < 2; i++) expect((await control(sb, 'advance', { ms: 1e308 })).status).toBe(400);
    const now = (await control(sb, 'advance', { ms: 0 })).json.nowMs;
    expect(Number.isFinite(now) && Math.abs(now - Date.now()) < 60_000).toBe(true);
    expect(await c.login(newWallet())).toHaveLength(2);
    // The clock itself never passes year 9999.
    expect(() => new Clock().advance(Clock.MAX_MS)).toThrow(RangeError);
  });
});

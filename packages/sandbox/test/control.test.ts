import { describe, expect, it } from 'vitest';
import { channelTable, fillAddress } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import { Client, control, newWallet, post, sleep, start } from './helpers';

describe('control plane', () => {
  it('is 404 without --control, and nothing else changes', async () => {
    const sb = await start();
    expect(sb.controlUrl).toBeNull();
    for (const action of ['push', 'drop', 'delay', 'garbage', 'advance']) expect((await control(sb, action, {})).status).toBe(404);
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
    const fill: Record<string, string> = { instrument_name: 'ETH-PERP', currency: 'ETH', subaccount_id: String(sub), wallet: w.address, instrument_type: 'perp' };
    for (const ch of channelTable) {
      const address = fillAddress(ch.address, Object.fromEntries(ch.parameters.map((p) => [p.name, p.enum ? p.enum[0]! : fill[p.name]!])));
      if (ch.id === 'tradesByType') continue;
      const s = await c.call('subscribe', { channels: [address] });
      expect(s.status[address]).toBe('ok');
      expect((await control(sb, 'push', { channel: address, generate: true })).json).toEqual({ delivered: 1 });
      const data = await c.nextPush(address);
      expect(validators.channels[ch.id as keyof typeof validators.channels](data), `${address}: ${JSON.stringify(data).slice(0, 200)}`).toBe(true);
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
      { id: expect.any(Number), ip: '127.0.0.1', wallet: w.address, subaccounts: subs, subscriptions: ['trades.ETH-PERP'] },
      { id: expect.any(Number), ip: '127.0.0.1', wallet: null, subaccounts: [], subscriptions: [] },
    ]);
    const [ida, idb] = list.map((x: any) => x.id);
    expect(idb).toBeGreaterThan(ida);

    expect((await control(sb, 'garbage', { connectionId: idb, text: 'zz{' })).json).toEqual({ sent: 1 });
    expect((await b.next((f) => f.text === 'zz{')).json).toBeUndefined();

    expect((await control(sb, 'delay', { ms: 300, connectionId: ida })).json).toEqual({});
    const t0 = Date.now();
    await a.call('public/get_all_live_instruments', {});
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    await control(sb, 'delay', { ms: 0, connectionId: ida });
    const t1 = Date.now();
    await a.call('public/get_all_live_instruments', {});
    expect(Date.now() - t1).toBeLessThan(250);

    const before = (await control(sb, 'advance', { ms: 0 })).json.nowMs;
    const after = (await control(sb, 'advance', { ms: 60_000 })).json.nowMs;
    expect(after - before).toBeGreaterThanOrEqual(60_000);
    expect((await control(sb, 'advance', { ms: -1 })).status).toBe(400);

    expect((await control(sb, 'drop', { connectionId: idb })).json).toEqual({ dropped: 1 });
    for (let i = 0; i < 50 && !b.closed; i++) await sleep(20);
    expect(b.closed).not.toBeNull();
    expect((await a.call('public/get_all_live_instruments', {})).length).toBeGreaterThan(0);
    expect((await control(sb, 'drop', {})).json).toEqual({ dropped: 1 });
    expect((await control(sb, 'nope', {})).status).toBe(404);
  });
});

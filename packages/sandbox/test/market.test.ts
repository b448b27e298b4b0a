import { describe, expect, it } from 'vitest';
import { channelTable } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import { Client, control, post, start } from './helpers';

const enumOf = (channelId: string, param: string) =>
  channelTable.find((c) => c.id === channelId)!.parameters.find((p) => p.name === param)!.enum!;

describe('simulated market', () => {
  it('lists the default instruments by name, each one public/get_instrument describes', async () => {
    const sb = await start();
    const r = await post(sb, '/v3/public/get_all_live_instruments', {});
    expect(validators.assumedResults['public/get_all_live_instruments'](r.json.result)).toBe(true);
    expect(r.json.result).toEqual(['ETH-PERP', 'BTC-PERP', 'ETH-20261231-3000-C', 'ETH-USDC']);
    const types: string[] = [];
    for (const name of r.json.result) {
      const one = await post(sb, '/v3/public/get_instrument', { instrument_name: name });
      expect(one.json.result.instrument_name).toBe(name);
      types.push(one.json.result.instrument_type);
    }
    expect(types).toEqual(['perp', 'perp', 'option', 'erc20']);
  });

  it('order books hold their invariants for every group and depth, publish_id strictly increasing', async () => {
    const sb = await start({ market: { intervalMs: 20 } });
    const c = await Client.connect(sb.wsUrl);
    const channels: string[] = [];
    for (const instrument of ['ETH-PERP', 'ETH-20261231-3000-C'])
      for (const g of enumOf('orderbook', 'group'))
        for (const d of enumOf('orderbook', 'depth')) channels.push(`orderbook.${instrument}.${g}.${d}`);
    const r = await c.call('subscribe', { channels });
    expect(Object.values(r.status).every((s) => s === 'ok')).toBe(true);
    // Every tick publishes every book; wait for three of each (tolerant of a loaded machine) rather than a fixed time.
    await c.until(() => channels.every((ch) => c.pushes(ch).length >= 3)).catch(() => undefined);
    for (const ch of channels) {
      const [, instrument, group, depth] = ch.split('.');
      const pushes = c.pushes(ch);
      expect(pushes.length, ch).toBeGreaterThanOrEqual(3);
      let last = -1;
      for (const p of pushes) {
        expect(validators.channels.orderbook(p)).toBe(true);
        expect(p.instrument_name).toBe(instrument);
        expect(p.publish_id).toBeGreaterThan(last);
        last = p.publish_id;
        expect(p.bids.length).toBeLessThanOrEqual(Number(depth));
        expect(p.asks.length).toBeLessThanOrEqual(Number(depth));
        expect(p.bids.length).toBeGreaterThan(0);
        const tick = instrument === 'ETH-PERP' ? 0.01 : 0.1;
        const bids = p.bids.map((l: string[]) => Number(l[0]));
        const asks = p.asks.map((l: string[]) => Number(l[0]));
        for (let i = 1; i < bids.length; i++) expect(bids[i]).toBeLessThan(bids[i - 1]);
        for (let i = 1; i < asks.length; i++) expect(asks[i]).toBeGreaterThan(asks[i - 1]);
        expect(bids[0]).toBeLessThan(asks[0]);
        for (const price of [...bids, ...asks]) {
          const q = price / (tick * Number(group));
          expect(Math.abs(q - Math.round(q))).toBeLessThan(1e-6);
        }
        for (const l of [...p.bids, ...p.asks]) expect(Number(l[1])).toBeGreaterThan(0);
      }
    }
  });

  it('ticker_slim follows its 100 and 1000 ms cadence', async () => {
    const sb = await start();
    const c = await Client.connect(sb.wsUrl);
    await c.call('subscribe', { channels: ['ticker_slim.ETH-PERP.100', 'ticker_slim.ETH-PERP.1000'] });
    const arrivals = (channel: string) =>
      c.frames.filter((f) => f.json?.method === 'subscription' && f.json.params.channel === channel).map((f) => f.at);
    // Timers only ever run late, by as much as the machine's load makes them: a gap is never much shorter
    // than its interval, and the 100 ms channel comes more often than the 1000 ms one, but how much
    // longer a gap is says nothing about the sandbox.
    const median = (channel: string) => {
      const at = arrivals(channel);
      const gaps = at
        .slice(1)
        .map((t, i) => t - at[i]!)
        .sort((x, y) => x - y);
      return gaps[Math.floor(gaps.length / 2)]!;
    };
    await c.until(
      () => arrivals('ticker_slim.ETH-PERP.100').length >= 12 && arrivals('ticker_slim.ETH-PERP.1000').length >= 3,
    );
    const fast = median('ticker_slim.ETH-PERP.100');
    const slow = median('ticker_slim.ETH-PERP.1000');
    expect(fast).toBeGreaterThanOrEqual(50);
    expect(slow).toBeGreaterThanOrEqual(500);
    expect(slow).toBeGreaterThan(fast);
    const all = [...c.pushes('ticker_slim.ETH-PERP.100'), ...c.pushes('ticker_slim.ETH-PERP.1000')];
    for (const t of all) expect(validators.channels.tickerSlim(t)).toBe(true);
    expect(validators.schemas.DailyTradingStatistics(all[0].instrument_ticker.stats)).toBe(true);
  });

  it('is deterministic for a seed', async () => {
    const books = [];
    for (const seed of [5, 5, 6]) {
      const sb = await start({ seed, control: true, market: { intervalMs: 60_000 } });
      const c = await Client.connect(sb.wsUrl);
      await c.call('subscribe', { channels: ['orderbook.BTC-PERP.1.20'] });
      await control(sb, 'push', { channel: 'orderbook.BTC-PERP.1.20', generate: true });
      const p = await c.nextPush('orderbook.BTC-PERP.1.20');
      books.push(JSON.stringify([p.bids, p.asks]));
    }
    expect(books[0]).toBe(books[1]);
    expect(books[0]).not.toBe(books[2]);
  });
});

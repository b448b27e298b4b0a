/**
 * The reads the public clients call beyond the document (x-source: clients), with real behaviour:
 * listings from the configured instruments, the ticker from the book, history from the fills,
 * portfolios from the ledger, funding and time from the movable clock. Every result validates against
 * the spec's schema of that method.
 */
import { describe, expect, it } from 'vitest';
import { validators } from '@exchange-api/validators';
import { Client, control, newWallet, signed, start } from './helpers';

const quiet = { control: true, market: { intervalMs: 60_000 } };
const HOUR = 3_600_000;

/** Call a method and check its result against the spec's schema for it. */
async function read(c: Client, method: string, params: unknown = {}): Promise<any> {
  const result = await c.call(method, params);
  const validate = validators.results[method as keyof typeof validators.results];
  expect(validate(result), `${method}: ${JSON.stringify(validate.errors ?? []).slice(0, 300)}`).toBe(true);
  return result;
}

describe('the reads the public clients call', () => {
  it('lists currencies and instruments, each with the asset its orders sign for', async () => {
    const sb = await start(quiet);
    const c = await Client.connect(sb.wsUrl);
    const currencies = await read(c, 'public/get_all_currencies');
    // Each currency names its spot asset (the token its spot instrument trades; cash a token of its own)
    // and its managers.
    const byName = (n: string) => currencies.find((x: any) => x.currency === n);
    const tokens = await read(c, 'public/get_all_instruments', { instrument_type: 'erc20', currency: 'ETH' });
    expect(byName('ETH').spot).toMatchObject([
      { name: 'ETH', address: tokens.instruments[0].base_asset_address, erc20: { decimals: 18 } },
    ]);
    expect(byName('USDC').spot).toMatchObject([{ name: 'USDC', erc20: { decimals: 6 } }]);
    expect(byName('USDC').spot[0].address).not.toBe(byName('ETH').spot[0].address);
    // One standard manager for all; ETH has a portfolio manager of its own, the cash currency none.
    expect(byName('ETH').managers).toEqual([{ ...byName('USDC').managers[0], pm: expect.any(Number) }]);
    expect(byName('USDC').managers[0].pm).toBeNull();
    const perps = await read(c, 'public/get_all_instruments', { instrument_type: 'perp', expired: false });
    expect(perps.instruments.map((i: any) => i.instrument_name)).toEqual(['ETH-PERP', 'BTC-PERP']);
    expect(perps.pagination).toEqual({ num_pages: 1, count: 2 });
    const paged = await read(c, 'public/get_all_instruments', { instrument_type: 'perp', page: 2, page_size: 1 });
    expect(paged.instruments.map((i: any) => i.instrument_name)).toEqual(['BTC-PERP']);
    const eth = await read(c, 'public/get_instrument', { instrument_name: 'ETH-PERP' });
    expect(eth).toEqual(perps.instruments[0]);
    expect(eth.base_asset_address).not.toBe(perps.instruments[1].base_asset_address);
    const option = await read(c, 'public/get_instrument', { instrument_name: 'ETH-20261231-3000-C' });
    expect(option.option_details).toMatchObject({
      option_type: 'C',
      strike: '3000',
      expiry: Date.UTC(2026, 11, 31, 8) / 1000,
    });
    expect(option.base_asset_sub_id).not.toBe('0');
    const unknown = await c.request('public/get_instrument', { instrument_name: 'NOPE' });
    expect(unknown.error).toMatchObject({ code: -32602, data: expect.stringMatching(/unknown instrument "NOPE"/) });
  });

  it("gives the ticker from the book, under ccxt's long names and the slim ones at once", async () => {
    const sb = await start(quiet);
    const c = await Client.connect(sb.wsUrl);
    const t = await read(c, 'public/get_ticker', { instrument_name: 'ETH-PERP' });
    // The book as the order book channel shows it at the same moment (the market is still: no tick for a minute).
    await c.call('subscribe', { channels: ['orderbook.ETH-PERP.1.1'] });
    const pushed = c.nextPush('orderbook.ETH-PERP.1.1');
    await control(sb, 'push', { channel: 'orderbook.ETH-PERP.1.1', generate: true });
    const book = await pushed;
    expect([t.best_bid_price, t.best_bid_amount, t.best_ask_price, t.best_ask_amount]).toEqual([
      ...book.bids[0],
      ...book.asks[0],
    ]);
    expect([t.b, t.B, t.a, t.A, t.I, t.M]).toEqual([
      t.best_bid_price,
      t.best_bid_amount,
      t.best_ask_price,
      t.best_ask_amount,
      t.index_price,
      t.mark_price,
    ]);
    expect(t.stats.high).toBe(t.stats.h);
    expect(t.stats.num_trades).toBe(String(t.stats.n));
  });

  it(
    'keeps the fills: public and own trade history, orders by status, open orders ' +
      'and portfolios follow the ledger',
    async () => {
      const sb = await start(quiet);
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const order = (price: string, extra = {}) =>
        signed(w, 'private/order', {
          subaccount_id: sub!,
          instrument_name: 'ETH-PERP',
          direction: 'buy',
          amount: '0.1',
          limit_price: price,
          max_fee: '100',
          ...extra,
        });
      const filled = await c.call('private/order', await order('4000'));
      expect(filled.order.order_status).toBe('filled');
      const resting = (await c.call('private/order', await order('1000', { label: 'low' }))).order;
      const tape = await read(c, 'public/get_trade_history', { instrument_name: 'ETH-PERP', page_size: 5 });
      expect(tape.trades[0]).toMatchObject({
        trade_id: filled.trades[0].trade_id,
        liquidity_role: 'taker',
        batch_status: 'Settled',
        tx_status: 'settled',
      });
      const own = await read(c, 'private/get_trade_history', { subaccount_id: sub, instrument_name: 'ETH-PERP' });
      expect(own.trades.map((t: any) => t.order_id)).toEqual([filled.order.order_id]);
      const open = await read(c, 'private/get_open_orders', { subaccount_id: sub });
      expect(open.orders.map((o: any) => o.order_id)).toEqual([resting.order_id]);
      const byStatus = await read(c, 'private/get_orders', { subaccount_id: sub, status: 'filled', page_size: 500 });
      expect(byStatus.orders.map((o: any) => o.order_id)).toEqual([filled.order.order_id]);
      const byLabel = await read(c, 'private/get_orders', { subaccount_id: sub, label: 'low' });
      expect(byLabel.orders.map((o: any) => o.order_status)).toEqual(['open']);
      const [portfolio] = await read(c, 'private/get_all_portfolios', { wallet: w.address });
      expect(portfolio).toEqual(await read(c, 'private/get_subaccount', { subaccount_id: sub }));
      expect(portfolio.positions).toMatchObject([{ instrument_name: 'ETH-PERP', amount: '0.1', delta: '0.1' }]);
      // A position's margins are its share of the subaccount's (negative, 10 % and 5 % of its notional).
      const [perp] = portfolio.positions;
      expect(Number(perp.initial_margin)).toBeCloseTo(-0.1 * Math.abs(Number(perp.mark_value)), 6);
      expect(Number(perp.maintenance_margin)).toBeCloseTo(-0.05 * Math.abs(Number(perp.mark_value)), 6);
      expect(portfolio).toMatchObject({ manager_id: 1, risk_universe_id: 1, failed_to_fetch: false });
      expect(portfolio.open_orders.map((o: any) => o.order_id)).toEqual([resting.order_id]);
      const usdc = portfolio.collaterals.find((x: any) => x.currency === 'USDC');
      expect(Number(usdc.amount)).toBeLessThan(1_000_000);
      expect(usdc).toMatchObject({ initial_margin: usdc.mark_value, delta: '0', delta_currency: 'USDC' });
      const other = await c.request('private/get_all_portfolios', { wallet: newWallet().address });
      expect(other.error.code).toBe(14003);
      expect((await c.request('private/get_open_orders', { subaccount_id: 1 })).error.code).toBe(14003);
    },
  );

  it('takes time and hourly funding from the movable clock', async () => {
    const sb = await start(quiet);
    const c = await Client.connect(sb.wsUrl);
    const before = await read(c, 'public/get_time');
    const funding0 = (await read(c, 'public/get_funding_rate_history', { instrument_name: 'ETH-PERP' }))
      .funding_rate_history;
    expect(funding0).toHaveLength(1);
    expect(funding0[0].timestamp % HOUR).toBe(0);
    await control(sb, 'advance', { ms: 3 * HOUR });
    expect(await read(c, 'public/get_time')).toBeGreaterThanOrEqual(before + 3 * HOUR);
    const funding = (await read(c, 'public/get_funding_rate_history', { instrument_name: 'ETH-PERP' }))
      .funding_rate_history;
    expect(funding.map((e: any) => e.timestamp)).toEqual([0, 1, 2, 3].map((h) => funding0[0].timestamp + h * HOUR));
    const since = await read(c, 'public/get_funding_rate_history', {
      instrument_name: 'ETH-PERP',
      start_timestamp: funding[2].timestamp,
    });
    expect(since.funding_rate_history).toEqual(funding.slice(2));
    const spot = await c.request('public/get_funding_rate_history', { instrument_name: 'ETH-USDC' });
    expect(spot.error).toMatchObject({ code: -32602, data: expect.stringMatching(/not a perpetual/) });
  });
});

/**
 * ccxt 4.5.84 (its `derive` class, the trading library most bots use), pinned, against the sandbox with
 * nothing patched (ccxt-setup.ts). Every unified call a bot starts with goes through ccxt's own request
 * building, signing and parsing; the rest of its `has` table is ccxt-has.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ExchangeClient } from '@exchange-api/client';
import type { Sandbox } from '@exchange-api/sandbox';
import { control, until } from '../client/helpers';
import { ccxtAgainstSandbox, PERP, priceOf, SUBACCOUNT, type CcxtAgainstSandbox, type Derive } from './ccxt-setup';

let run: CcxtAgainstSandbox;
let sb: Sandbox;
let exchange: Derive;

beforeAll(async () => {
  run = await ccxtAgainstSandbox();
  ({ sb, exchange } = run);
});

afterAll(async () => {
  await run?.close();
});

/** A price of the perp, rounded to its tick as ccxt signs it. */
const price = (x: number) => priceOf(exchange, x);

describe('ccxt 4.5.84 (derive) against the sandbox, unchanged', () => {
  it('loadMarkets, fetchCurrencies, fetchTime', async () => {
    const markets = await exchange.loadMarkets();
    expect(Object.keys(markets).sort()).toEqual([
      'BTC/USDC:USDC',
      'ETH/USDC',
      'ETH/USDC:USDC',
      'ETH/USDC:USDC-261231-3000-C',
    ]);
    expect(markets[PERP]).toMatchObject({ id: 'ETH-PERP', swap: true, settle: 'USDC', active: true, taker: 0.0003 });
    expect(markets[PERP]!.precision).toMatchObject({ price: 0.01, amount: 0.001 });
    expect(markets['ETH/USDC:USDC-261231-3000-C']).toMatchObject({ option: true, strike: 3000, optionType: 'call' });
    const currencies = await exchange.fetchCurrencies();
    expect(Object.keys(currencies!).sort()).toEqual(['BTC', 'ETH', 'USDC']);
    const t = await exchange.fetchTime();
    expect(Math.abs(t! - Date.now())).toBeLessThan(60_000);
  });

  it('fetchTicker, fetchFundingRate, fetchBalance', async () => {
    const ticker = await exchange.fetchTicker(PERP);
    expect(ticker.symbol).toBe(PERP);
    expect(ticker.bid).toBeGreaterThan(0);
    expect(ticker.ask).toBeGreaterThan(ticker.bid!);
    expect(ticker.markPrice).toBeGreaterThan(0);
    const funding = await exchange.fetchFundingRate(PERP);
    expect(funding).toMatchObject({ symbol: PERP, fundingRate: 0.00001 });
    const balance = await exchange.fetchBalance();
    expect(balance.USDC?.total).toBe(1_000_000);
  });

  it('createOrder, fetchOpenOrders, cancelOrder', async () => {
    const { bid } = await exchange.fetchTicker(PERP);
    const placed = await exchange.createOrder(PERP, 'limit', 'buy', 0.01, price(bid! / 2), { max_fee: '100' });
    expect(placed).toMatchObject({ symbol: PERP, side: 'buy', status: 'open', price: price(bid! / 2) });
    const open = await exchange.fetchOpenOrders(PERP);
    expect(open.map((o) => o.id)).toEqual([placed.id]);
    const cancelled = await exchange.cancelOrder(placed.id!, PERP);
    expect(cancelled).toMatchObject({ id: placed.id, status: 'canceled' });
    expect(await exchange.fetchOpenOrders(PERP)).toEqual([]);
  });

  it('a filled order: fetchMyTrades and fetchTrades show its fill', async () => {
    const { ask } = await exchange.fetchTicker(PERP);
    const filled = await exchange.createOrder(PERP, 'limit', 'buy', 0.01, price(ask! * 1.05), { max_fee: '100' });
    expect(filled.status).toBe('closed');
    const mine = await exchange.fetchMyTrades(PERP);
    expect(mine[0]).toMatchObject({ order: filled.id, side: 'buy', takerOrMaker: 'taker', amount: 0.01 });
    const tape = await exchange.fetchTrades(PERP);
    expect(tape.map((t) => t.id)).toContain(mine[0]!.id);
    expect((await exchange.fetchBalance()).USDC!.total).toBeLessThan(1_000_000);
  });

  it('watchOrderBook, watchTicker over the WebSocket', async () => {
    const book = await exchange.watchOrderBook(PERP);
    expect(book.symbol).toBe(PERP);
    expect(book.bids[0]![0]).toBeLessThan(book.asks[0]![0]!);
    const ticker = await exchange.watchTicker(PERP);
    expect(ticker).toMatchObject({ symbol: PERP });
    expect(ticker.bid).toBeGreaterThan(0);
  });

  it('watchOrders: ccxt logs in on the socket and sees a new order', async () => {
    const seen = exchange.watchOrders(PERP);
    // ccxt logs in and subscribes lazily: wait until the sandbox holds the subscription, then act.
    await until(
      async () =>
        (await control(sb, 'connections')).some((c: { subscriptions: string[] }) =>
          c.subscriptions.includes(`${SUBACCOUNT}.orders`),
        ),
      30_000,
      `ccxt's subscription to ${SUBACCOUNT}.orders`,
    );
    const { bid } = await exchange.fetchTicker(PERP);
    const placed = await exchange.createOrder(PERP, 'limit', 'buy', 0.01, price(bid! / 2), { max_fee: '100' });
    const orders = await seen;
    expect(orders.map((o) => [o.id, o.status])).toContainEqual([placed.id, 'open']);
    await exchange.cancelOrder(placed.id!, PERP);
  });

  it(
    'watchTrades: ccxt reads the pushed array with safeDict, so it resolves [] ' +
      "though the sandbox pushes trades (ccxt's bug)",
    async () => {
      // pro/derive.js handleTrade: `this.safeDict(params, 'data', {})` turns the document's array of
      // PublicTrade into {}, whose loop never runs. No payload the document allows could make it work.
      const ours: ExchangeClient = createClient({ wsUrl: sb.wsUrl, validate: 'strict' });
      const pushed: unknown[][] = [];
      await ours.connect();
      await ours.subscribe('trades.ETH-PERP', (list) => pushed.push(list));
      const trades = await exchange.watchTrades(PERP);
      await until(() => pushed.some((l) => l.length > 0), 30_000, 'a pushed trade');
      await ours.close();
      expect(trades).toEqual([]);
    },
  );
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import { channels, matchChannel, fillAddress, channelTable, methodTable } from '../src/index';
import type {
  PayloadOf,
  ChannelAddress,
  OrderbookPayload,
  PublicTrade,
  Order,
  Methods,
  BalanceUpdate,
  PublicRfq,
} from '../src/index';

describe('typed channel addresses (checked by tsc in the build)', () => {
  it('a literal address resolves to its payload type; a parameter outside its enumeration is a type error', () => {
    expectTypeOf<PayloadOf<'orderbook.ETH-PERP.10.20'>>().toEqualTypeOf<OrderbookPayload>();
    expectTypeOf<PayloadOf<'trades.ETH-PERP'>>().toEqualTypeOf<PublicTrade[]>();
    expectTypeOf<PayloadOf<'trades.perp.ETH'>>().toEqualTypeOf<PublicTrade[]>();
    expectTypeOf<PayloadOf<'1042.orders'>>().toEqualTypeOf<Order[]>();
    expectTypeOf<PayloadOf<'1042.balances'>>().toEqualTypeOf<BalanceUpdate[]>();
    expectTypeOf<PayloadOf<'0x8Ba1f109551bD432803012645Ac136ddd64DBA72.rfqs'>>().toEqualTypeOf<PublicRfq[]>();
    expectTypeOf<PayloadOf<'orderbook.ETH-PERP.7.20'>>().toEqualTypeOf<never>();

    const ok: ChannelAddress = 'orderbook.ETH-PERP.10.20';
    // @ts-expect-error group must be 1, 10 or 100
    const badGroup: ChannelAddress = 'orderbook.ETH-PERP.7.20';
    // @ts-expect-error depth must be 1, 10, 20 or 100
    const badDepth: ChannelAddress = 'orderbook.ETH-PERP.10.5';
    // @ts-expect-error interval must be 100 or 1000
    const badInterval: ChannelAddress = 'ticker_slim.ETH-PERP.50';
    expect([ok, badGroup, badDepth, badInterval]).toHaveLength(4);
  });

  it('builders return the address typed with its payload', () => {
    const address = channels.orderbook({ instrument_name: 'ETH-PERP', group: 10, depth: '20' });
    expect(address).toBe('orderbook.ETH-PERP.10.20');
    expectTypeOf(address).toEqualTypeOf<'orderbook.ETH-PERP.10.20'>();
    expectTypeOf<PayloadOf<typeof address>>().toEqualTypeOf<OrderbookPayload>();
    const orders = channels.subaccountOrders({ subaccount_id: 1042 });
    expect(orders).toBe('1042.orders');
    expectTypeOf<PayloadOf<typeof orders>>().toEqualTypeOf<Order[]>();
    expect(channels.auctionsWatch()).toBe('auctions.watch');
    // @ts-expect-error group 7 is not allowed
    channels.orderbook({ instrument_name: 'ETH-PERP', group: 7, depth: 20 });
    // @ts-expect-error instrument_type must be erc20, option or perp
    channels.tradesByType({ instrument_type: 'future', currency: 'ETH' });
  });

  it('the method map types params and result by method name', () => {
    expectTypeOf<Methods['public/login']['result']>().toEqualTypeOf<number[]>();
    expectTypeOf<
      Methods['public/getRateLimits']['result']['remaining_matching']['msBeforeNext']
    >().toEqualTypeOf<number>();
    expectTypeOf<Methods['private/order']['assumedResult']['order']>().toEqualTypeOf<Order>();
  });
});

describe('matching an address to its channel at run time (from the tables)', () => {
  it.each([
    ['orderbook.ETH-PERP.10.20', 'orderbook', { instrument_name: 'ETH-PERP', group: '10', depth: '20' }],
    ['trades.ETH-PERP', 'trades', { instrument_name: 'ETH-PERP' }],
    ['trades.perp.ETH', 'tradesByType', { instrument_type: 'perp', currency: 'ETH' }],
    [
      'trades.perp.ETH.Settled',
      'tradesByTypeBatch',
      { instrument_type: 'perp', currency: 'ETH', batch_status: 'Settled' },
    ],
    ['1042.trades.Settled', 'subaccountTradesBatch', { subaccount_id: '1042', batch_status: 'Settled' }],
    ['1042.trades', 'subaccountTrades', { subaccount_id: '1042' }],
    ['1042.best.quotes', 'subaccountBestQuotes', { subaccount_id: '1042' }],
    ['1042.quotes', 'subaccountQuotes', { subaccount_id: '1042' }],
    ['ticker_slim.BTC-PERP.1000', 'tickerSlim', { instrument_name: 'BTC-PERP', interval: '1000' }],
    ['auctions.watch', 'auctionsWatch', {}],
  ])('%s → %s', (address, id, params) => {
    const m = matchChannel(address);
    expect(m?.channel.id).toBe(id);
    expect(m?.params).toEqual(params);
  });

  it.each([
    'orderbook.ETH-PERP.7.20',
    'ticker_slim.ETH-PERP.50',
    'nothing',
    'trades.future.ETH.x',
    'trades.perp.ETH.Done',
    '1042.trades.Done',
  ])('%s matches nothing', (address) => {
    expect(matchChannel(address)).toBeNull();
  });

  it('fills a template and names a missing value', () => {
    expect(
      fillAddress('orderbook.{instrument_name}.{group}.{depth}', { instrument_name: 'BTC-PERP', group: 1, depth: 100 }),
    ).toBe('orderbook.BTC-PERP.1.100');
    expect(() => fillAddress('trades.{instrument_name}', {})).toThrow(/no value for \{instrument_name\}/);
  });

  it(
    "the tables carry the document's 13 channels and the clients' 2, and the " +
      'documented methods under their wire names',
    () => {
      expect(channelTable).toHaveLength(15);
      expect(methodTable.find((m) => m.name === 'private/cancel_all')).toMatchObject({
        rateLimitClass: 'endpoint',
        rateLimitBudget: 'cancel_all',
        rateLimitKey: 'cancel_all',
        actionModule: null,
        orderFlow: true,
      });
      expect(methodTable.find((m) => m.name === 'private/order')).toMatchObject({ actionModule: 'trade' });
    },
  );
});

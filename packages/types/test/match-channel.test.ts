/**
 * The one address matcher, table-driven: addresses that must match (and the parameters they carry)
 * and addresses that must not, against this API's channel table and against small templates of
 * another API. The generator, the client, the sandbox and the runner all match through it.
 */
import { describe, expect, it } from 'vitest';
import { channelMatcher, matchChannel, templateParameters, templatePattern, type ChannelTemplate } from '../src/index';

describe("this API's addresses (the generated channel table)", () => {
  it.each([
    ['orderbook.ETH-PERP.10.20', 'orderbook', { instrument_name: 'ETH-PERP', group: '10', depth: '20' }],
    ['orderbook.BTC-PERP.1.100', 'orderbook', { instrument_name: 'BTC-PERP', group: '1', depth: '100' }],
    ['trades.ETH-PERP', 'trades', { instrument_name: 'ETH-PERP' }],
    ['trades.perp.ETH', 'tradesByType', { instrument_type: 'perp', currency: 'ETH' }],
    ['trades.option.BTC', 'tradesByType', { instrument_type: 'option', currency: 'BTC' }],
    ['1042.orders', 'subaccountOrders', { subaccount_id: '1042' }],
    ['1042.best.quotes', 'subaccountBestQuotes', { subaccount_id: '1042' }],
    ['1042.quotes', 'subaccountQuotes', { subaccount_id: '1042' }],
    ['ticker_slim.BTC-PERP.1000', 'tickerSlim', { instrument_name: 'BTC-PERP', interval: '1000' }],
    ['auctions.watch', 'auctionsWatch', {}],
    ['margin.watch', 'marginWatch', {}],
    [
      '0x8Ba1f109551bD432803012645Ac136ddd64DBA72.rfqs',
      'walletRfqs',
      { wallet: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72' },
    ],
  ])('%s matches %s', (address, id, params) => {
    const m = matchChannel(address);
    expect(m?.channel.id).toBe(id);
    expect(m?.params).toEqual(params);
  });

  it.each([
    ['orderbook.ETH-PERP.7.20', 'a group outside its enumeration'],
    ['orderbook.ETH-PERP.10.5', 'a depth outside its enumeration'],
    ['ticker_slim.ETH-PERP.50', 'an interval outside its enumeration'],
    ['trades.future.ETH.x', 'one segment too many'],
    ['orderbook.ETH-PERP.10', 'one segment too few'],
    ['trades.', 'an empty parameter'],
    ['trades.ETH PERP', 'white space inside a parameter'],
    ['trades.ETH-PERP ', 'trailing white space'],
    [' trades.ETH-PERP', 'leading white space'],
    ['trades.ETH-PERP\n', 'a trailing newline'],
    ['trades.ETH\u0000PERP', 'a control character'],
    ['TRADES.ETH-PERP', 'literal text in another case'],
    ['tradesXETH-PERP', 'a dot in the template is a dot, not any character'],
    ['auctions.watch.x', 'a literal address with more after it'],
    ['', 'the empty address'],
    ['nothing', 'no template at all'],
  ])('%j does not match (%s)', (address) => {
    expect(matchChannel(address)).toBeNull();
  });

  it('answers null, not an exception, for a value that is not a string', () => {
    expect(matchChannel(42 as unknown as string)).toBeNull();
    expect(matchChannel(undefined as unknown as string)).toBeNull();
  });
});

describe('templates of another API', () => {
  const templates: ChannelTemplate[] = [
    {
      address: '{region}.{kind}',
      parameters: [
        { name: 'region', enum: null },
        { name: 'kind', enum: null },
      ],
    },
    {
      address: 'parcels.{region}.{priority}',
      parameters: [
        { name: 'priority', enum: ['low', 'high'] },
        { name: 'region', enum: null },
      ],
    },
    { address: 'parcels.eu.{priority}', parameters: [{ name: 'priority', enum: ['low', 'high'] }] },
    { address: 'price(usd)+.{pair}', parameters: [{ name: 'pair', enum: null }] },
  ];
  const match = channelMatcher(templates);

  it.each([
    ['parcels.us.high', 'parcels.{region}.{priority}', { region: 'us', priority: 'high' }],
    ['parcels.eu.low', 'parcels.eu.{priority}', { priority: 'low' }],
    ['parcels.eu', '{region}.{kind}', { region: 'parcels', kind: 'eu' }],
    ['price(usd)+.BTC', 'price(usd)+.{pair}', { pair: 'BTC' }],
  ])('%s matches %s (the most specific template wins, whatever the list order)', (address, template, params) => {
    expect(match(address)?.channel.address).toBe(template);
    expect(match(address)?.params).toEqual(params);
    expect(channelMatcher([...templates].reverse())(address)?.channel.address).toBe(template);
  });

  it.each(['parcels.us.urgent', 'price(usd)+.', 'a.b.c.d', 'parcels..high'])('%s matches nothing', (address) => {
    expect(match(address)).toBeNull();
  });

  it.each(['priceusdusd.BTC', 'price(usd).BTC', 'price(usd)+XBTC'])(
    'literal text is literal, never a pattern: %s does not fit price(usd)+.{pair}',
    (address) => {
      expect(channelMatcher([templates[3]!])(address)).toBeNull();
    },
  );

  it('captures parameters in the order they stand in the address, whatever order the list gives', () => {
    expect(templateParameters('parcels.{region}.{priority}')).toEqual(['region', 'priority']);
    expect(templatePattern(templates[1]!).exec('parcels.us.low')?.slice(1)).toEqual(['us', 'low']);
  });
});

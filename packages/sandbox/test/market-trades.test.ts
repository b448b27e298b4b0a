/**
 * The private trade record links each fill to its order (the private-trade assumption): every field
 * the spec's Trade lists is present, `order_id` is the order that filled, and the public channels
 * show the PublicTrade without it.
 */
import { describe, expect, it } from 'vitest';
import { recordTable } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import { Client, newWallet, signed, start, quietMarket } from './helpers';

// A quiet market: TEST-PERP best bid 99.98, best ask 100.02.
const quiet = quietMarket;
const fields = { instrument_name: 'TEST-PERP', order_type: 'limit', max_fee: '10' };
const tradeFields = recordTable.find((t) => t.name === 'Trade')!.fields.map((f) => f.name);

async function trader(url: string) {
  const w = newWallet();
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  await c.call('subscribe', { channels: [`${sub}.orders`, `${sub}.trades`] });
  return { w, c, sub: sub! };
}

describe('private trades name their order', () => {
  it('the spec lists order_id among the fields of Trade', () => {
    expect(tradeFields).toEqual(
      expect.arrayContaining([
        'order_id',
        'trade_id',
        'instrument_name',
        'direction',
        'trade_price',
        'trade_amount',
        'trade_fee',
        'liquidity_role',
        'timestamp',
        'subaccount_id',
      ]),
    );
  });

  it('links every fill, maker and taker, to its order; the public record does not carry it', async () => {
    const sb = await start(quiet);
    const maker = await trader(sb.wsUrl);
    const taker = await trader(sb.wsUrl);
    await taker.c.call('subscribe', { channels: ['trades.TEST-PERP'] });
    const bid = (
      await maker.c.call(
        'private/order',
        await signed(maker.w, 'private/order', {
          ...fields,
          subaccount_id: maker.sub,
          direction: 'buy',
          amount: '1',
          limit_price: '99.99',
          label: 'bid',
        }),
      )
    ).order;
    // The sell takes the maker's bid at 99.99, then the synthetic bid at 99.98.
    const sell = await taker.c.call(
      'private/order',
      await signed(taker.w, 'private/order', {
        ...fields,
        subaccount_id: taker.sub,
        direction: 'sell',
        amount: '1.5',
        limit_price: '99.98',
        label: 'out',
      }),
    );
    expect(sell.order.order_status).toBe('filled');
    expect(sell.trades).toHaveLength(2);
    expect(validators.assumedResults['private/order'](sell)).toBe(true);
    for (const t of sell.trades) {
      expect(Object.keys(t)).toEqual(expect.arrayContaining(tradeFields));
      expect(t).toMatchObject({
        order_id: sell.order.order_id,
        label: 'out',
        is_transfer: false,
        liquidity_role: 'taker',
        subaccount_id: taker.sub,
      });
    }
    const pushed = (await taker.c.nextPush(`${taker.sub}.trades`)).concat(
      await taker.c.nextPush(`${taker.sub}.trades`, 2000, (d) => d[0].trade_id === sell.trades[1].trade_id),
    );
    expect(validators.channels.subaccountTrades(pushed)).toBe(true);
    expect(pushed.map((t: any) => t.order_id)).toEqual([sell.order.order_id, sell.order.order_id]);

    const makerTrades = await maker.c.nextPush(`${maker.sub}.trades`);
    expect(validators.channels.subaccountTrades(makerTrades)).toBe(true);
    expect(Object.keys(makerTrades[0])).toEqual(expect.arrayContaining(tradeFields));
    expect(makerTrades[0]).toMatchObject({
      order_id: bid.order_id,
      label: 'bid',
      liquidity_role: 'maker',
      trade_id: sell.trades[0].trade_id,
      trade_amount: '1',
    });
    const filled = await maker.c.nextPush(`${maker.sub}.orders`, 2000, (d) => d[0].order_status === 'filled');
    expect(filled[0].order_id).toBe(makerTrades[0].order_id);

    // Nothing more is coming: the sandbox answers a socket in order, so a round trip flushes what it sent.
    await taker.c.roundTrip();
    const shown = taker.c.pushes('trades.TEST-PERP').flat();
    expect(shown).toHaveLength(2);
    for (const t of shown) {
      expect(validators.schemas.PublicTrade(t)).toBe(true);
      expect(t).not.toHaveProperty('order_id');
    }
  });
});

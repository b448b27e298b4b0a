/**
 * `replace` is all or nothing: when the new order fails any check (post_only crossing, fok not
 * fillable, margin), the old order stays open and nothing is pushed.
 */
import { describe, expect, it } from 'vitest';
import { errorByName } from '@exchange-api/types';
import { Client, newWallet, signed, start, quietMarket } from './helpers';

const REJECTED = errorByName('RPC_ORDER_REJECTED');
const NOT_FOUND = errorByName('RPC_ORDER_NOT_FOUND');

// A quiet market: TEST-PERP best bid 99.98, best ask 100.02.
const quiet = quietMarket;
const fields = { instrument_name: 'TEST-PERP', order_type: 'limit', max_fee: '1' };

describe('replace is all or nothing', () => {
  for (const [name, change, reason] of [
    ['post_only would cross', { limit_price: '101', time_in_force: 'post_only' }, /post_only/],
    ['fok cannot be filled', { limit_price: '99.99', time_in_force: 'fok' }, /fok/],
    ['insufficient margin', { amount: '10000000000000' }, /insufficient margin/],
  ] as const) {
    it(`a replace refused because ${name} keeps the old order open and pushes nothing`, async () => {
      const sb = await start(quiet);
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      await c.call('subscribe', { channels: [`${sub}.orders`] });
      const old = (
        await c.call(
          'private/order',
          await signed(w, 'private/order', {
            ...fields,
            subaccount_id: sub!,
            direction: 'buy',
            amount: '1',
            limit_price: '90',
          }),
        )
      ).order;
      await c.nextPush(`${sub}.orders`);
      const before = c.pushes(`${sub}.orders`).length;
      const replacement: Record<string, unknown> = Object.assign(
        { ...fields, direction: 'buy', amount: '1', limit_price: '91' },
        change,
      );
      const reply = await c.request(
        'private/replace',
        await signed(w, 'private/replace', { ...replacement, subaccount_id: sub!, order_id_to_cancel: old.order_id }),
      );
      expect(reply.error).toMatchObject({ code: REJECTED.code, data: expect.stringMatching(reason) });
      // Nothing more is coming: the sandbox answers a socket in order, so a round trip flushes what it sent.
      await c.roundTrip();
      expect(c.pushes(`${sub}.orders`).slice(before), 'nothing pushed for a refused replace').toEqual([]);
      // The old order is still open: it can be cancelled, once.
      const cancelled = await c.call(
        'private/cancel',
        await signed(w, 'private/cancel', {
          subaccount_id: sub!,
          instrument_name: 'TEST-PERP',
          order_id: old.order_id,
        }),
      );
      expect(cancelled).toMatchObject({ order_id: old.order_id, order_status: 'cancelled' });
    });
  }

  it('a replace of an order that is not open is refused with RPC_ORDER_NOT_FOUND and places nothing', async () => {
    const sb = await start(quiet);
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    await c.call('subscribe', { channels: [`${sub}.orders`] });
    const reply = await c.request(
      'private/replace',
      await signed(w, 'private/replace', {
        ...fields,
        subaccount_id: sub!,
        direction: 'buy',
        amount: '1',
        limit_price: '91',
        order_id_to_cancel: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      }),
    );
    expect(reply.error.code).toBe(NOT_FOUND.code);
    await c.roundTrip();
    expect(c.pushes(`${sub}.orders`)).toEqual([]);
  });

  it('a replace may turn a resting sell into a buy at its price without trading against itself', async () => {
    const sb = await start(quiet);
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const old = (
      await c.call(
        'private/order',
        await signed(w, 'private/order', {
          ...fields,
          subaccount_id: sub!,
          direction: 'sell',
          amount: '1',
          limit_price: '100.01',
        }),
      )
    ).order;
    const rep = await c.call(
      'private/replace',
      await signed(w, 'private/replace', {
        ...fields,
        subaccount_id: sub!,
        direction: 'buy',
        amount: '1',
        limit_price: '100.01',
        order_id_to_cancel: old.order_id,
      }),
    );
    expect(rep.cancelled_order).toMatchObject({ order_id: old.order_id, order_status: 'cancelled' });
    expect(rep.trades).toEqual([]);
    expect(rep.order).toMatchObject({ order_status: 'open', replaced_order_id: old.order_id });
  });
});

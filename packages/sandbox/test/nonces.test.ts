import { describe, expect, it } from 'vitest';
import { loginHeaders, newNonce, signLogin } from '@exchange-api/auth';
import { Client, newWallet, post, signed, start, quietMarket } from './helpers';

// A quiet market with one instrument; orders below the book rest, so each accepted one stays open.
const quiet = quietMarket;
const order = {
  instrument_name: 'TEST-PERP',
  order_type: 'limit',
  max_fee: '1',
  direction: 'buy',
  amount: '1',
  limit_price: '90',
};

// The signed Action holds the nonce as a uint256, so one signature holds for every spelling of it.
const spellings = (n: string) => [`0${n}`, `00${n}`, `000000${n}`];

describe('a nonce is used once as the number it signs, however it is spelled', () => {
  it('over the WebSocket: one signature, one order; cancel_by_nonce finds it by any spelling', async () => {
    const sb = await start(quiet);
    try {
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const nonce = newNonce();
      const params = await signed(w, 'private/order', { ...order, subaccount_id: sub! }, { nonce });
      expect((await c.call('private/order', params)).order).toMatchObject({ order_status: 'open', nonce });
      for (const spelt of spellings(nonce)) {
        const replay = await c.request('private/order', { ...params, nonce: spelt });
        expect(replay.error, `nonce spelled ${spelt}`).toMatchObject({
          code: 14004,
          data: `nonce ${nonce} was already used by ${w.address}`,
        });
      }
      expect((await c.call('private/get_open_orders', { subaccount_id: sub })).orders).toHaveLength(1);
      const cancelled = await c.call('private/cancel_by_nonce', {
        subaccount_id: sub,
        instrument_name: 'TEST-PERP',
        nonce: `00${nonce}`,
      });
      expect(cancelled).toEqual({ cancelled_orders: 1 });
    } finally {
      await sb.close();
    }
  });

  it('a JSON number and its string are one nonce', async () => {
    const sb = await start(quiet);
    try {
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const params = await signed(w, 'private/order', { ...order, subaccount_id: sub! }, { nonce: '1767225600123' });
      expect((await c.call('private/order', { ...params, nonce: 1767225600123 })).order.nonce).toBe('1767225600123');
      expect((await c.request('private/order', { ...params, nonce: '01767225600123' })).error.code).toBe(14004);
    } finally {
      await sb.close();
    }
  });

  it('over HTTP, and across WebSocket and HTTP', async () => {
    const sb = await start(quiet);
    try {
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const nonce = newNonce();
      const params = await signed(w, 'private/order', { ...order, subaccount_id: sub! }, { nonce });
      const send = async (body: unknown) => post(sb, '/v3/private/order', body, loginHeaders(await signLogin(w)));
      const first = await send({ ...params, nonce: `0${nonce}` });
      expect(first.json.result.order.order_status).toBe('open');
      for (const spelt of [nonce, ...spellings(nonce)]) {
        const replay = await send({ ...params, nonce: spelt });
        expect(replay.json.error, `nonce spelled ${spelt}`).toMatchObject({ code: 14004 });
      }
      expect((await c.request('private/order', params)).error.code).toBe(14004);
      expect((await c.call('private/get_open_orders', { subaccount_id: sub })).orders).toHaveLength(1);
    } finally {
      await sb.close();
    }
  });
});

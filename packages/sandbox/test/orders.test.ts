import { describe, expect, it } from 'vitest';
import { validators } from '@exchange-api/validators';
import { defaultActionLayout, deploymentsOf, newNonce, signAction } from '@exchange-api/auth';
import { Client, newWallet, signed, start, quietMarket } from './helpers';

// A quiet market (no ticks during the test) with one instrument at a known price: best bid 99.98, best ask 100.02.
const quiet = quietMarket;
const fields = { instrument_name: 'TEST-PERP', order_type: 'limit', max_fee: '1' };

async function trader(url: string) {
  const w = newWallet();
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  await c.call('subscribe', { channels: [`${sub}.orders`, `${sub}.trades`, `${sub}.balances`] });
  return { w, c, sub: sub! };
}

describe('order flow', () => {
  it('rests an order, pushes it on .orders, and cancels it', async () => {
    const sb = await start(quiet);
    const { w, c, sub } = await trader(sb.wsUrl);
    const res = await c.call(
      'private/order',
      await signed(w, 'private/order', {
        ...fields,
        subaccount_id: sub,
        direction: 'buy',
        amount: '1',
        limit_price: '90',
        label: 'L',
      }),
    );
    expect(validators.assumedResults['private/order'](res)).toBe(true);
    expect(res.order).toMatchObject({
      order_status: 'open',
      filled_amount: '0',
      limit_price: '90',
      label: 'L',
      subaccount_id: sub,
      signer: w.address,
    });
    expect(res.trades).toEqual([]);
    const pushed = await c.nextPush(`${sub}.orders`);
    expect(pushed[0].order_id).toBe(res.order.order_id);
    const cancelled = await c.call(
      'private/cancel',
      await signed(w, 'private/cancel', {
        subaccount_id: sub,
        instrument_name: 'TEST-PERP',
        order_id: res.order.order_id,
      }),
    );
    expect(validators.assumedResults['private/cancel'](cancelled)).toBe(true);
    expect(cancelled).toMatchObject({ order_status: 'cancelled', cancel_reason: 'user_request' });
    await c.nextPush(`${sub}.orders`, 2000, (d) => d[0].order_status === 'cancelled');
    const again = await c.request(
      'private/cancel',
      await signed(w, 'private/cancel', {
        subaccount_id: sub,
        instrument_name: 'TEST-PERP',
        order_id: res.order.order_id,
      }),
    );
    expect(again.error.code).toBe(11001);
  });

  it('matches against the simulated book and pushes .orders, .trades, .balances and the public trades', async () => {
    const sb = await start(quiet);
    const { w, c, sub } = await trader(sb.wsUrl);
    await c.call('subscribe', { channels: ['trades.TEST-PERP', 'trades.perp.TST'] });
    const res = await c.call(
      'private/order',
      await signed(w, 'private/order', {
        ...fields,
        subaccount_id: sub,
        direction: 'buy',
        amount: '0.5',
        limit_price: '100.5',
      }),
    );
    expect(res.order.order_status).toBe('filled');
    expect(res.trades.length).toBeGreaterThan(0);
    expect(res.trades[0]).toMatchObject({
      liquidity_role: 'taker',
      direction: 'buy',
      subaccount_id: sub,
      wallet: w.address,
    });
    expect(Number(res.trades[0].trade_price)).toBeCloseTo(100.02, 5);
    const trades = await c.nextPush(`${sub}.trades`);
    expect(validators.channels.subaccountTrades(trades)).toBe(true);
    const balances = await c.nextPush(`${sub}.balances`);
    expect(validators.channels.subaccountBalances(balances)).toBe(true);
    expect(balances.find((b: any) => b.name === 'TEST-PERP').new_balance).toBe('0.5');
    const filled = await c.nextPush(`${sub}.orders`, 2000, (d) => d[0].order_status === 'filled');
    expect(validators.channels.subaccountOrders(filled)).toBe(true);
    expect(validators.channels.trades(await c.nextPush('trades.TEST-PERP'))).toBe(true);
    expect(validators.channels.tradesByType(await c.nextPush('trades.perp.TST'))).toBe(true);
  });

  it('matches two users: maker and taker both see their fills', async () => {
    const sb = await start(quiet);
    const a = await trader(sb.wsUrl);
    const b = await trader(sb.wsUrl);
    const bid = await a.c.call(
      'private/order',
      await signed(a.w, 'private/order', {
        ...fields,
        subaccount_id: a.sub,
        direction: 'buy',
        amount: '2',
        limit_price: '100',
      }),
    );
    expect(bid.order.order_status).toBe('open');
    const sell = await b.c.call(
      'private/order',
      await signed(b.w, 'private/order', {
        ...fields,
        subaccount_id: b.sub,
        direction: 'sell',
        amount: '1',
        limit_price: '100',
        time_in_force: 'ioc',
      }),
    );
    expect(sell.order).toMatchObject({ order_status: 'filled', filled_amount: '1', average_price: '100' });
    const makerTrades = await a.c.nextPush(`${a.sub}.trades`);
    expect(makerTrades[0]).toMatchObject({
      liquidity_role: 'maker',
      direction: 'buy',
      trade_amount: '1',
      trade_id: sell.trades[0].trade_id,
    });
    const partial = await a.c.nextPush(`${a.sub}.orders`, 2000, (d) => d[0].filled_amount === '1');
    expect(partial[0].order_status).toBe('open');
  });

  it('replace, cancel_by_nonce, cancel_by_label, cancel_by_instrument, cancel_all', async () => {
    const sb = await start(quiet);
    const { w, c, sub } = await trader(sb.wsUrl);
    const place = async (price: string, extra: Record<string, unknown> = {}) =>
      (
        await c.call(
          'private/order',
          await signed(w, 'private/order', {
            ...fields,
            subaccount_id: sub,
            direction: 'buy',
            amount: '1',
            limit_price: price,
            ...extra,
          }),
        )
      ).order;
    const o1 = await place('90');
    const rep = await c.call(
      'private/replace',
      await signed(w, 'private/replace', {
        ...fields,
        subaccount_id: sub,
        direction: 'buy',
        amount: '1',
        limit_price: '91',
        order_id_to_cancel: o1.order_id,
      }),
    );
    expect(validators.assumedResults['private/replace'](rep)).toBe(true);
    expect(rep.cancelled_order.order_status).toBe('cancelled');
    expect(rep.order.replaced_order_id).toBe(o1.order_id);
    const o3 = await place('92');
    const byNonce = await c.call(
      'private/cancel_by_nonce',
      await signed(w, 'private/cancel_by_nonce', {
        subaccount_id: sub,
        instrument_name: 'TEST-PERP',
        nonce: o3.nonce,
      }),
    );
    expect(byNonce).toEqual({ cancelled_orders: 1 });
    await place('93', { label: 'grid' });
    await place('94', { label: 'grid' });
    expect(
      await c.call(
        'private/cancel_by_label',
        await signed(w, 'private/cancel_by_label', { subaccount_id: sub, label: 'grid' }),
      ),
    ).toEqual({ cancelled_orders: 2 });
    await place('95');
    expect(
      await c.call(
        'private/cancel_by_instrument',
        await signed(w, 'private/cancel_by_instrument', { subaccount_id: sub, instrument_name: 'TEST-PERP' }),
      ),
    ).toEqual({ cancelled_orders: 2 });
    await place('96');
    expect((await c.call('private/get_open_orders', { subaccount_id: sub })).orders).toHaveLength(1);
    expect(await c.call('private/cancel_all', await signed(w, 'private/cancel_all', { subaccount_id: sub }))).toBe(
      'ok',
    );
    expect((await c.call('private/get_open_orders', { subaccount_id: sub })).orders).toEqual([]);
  });

  it(
    "a cancel carries no action signature: the login authorises it, for the caller's " + 'own subaccounts only',
    async () => {
      const sb = await start(quiet);
      const a = await trader(sb.wsUrl);
      const b = await trader(sb.wsUrl);
      const { order } = await a.c.call(
        'private/order',
        await signed(a.w, 'private/order', {
          ...fields,
          subaccount_id: a.sub,
          direction: 'buy',
          amount: '1',
          limit_price: '90',
        }),
      );
      const foreign = await b.c.request('private/cancel', {
        subaccount_id: a.sub,
        instrument_name: 'TEST-PERP',
        order_id: order.order_id,
      });
      expect(foreign.error).toMatchObject({ code: 14003, data: expect.stringMatching(/not one of the caller's/) });
      expect(await b.c.request('private/cancel_all', { subaccount_id: a.sub })).toMatchObject({
        error: { code: 14003 },
      });
      const own = await a.c.call('private/cancel', {
        subaccount_id: a.sub,
        instrument_name: 'TEST-PERP',
        order_id: order.order_id,
      });
      expect(own).toMatchObject({ order_id: order.order_id, order_status: 'cancelled', cancel_reason: 'user_request' });
    },
  );

  it(
    'refuses bad action signatures (14004), foreign subaccounts (14003), bad ' + 'orders (11000), and needs login',
    async () => {
      const w = newWallet();
      const key = newWallet();
      const sb = await start({ ...quiet, sessionKeys: [{ address: key.address, wallet: w.address }] });
      const c = await Client.connect(sb.wsUrl);
      const order = { ...fields, direction: 'buy', amount: '1', limit_price: '90' };
      expect(
        (
          await c.request('private/order', {
            ...order,
            subaccount_id: 1,
            nonce: '1',
            signer: w.address,
            signature: '0x' + '11'.repeat(65),
            signature_expiry_sec: 9e9,
          })
        ).error.code,
      ).toBe(14000);
      const [sub] = await c.login(w);
      const stranger = newWallet();
      const wrongSigner = await signed(stranger, 'private/order', { ...order, subaccount_id: sub! });
      expect((await c.request('private/order', wrongSigner)).error.code).toBe(14004);
      const good = await signed(w, 'private/order', { ...order, subaccount_id: sub! });
      expect((await c.request('private/order', { ...good, limit_price: '80' })).error.code).toBe(14004);
      expect((await c.request('private/order', { ...good, signer: stranger.address })).error.code).toBe(14004);
      // Signed for another wallet (owner), or for a deployment the sandbox does not accept (ccxt's mainnet).
      const otherOwner = await signed(
        w,
        'private/order',
        { ...order, subaccount_id: sub! },
        { owner: stranger.address },
      );
      expect((await c.request('private/order', otherOwner)).error.code).toBe(14004);
      const mainnet = { ...defaultActionLayout, deployment: deploymentsOf('mainnet')[1]! };
      const offNet = await signAction(
        w,
        'private/order',
        { ...order, subaccount_id: sub!, nonce: newNonce(), signature_expiry_sec: 9e9 },
        { instrument: { base_asset_address: good.signer as string, base_asset_sub_id: '0' }, layout: mainnet },
      );
      expect((await c.request('private/order', offNet)).error).toMatchObject({
        code: 14004,
        data: expect.stringMatching(/under any accepted deployment/),
      });
      const expired = await signed(
        w,
        'private/order',
        { ...order, subaccount_id: sub! },
        { expiry: Math.floor(Date.now() / 1000) - 1 },
      );
      expect((await c.request('private/order', expired)).error.code).toBe(14004);
      expect((await c.request('private/order', good)).result.order.order_status).toBe('open');
      const reused = await c.request('private/order', good);
      expect(reused.error).toMatchObject({ code: 14004, data: expect.stringMatching(/nonce/) });
      // A session key of the wallet may sign.
      expect(
        (
          await c.request(
            'private/order',
            await signed(
              key,
              'private/order',
              { ...order, subaccount_id: sub! },
              { nonce: '77', expiry: 9e9, owner: w.address },
            ),
          )
        ).result,
      ).toBeDefined();
      const foreign = await signed(w, 'private/order', { ...order, subaccount_id: 424242 });
      expect((await c.request('private/order', foreign)).error.code).toBe(14003);
      const unknown = await c.request(
        'private/order',
        await signed(w, 'private/order', { ...order, subaccount_id: sub!, instrument_name: 'NOPE-PERP' }),
      );
      expect(unknown.error).toMatchObject({
        code: 11000,
        message: 'Order rejected',
        data: expect.stringMatching(/unknown instrument/),
      });
      const offTick = await c.request(
        'private/order',
        await signed(w, 'private/order', { ...order, subaccount_id: sub!, limit_price: '90.001' }),
      );
      expect(offTick.error.data).toMatch(/tick_size/);
      const crossing = await c.request(
        'private/order',
        await signed(w, 'private/order', {
          ...order,
          subaccount_id: sub!,
          limit_price: '101',
          time_in_force: 'post_only',
        }),
      );
      // Without reject_post_only: true the venue would reprice it; the sandbox says it does not.
      expect(crossing.error.data).toMatch(/^post_only order would cross the book at .*\(reject_post_only: /);
      const rejecting = await c.request(
        'private/order',
        await signed(w, 'private/order', {
          ...order,
          subaccount_id: sub!,
          limit_price: '101',
          time_in_force: 'post_only',
          reject_post_only: true,
        }),
      );
      expect(rejecting.error.data).toMatch(/^post_only order would cross the book at [0-9.]+$/);
      const badParams = await c.request('private/order', { ...good, direction: 'up' });
      expect(badParams.error).toMatchObject({ code: -32602, data: expect.stringMatching(/\/direction: enum/) });
    },
  );
});

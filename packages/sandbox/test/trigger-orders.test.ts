import { describe, expect, it } from 'vitest';
import { loginHeaders, signLogin } from '@exchange-api/auth';
import { validators, type ValidateFunction } from '@exchange-api/validators';
import { Client, control, newWallet, post, quietMarket, signed, start } from './helpers';

// One instrument at 100 (best bid 99.98, best ask 100.02), no tick during a test; the control plane
// moves the mark, so a trigger is crossed exactly when the test says and never before.
const options = { ...quietMarket, control: true };
const base = { instrument_name: 'TEST-PERP', order_type: 'limit', max_fee: '1', amount: '1' };
const stopSell = { ...base, direction: 'sell', limit_price: '80', trigger_type: 'stoploss', trigger_price: '95' };
const valid = (method: string, result: unknown) => {
  const table = { ...validators.results, ...validators.assumedResults } as Record<string, ValidateFunction>;
  const ok = table[method];
  expect(ok, method).toBeTypeOf('function');
  expect(ok!(result), `${method}: ${JSON.stringify(ok!.errors)}`).toBe(true);
};

async function trader() {
  const sb = await start(options);
  const w = newWallet();
  const c = await Client.connect(sb.wsUrl);
  const [sub] = await c.login(w);
  await c.call('subscribe', { channels: [`${sub}.orders`] });
  const order = async (fields: Record<string, unknown>) =>
    c.request('private/order', await signed(w, 'private/order', { ...fields, subaccount_id: sub! }));
  const position = async () => {
    const { positions } = await c.call('private/get_subaccount', { subaccount_id: sub });
    return positions.find((p: { instrument_name: string }) => p.instrument_name === 'TEST-PERP')?.amount ?? '0';
  };
  const waiting = async () => (await c.call('private/get_trigger_orders', { subaccount_id: sub })).orders;
  const mark = async (price: number) => {
    const r = await control(sb, 'mark', { instrument: 'TEST-PERP', price });
    expect(r).toMatchObject({ status: 200, json: { mark: String(price) } });
  };
  return { sb, w, c, sub: sub!, order, position, waiting, mark };
}

describe('trigger orders rest off the book until their price is crossed, then enter it', () => {
  it(
    'a stop-loss sell does not fill while the mark stays above its trigger, and ' + 'fills once it falls through',
    async () => {
      const t = await trader();
      expect(
        (await t.order({ ...base, direction: 'buy', limit_price: '101', time_in_force: 'ioc' })).result,
      ).toBeTruthy();
      expect(await t.position()).toBe('1');

      const placed = await t.order({ ...stopSell, trigger_price_type: 'mark' });
      valid('private/order', placed.result);
      const id = placed.result.order.order_id;
      expect(placed.result).toMatchObject({
        trades: [],
        order: {
          order_status: 'untriggered',
          trigger_type: 'stoploss',
          trigger_price: '95',
          trigger_price_type: 'mark',
        },
      });
      // Not on the book, not traded: the stop waits in get_trigger_orders.
      expect((await t.c.call('private/get_open_orders', { subaccount_id: t.sub })).orders).toEqual([]);
      const listed = await t.c.call('private/get_trigger_orders', { subaccount_id: t.sub });
      valid('private/get_trigger_orders', listed);
      expect(listed.orders.map((o: { order_id: string }) => o.order_id)).toEqual([id]);

      await t.mark(97);
      await t.mark(95.01);
      expect(await t.position()).toBe('1');
      expect((await t.waiting()).map((o: { order_status: string }) => o.order_status)).toEqual(['untriggered']);

      await t.mark(94);
      expect(await t.position()).toBe('0');
      expect(await t.waiting()).toEqual([]);
      const pushed = await t.c.nextPush(
        `${t.sub}.orders`,
        undefined,
        (d) => d[0]?.order_id === id && d[0].order_status === 'filled',
      );
      expect(pushed[0]).toMatchObject({ order_id: id, trigger_type: 'stoploss', trigger_price: '95' });
      const trades = await t.c.call('private/get_trade_history', { subaccount_id: t.sub, order_id: id });
      expect(trades.trades).toHaveLength(1);
      expect(Number(trades.trades[0].trade_price)).toBeLessThan(95);
    },
  );

  it('a take-profit and a stop wait each for their own side of the price; an index price is refused', async () => {
    const t = await trader();
    const index = await t.order({
      ...base,
      direction: 'sell',
      limit_price: '100',
      trigger_type: 'takeprofit',
      trigger_price: '110',
      trigger_price_type: 'index',
    });
    // Only mark prices trigger, as on the venue (its 11053).
    expect(index.error).toMatchObject({ code: 11053, data: expect.stringMatching(/^trigger_price_type index/) });
    const tp = await t.order({
      ...base,
      direction: 'sell',
      limit_price: '100',
      trigger_type: 'takeprofit',
      trigger_price: '110',
    });
    expect(tp.result.order.order_status).toBe('untriggered');
    const stopBuy = await t.order({
      ...base,
      direction: 'buy',
      limit_price: '120',
      trigger_type: 'stoploss',
      trigger_price: '105',
    });
    expect(stopBuy.result.order.trigger_price_type).toBe('mark');
    await t.mark(90);
    expect(await t.waiting()).toHaveLength(2);
    await t.mark(106);
    // The stop buy entered the book and bought 1; the take-profit sell waits for 110.
    expect(await t.position()).toBe('1');
    expect((await t.waiting()).map((o: { order_id: string }) => o.order_id)).toEqual([tp.result.order.order_id]);
    await t.mark(111);
    expect(await t.position()).toBe('0');
    expect(await t.waiting()).toEqual([]);
  });

  it('a trigger already crossed is refused, and a bad trigger field is refused by name; nothing trades', async () => {
    const t = await trader();
    const atOnce = await t.order({ ...stopSell, trigger_price: '100.5' });
    expect(atOnce.error).toMatchObject({
      code: 11051,
      data: expect.stringMatching(/^trigger_price 100.5 would trigger at once/),
    });
    expect((await t.order({ ...stopSell, trigger_type: null })).error.data).toMatch(/^trigger_type is missing/);
    expect((await t.order({ ...stopSell, trigger_price: null })).error.data).toMatch(/^trigger_price is missing/);
    expect((await t.order({ ...stopSell, trigger_price: '95.001' })).error.data).toMatch(/not a multiple of tick_size/);
    expect((await t.order({ ...stopSell, amount: '0.05' })).error.data).toMatch(/^amount/);
    expect((await t.order({ ...stopSell, reduce_only: true })).error.code).toBe(11024);
    expect((await t.order({ ...stopSell, max_fee: '0' })).error.code).toBe(11023);
    expect(await t.waiting()).toEqual([]);
    expect(await t.position()).toBe('0');
    // private/replace places at once, so it takes no trigger fields.
    const resting = await t.order({ ...base, direction: 'buy', limit_price: '90' });
    const replace = await t.c.request(
      'private/replace',
      await signed(t.w, 'private/replace', {
        ...stopSell,
        subaccount_id: t.sub,
        order_id_to_cancel: resting.result.order.order_id,
      }),
    );
    expect(replace.error).toMatchObject({
      code: 11054,
      data:
        'trigger_type, trigger_price: private/replace does not take a trigger or ' +
        'algo order (place it with private/order)',
    });
  });

  it('one that cannot enter the book when crossed is cancelled as trigger_failed, saying why', async () => {
    const t = await trader();
    // reduce_only with no position: allowed to wait, refused when it triggers.
    const stop = await t.order({ ...stopSell, reduce_only: true, time_in_force: 'ioc' });
    expect(stop.result.order.order_status).toBe('untriggered');
    await t.mark(90);
    const pushed = await t.c.nextPush(`${t.sub}.orders`, undefined, (d) => d[0]?.order_status === 'cancelled');
    expect(pushed[0]).toMatchObject({
      order_id: stop.result.order.order_id,
      cancel_reason: 'trigger_failed',
      trigger_reject_message: expect.stringContaining('would open or increase a position'),
    });
    expect(await t.position()).toBe('0');
    expect(await t.waiting()).toEqual([]);
  });

  it('cancel_trigger_order, cancel_all_trigger_orders and cancel_all with cancel_trigger_orders', async () => {
    const t = await trader();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await t.order({ ...stopSell, trigger_price: String(95 - i) })).result.order.order_id);
    const one = await t.c.call('private/cancel_trigger_order', { subaccount_id: t.sub, order_id: ids[0] });
    valid('private/cancel_trigger_order', one);
    expect(one).toMatchObject({ order_id: ids[0], order_status: 'cancelled', cancel_reason: 'user_request' });
    const again = await t.c.request('private/cancel_trigger_order', { subaccount_id: t.sub, order_id: ids[0] });
    expect(again.error).toMatchObject({ code: 11001 });
    // A plain cancel_all leaves trigger orders waiting; with cancel_trigger_orders it takes them too.
    expect(await t.c.call('private/cancel_all', { subaccount_id: t.sub })).toBe('ok');
    expect(await t.waiting()).toHaveLength(3);
    expect(await t.c.call('private/cancel_all', { subaccount_id: t.sub, cancel_trigger_orders: true })).toBe('ok');
    expect(await t.waiting()).toEqual([]);
    await t.order({ ...stopSell });
    expect(await t.c.call('private/cancel_all_trigger_orders', { subaccount_id: t.sub })).toBe('ok');
    expect(await t.waiting()).toEqual([]);
    // Another wallet's subaccount is refused by name.
    const other = await t.c.request('private/get_trigger_orders', { subaccount_id: 1 });
    expect(other.error).toMatchObject({ code: 14003 });
    await t.mark(80);
    expect(await t.position()).toBe('0');
  });

  it('a trigger order whose signature expires while it waits is expired when the clock passes it', async () => {
    const t = await trader();
    const expiry = Math.floor(Date.now() / 1000) + 120;
    const placed = await t.c.call(
      'private/order',
      await signed(t.w, 'private/order', { ...stopSell, subaccount_id: t.sub }, { expiry }),
    );
    expect(placed.order.order_status).toBe('untriggered');
    expect((await control(t.sb, 'advance', { ms: 300_000 })).status).toBe(200);
    const pushed = await t.c.nextPush(`${t.sub}.orders`, undefined, (d) => d[0]?.order_status === 'expired');
    expect(pushed[0].order_id).toBe(placed.order.order_id);
    expect(await t.waiting()).toEqual([]);
    await t.mark(80);
    expect(await t.position()).toBe('0');
  });

  it('over HTTP: placed, listed and cancelled with the login in the headers', async () => {
    const sb = await start(options);
    const w = newWallet();
    const headers = () => signLogin(w).then(loginHeaders);
    const subs = await post(sb, '/v3/private/get_subaccounts', { wallet: w.address }, await headers());
    const sub = subs.json.result.subaccount_ids[0];
    const body = await signed(w, 'private/order', { ...stopSell, subaccount_id: sub });
    const placed = await post(sb, '/v3/private/order', body, await headers());
    expect(placed.json.result.order.order_status).toBe('untriggered');
    const listed = await post(sb, '/v3/private/get_trigger_orders', { subaccount_id: sub }, await headers());
    expect(listed.json.result.orders).toHaveLength(1);
    const id = placed.json.result.order.order_id;
    const cancelled = await post(
      sb,
      '/v3/private/cancel_trigger_order',
      { subaccount_id: sub, order_id: id },
      await headers(),
    );
    expect(cancelled.json.result).toMatchObject({ order_id: id, order_status: 'cancelled' });
  });

  it('the control plane refuses a mark it cannot set, by name', async () => {
    const sb = await start(options);
    expect(await control(sb, 'mark', { instrument: 'NOPE-PERP', price: 1 })).toMatchObject({
      status: 400,
      json: { error: 'instrument NOPE-PERP is not listed' },
    });
    expect((await control(sb, 'mark', { instrument: 'TEST-PERP', price: -1 })).json.error).toMatch(/^price must be/);
    expect((await control(sb, 'mark', { instrument: 'TEST-PERP', price: 100, x: 1 })).json.error).toMatch(
      /unknown key/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { loginHeaders, signLogin } from '@exchange-api/auth';
import { Client, HANG_MS, control, newWallet, post, quietMarket, signed, start } from './helpers';

const options = { ...quietMarket, control: true };
const buyBelow = {
  instrument_name: 'TEST-PERP',
  direction: 'buy',
  order_type: 'limit',
  limit_price: '90',
  max_fee: '1',
  amount: '1',
};

/** Resolve once the sandbox has no open connection left (it has seen every close), or fail at the bound. */
async function allClosed(sb: Awaited<ReturnType<typeof start>>): Promise<void> {
  const until = Date.now() + HANG_MS;
  while ((await control(sb, 'connections')).json.length > 0) {
    if (Date.now() > until) throw new Error('connections still open');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('cancel on disconnect', () => {
  it(
    "cancels the wallet's book orders when its last connection closes, not before; " + 'trigger orders wait on',
    async () => {
      const sb = await start(options);
      const w = newWallet();
      const [c1, c2] = [await Client.connect(sb.wsUrl), await Client.connect(sb.wsUrl)];
      const [sub] = await c1.login(w);
      await c2.login(w);
      expect(await c1.call('private/set_cancel_on_disconnect', { enabled: true, wallet: w.address })).toBe('ok');
      const resting = await c1.call(
        'private/order',
        await signed(w, 'private/order', { ...buyBelow, subaccount_id: sub! }),
      );
      const stop = await c1.call(
        'private/order',
        await signed(w, 'private/order', {
          ...buyBelow,
          limit_price: '120',
          trigger_type: 'stoploss',
          trigger_price: '110',
          subaccount_id: sub!,
        }),
      );
      c1.close();
      await c1.whenClosed;
      // c2 is still open: nothing is cancelled.
      expect((await c2.call('private/get_open_orders', { subaccount_id: sub })).orders).toHaveLength(1);
      c2.close();
      await c2.whenClosed;
      await allClosed(sb);
      const headers = loginHeaders(await signLogin(w));
      const orders = (await post(sb, '/v3/private/get_orders', { subaccount_id: sub }, headers)).json.result.orders;
      expect(orders.find((o: { order_id: string }) => o.order_id === resting.order.order_id)).toMatchObject({
        order_status: 'cancelled',
        cancel_reason: 'cancel_on_disconnect',
      });
      const waiting = (await post(sb, '/v3/private/get_trigger_orders', { subaccount_id: sub }, headers)).json.result;
      expect(waiting.orders.map((o: { order_id: string }) => o.order_id)).toEqual([stop.order.order_id]);
    },
  );

  it('turned off again, a closed connection leaves the orders on the book', async () => {
    const sb = await start(options);
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    await c.call('private/set_cancel_on_disconnect', { enabled: true });
    // Absent asks for no change: still on.
    expect(await c.call('private/set_cancel_on_disconnect', {})).toBe('ok');
    expect(await c.call('private/set_cancel_on_disconnect', { enabled: false })).toBe('ok');
    await c.call('private/order', await signed(w, 'private/order', { ...buyBelow, subaccount_id: sub! }));
    c.close();
    await c.whenClosed;
    await allClosed(sb);
    const headers = loginHeaders(await signLogin(w));
    const open = (await post(sb, '/v3/private/get_open_orders', { subaccount_id: sub }, headers)).json.result.orders;
    expect(open).toHaveLength(1);
  });
});

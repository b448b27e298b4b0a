/**
 * Positions and money (issue 31, item 1): a position from fills with its average price, mark and
 * realized and unrealized PnL; get_positions and get_collaterals agreeing with get_subaccount; one
 * order and the order history; the money histories, empty while nothing booked them. Each read over
 * the WebSocket and HTTP, each result valid against the spec.
 */
import { describe, expect, it } from 'vitest';
import { Client, control, newWallet, quietMarket, signed, start } from './helpers';
import { bothReads, wsRead } from './reads-helpers';

const sum = (xs: string[]) => xs.reduce((a, x) => a + Number(x), 0);

describe('positions and money', () => {
  it('keeps a position from fills: amount, average price, mark, realized and unrealized PnL and fees', async () => {
    const sb = await start({ ...quietMarket, control: true });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const order = async (direction: string, amount: string, price: string) =>
      c.call(
        'private/order',
        await signed(w, 'private/order', {
          subaccount_id: sub!,
          instrument_name: 'TEST-PERP',
          direction,
          amount,
          limit_price: price,
          max_fee: '100',
        }),
      );
    const bought = await order('buy', '1', '101');
    const sold = await order('sell', '0.4', '99');
    expect([bought.order.order_status, sold.order.order_status]).toEqual(['filled', 'filled']);
    const buys = bought.trades as any[];
    const entry = sum(buys.map((t) => String(t.trade_price * t.trade_amount))) / sum(buys.map((t) => t.trade_amount));

    const [positions, overHttp] = await bothReads(sb, c, 'private/get_positions', { subaccount_id: sub }, w);
    expect(overHttp).toEqual(positions);
    expect(positions.subaccount_id).toBe(sub);
    const [p] = positions.positions;
    expect(p).toMatchObject({ instrument_name: 'TEST-PERP', instrument_type: 'perp', amount: '0.6' });
    expect(Number(p.average_price)).toBeCloseTo(entry, 8);
    const trades = [...buys, ...sold.trades];
    expect(Number(p.realized_pnl_excl_fees)).toBeCloseTo(sum(trades.map((t) => t.realized_pnl_excl_fees)), 8);
    expect(Number(p.total_fees)).toBeCloseTo(sum(trades.map((t) => t.trade_fee)), 8);
    expect(Number(p.realized_pnl)).toBeCloseTo(Number(p.realized_pnl_excl_fees) - Number(p.total_fees), 8);
    // Sold below the entry: the closed part lost.
    expect(Number(p.realized_pnl_excl_fees)).toBeLessThan(0);
    expect(Number(p.unrealized_pnl)).toBeCloseTo(0.6 * (Number(p.mark_price) - entry), 8);
    expect(p.creation_timestamp).toBe(buys[0].timestamp);

    const portfolio = await wsRead(c, 'private/get_subaccount', { subaccount_id: sub });
    expect(portfolio.positions).toEqual(positions.positions);
    const [collaterals] = await bothReads(sb, c, 'private/get_collaterals', { subaccount_id: sub }, w);
    expect(collaterals.collaterals).toEqual(portfolio.collaterals);

    // Closed, then opened again: the new position starts its own record.
    await order('sell', '0.6', '99');
    expect((await wsRead(c, 'private/get_positions', { subaccount_id: sub })).positions).toEqual([]);
    const again = await order('buy', '0.2', '101');
    const [fresh] = (await wsRead(c, 'private/get_positions', { subaccount_id: sub })).positions;
    expect(fresh.realized_pnl_excl_fees).toBe('0');
    expect(Number(fresh.total_fees)).toBeCloseTo(sum(again.trades.map((t: any) => t.trade_fee)), 8);
    expect((await c.request('private/get_positions', { subaccount_id: 1 })).error.code).toBe(14003);
  });

  it('reads one order and the order history, newest first, by subaccount or wallet, within a window', async () => {
    const sb = await start({ ...quietMarket, control: true });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const place = async (price: string) =>
      (
        await c.call(
          'private/order',
          await signed(w, 'private/order', {
            subaccount_id: sub!,
            instrument_name: 'TEST-PERP',
            direction: 'buy',
            amount: '0.1',
            limit_price: price,
            max_fee: '10',
          }),
        )
      ).order;
    const filled = await place('101');
    const resting = await place('90');
    const cancelled = await c.call('private/cancel', {
      subaccount_id: sub,
      instrument_name: 'TEST-PERP',
      order_id: resting.order_id,
    });
    const [one, oneHttp] = await bothReads(
      sb,
      c,
      'private/get_order',
      { subaccount_id: sub, order_id: filled.order_id },
      w,
    );
    expect(one).toEqual(oneHttp);
    expect(one).toMatchObject({ order_id: filled.order_id, order_status: 'filled' });
    expect(
      (await wsRead(c, 'private/get_order', { subaccount_id: sub, order_id: resting.order_id })).order_status,
    ).toBe('cancelled');
    const missing = await c.request('private/get_order', { subaccount_id: sub, order_id: 'nope' });
    expect(missing.error).toMatchObject({ code: 11001, data: expect.stringMatching(/no order nope/) });

    const [bySub, byWallet] = await bothReads(sb, c, 'private/get_order_history', { subaccount_id: sub }, w);
    expect(bySub.orders.map((o: any) => o.order_id)).toEqual([resting.order_id, filled.order_id]);
    expect(byWallet.orders).toEqual(bySub.orders);
    const wallet = await wsRead(c, 'private/get_order_history', { wallet: w.address, page_size: 1 });
    expect(wallet.orders.map((o: any) => o.order_id)).toEqual([resting.order_id]);
    expect(wallet.pagination).toEqual({ num_pages: 2, count: 2 });
    const later = await wsRead(c, 'private/get_order_history', {
      subaccount_id: sub,
      from_timestamp: cancelled.last_update_timestamp + 1,
    });
    expect(later.orders).toEqual([]);
    expect((await c.request('private/get_order_history', { wallet: newWallet().address })).error.code).toBe(14003);
  });

  it(
    'charges a perp position funding on every hour of the clock: the history, ' + 'the cash and a balance push',
    async () => {
      const sb = await start({ ...quietMarket, control: true });
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      await c.call(
        'private/order',
        await signed(w, 'private/order', {
          subaccount_id: sub!,
          instrument_name: 'TEST-PERP',
          direction: 'buy',
          amount: '1',
          limit_price: '101',
          max_fee: '100',
        }),
      );
      const cash = async () =>
        Number((await wsRead(c, 'private/get_collaterals', { subaccount_id: sub })).collaterals[0].amount);
      const before = await cash();
      const channel = `${sub}.balances`;
      await c.call('subscribe', { channels: [channel] });
      const pushed = c.nextPush(channel);
      await control(sb, 'advance', { ms: 3 * 3_600_000 });
      const [history, overHttp] = await bothReads(sb, c, 'private/get_funding_history', { subaccount_id: sub }, w);
      expect(overHttp).toEqual(history);
      expect(history.events).toHaveLength(3);
      const mark = Number((await wsRead(c, 'private/get_positions', { subaccount_id: sub })).positions[0].mark_price);
      for (const e of history.events) {
        expect(e).toMatchObject({ instrument_name: 'TEST-PERP', subaccount_id: sub, batch_status: 'Settled' });
        expect(Number(e.funding)).toBeCloseTo(-mark * 0.00001, 10);
        expect(e.timestamp % 3_600_000).toBe(0);
      }
      expect(history.events[0].timestamp - history.events[2].timestamp).toBe(2 * 3_600_000);
      expect(await cash()).toBeCloseTo(before + sum(history.events.map((e: any) => e.funding)), 8);
      expect((await pushed)[0]).toMatchObject({ name: 'USDC', update_type: 'perp_settlement' });
      const one = await wsRead(c, 'private/get_funding_history', {
        subaccount_id: sub,
        start_timestamp: history.events[0].timestamp,
      });
      expect(one.events).toEqual([history.events[0]]);
      const other = await wsRead(c, 'private/get_funding_history', { subaccount_id: sub, instrument_name: 'X-PERP' });
      expect(other.events).toEqual([]);
    },
  );

  it(
    'answers the other money histories with what was booked: nothing yet, for ' + 'the subaccount or the wallet',
    async () => {
      const sb = await start({ ...quietMarket, control: true });
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const cases: [string, string][] = [
        ['private/get_interest_history', 'events'],
        ['private/get_deposit_history', 'deposits'],
        ['private/get_withdrawal_history', 'withdrawals'],
        ['private/get_option_settlement_history', 'settlements'],
      ];
      for (const [method, key] of cases) {
        const [bySub, byWallet] = [
          await wsRead(c, method, { subaccount_id: sub }),
          (await bothReads(sb, c, method, { wallet: w.address }, w))[1],
        ];
        expect([bySub[key], byWallet[key]], method).toEqual([[], []]);
        expect((await c.request(method, { subaccount_id: 7 })).error.code, method).toBe(14003);
      }
    },
  );
});

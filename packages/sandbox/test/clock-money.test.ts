/**
 * What the sandbox clock settles besides funding (issue 31, item 1): interest on negative cash, hour by
 * hour, with its history and balance pushes; and option expiry, settled at the settlement price with
 * its history, the settlement price reported, and the expired option taking no order.
 */
import { describe, expect, it } from 'vitest';
import { control, signed } from './helpers';
import { httpRead, wsRead } from './reads-helpers';
import { smallAccount } from './margin-helpers';

const HOUR = 3_600_000;

describe('the clock settles interest and option expiry', () => {
  it('charges negative cash the hour’s share of the yearly rate, with its history and a push', async () => {
    // Cash goes below zero by a realized loss on one perp while a gain on another keeps the account sound.
    const perp = (name: string, base: string) =>
      ({
        instrument_name: name,
        instrument_type: 'perp',
        base_currency: base,
        amount_step: '0.1',
        price: 100,
      }) as const;
    const a = await smallAccount(1_000, {
      instruments: [perp('TEST-PERP', 'TST'), perp('OTHER-PERP', 'OTH')],
      margin: { perp: { initial: 0.05, maintenance: 0.02 }, borrowRatePerYear: 0.5 },
    });
    expect((await a.order('buy', '50', '101')).result.order.order_status).toBe('filled');
    expect((await a.order('buy', '50', '101', 'OTHER-PERP')).result.order.order_status).toBe('filled');
    await a.mark(140, 'OTHER-PERP');
    await a.mark(70);
    const closed = await a.order('sell', '50', '60');
    expect(closed.error).toBeUndefined();
    expect(closed.result.order.order_status).toBe('filled');
    const owed = await a.cash();
    expect(owed).toBeLessThan(0);
    await a.c.call('subscribe', { channels: [`${a.sub}.balances`] });
    const pushed = a.c.nextPush(`${a.sub}.balances`, undefined, (d) => d[0]?.update_type === 'interest_accrual');
    await control(a.sb, 'advance', { ms: 2 * HOUR });
    const [history, overHttp] = [
      await wsRead(a.c, 'private/get_interest_history', { subaccount_id: a.sub }),
      await httpRead(a.sb, 'private/get_interest_history', { wallet: a.w.address }, a.w),
    ];
    expect(overHttp.events).toEqual(history.events);
    expect(history.events).toHaveLength(2);
    // Funding on the perp still held is charged too, so the cash owed moved a little: 4 places.
    expect(Number(history.events[1].interest)).toBeCloseTo((owed * 0.5) / 8760, 4);
    expect(history.events[0].timestamp - history.events[1].timestamp).toBe(HOUR);
    const total = history.events.reduce((s: number, e: any) => s + Number(e.interest), 0);
    const funding = (await wsRead(a.c, 'private/get_funding_history', { subaccount_id: a.sub })).events;
    const funded = funding.reduce((s: number, e: any) => s + Number(e.funding), 0);
    expect(funding).toHaveLength(2);
    expect(await a.cash()).toBeCloseTo(owed + total + funded, 8);
    expect((await pushed)[0]).toMatchObject({ name: 'USDC', update_type: 'interest_accrual' });
  });

  it('settles an option at its expiry: cash for the positions, the history and the settlement price', async () => {
    const expiry = new Date(Date.now() + 2 * 86_400_000);
    const date = expiry.toISOString().slice(0, 10).replaceAll('-', '');
    const name = `TST-${date}-100-C`;
    const option = { instrument_name: name, instrument_type: 'option', base_currency: 'TST', price: 5 } as const;
    const perp = {
      instrument_name: 'TEST-PERP',
      instrument_type: 'perp',
      base_currency: 'TST',
      tick_size: '0.01',
      amount_step: '0.1',
      price: 100,
    } as const;
    const a = await smallAccount(10_000, { instruments: [perp, option] });
    expect((await a.order('buy', '2', '6', name)).result.order.order_status).toBe('filled');
    const resting = await a.order('buy', '1', '1', name);
    expect(resting.result.order.order_status).toBe('open');
    const cashBefore = await a.cash();
    // The settlement price is the option's index: the perp of its currency, put at 120.
    await a.mark(120);
    const unsettled = await wsRead(a.c, 'public/get_option_settlement_prices', { currency: 'TST' });
    expect(unsettled.expiries[0].price).toBeNull();
    const listed = async (expired: boolean) =>
      (await wsRead(a.c, 'public/get_all_instruments', { instrument_type: 'option', expired })).instruments.map(
        (i: { instrument_name: string; is_active: boolean }) => [i.instrument_name, i.is_active],
      );
    expect(await wsRead(a.c, 'public/get_all_live_instruments', {})).toContain(name);
    expect({ trading: await listed(false), expired: await listed(true) }).toEqual({
      trading: [[name, true]],
      expired: [],
    });
    await control(a.sb, 'advance', { ms: 3 * 86_400_000 });
    // Expired, it is no longer live: listed only when expired instruments are asked for.
    expect(await wsRead(a.c, 'public/get_all_live_instruments', {})).not.toContain(name);
    expect({ trading: await listed(false), expired: await listed(true) }).toEqual({
      trading: [],
      expired: [[name, false]],
    });
    const [{ settlements }] = [await wsRead(a.c, 'private/get_option_settlement_history', { subaccount_id: a.sub })];
    expect(settlements).toEqual([
      expect.objectContaining({ instrument_name: name, amount: '2', settlement_price: '120', settlement_value: '40' }),
    ]);
    expect(await a.position(name)).toBeUndefined();
    expect(await a.cash()).toBeCloseTo(cashBefore + 40, 8);
    const prices = await wsRead(a.c, 'public/get_option_settlement_prices', { currency: 'TST' });
    expect(prices.expiries[0].price).toBe('120');
    expect((await wsRead(a.c, 'private/get_open_orders', { subaccount_id: a.sub })).orders).toEqual([]);
    const serverSec = Math.floor((await a.c.call('public/get_time')) / 1000);
    const late = await a.c.request(
      'private/order',
      await signed(
        a.w,
        'private/order',
        { subaccount_id: a.sub, instrument_name: name, direction: 'buy', amount: '1', limit_price: '1', max_fee: '10' },
        { expiry: serverSec + 600 },
      ),
    );
    expect(late.error).toMatchObject({ code: 11021, data: expect.stringMatching(/expired/) });
  });
});

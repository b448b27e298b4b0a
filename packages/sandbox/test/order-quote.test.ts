/**
 * private/order_quote and public/order_quote (issue 31): an order priced against the book without being
 * placed, signed like an order; a rule it would break is reported, not hidden; a forged signature refused.
 */
import { describe, expect, it } from 'vitest';
import { Client, newWallet, signed } from './helpers';
import { rfqMarket, trader, units, valid } from './rfq-support';

const ORDER = { instrument_name: 'TEST-PERP', direction: 'buy', amount: '1', limit_price: '101', max_fee: '1' };

describe('order_quote', () => {
  it('prices a buy against the book without placing it, and reports what would refuse it', async () => {
    const sb = await rfqMarket();
    const t = await trader(sb.wsUrl);
    const quote = (extra: Record<string, unknown> = {}) =>
      signed(t.w, 'private/order_quote', { subaccount_id: t.sub, ...ORDER, ...extra });
    const q = await t.c.call('private/order_quote', await quote());
    valid('private/order_quote', q);
    expect(q).toMatchObject({ is_valid: true, estimated_fill_amount: '1', estimated_order_status: 'filled' });
    expect(Number(q.estimated_fill_price)).toBeGreaterThan(100);
    expect(units(q.estimated_fee)).toBe((units(q.estimated_fill_price) * 3n) / 10_000n);
    expect(units(q.post_initial_margin)).toBeGreaterThan(units(q.pre_initial_margin));
    // Nothing was placed.
    expect((await t.c.call('private/get_open_orders', { subaccount_id: t.sub })).orders).toEqual([]);
    expect(await t.position(t.sub, 'TEST-PERP')).toBe(0n);
    const low = await t.c.call('private/order_quote', await quote({ max_fee: '0' }));
    expect(low).toMatchObject({ is_valid: false });
    expect(low.invalid_reason).toMatch(/signed max_fee must be >=/);
    const rests = await t.c.call('private/order_quote', await quote({ limit_price: '90' }));
    expect(rests).toMatchObject({ is_valid: true, estimated_fill_amount: '0', estimated_order_status: 'open' });
    const trigger = await t.c.request('private/order_quote', await quote({ trigger_type: 'stoploss' }));
    expect(trigger.error.data).toMatch(/^trigger_type: order_quote does not take a trigger/);
    const replay = await quote();
    await t.c.call('private/order_quote', replay);
    expect((await t.c.request('private/order_quote', replay)).error.code).toBe(14004);
  });

  it('public/order_quote needs no login, and checks the signature for the wallet that holds the subaccount', async () => {
    const sb = await rfqMarket();
    const t = await trader(sb.wsUrl);
    const anyone = await Client.connect(sb.wsUrl);
    const q = await anyone.call(
      'public/order_quote',
      await signed(t.w, 'public/order_quote', { subaccount_id: t.sub, ...ORDER }),
    );
    valid('public/order_quote', q);
    expect(q.is_valid).toBe(true);
    const forged = await signed(
      newWallet(),
      'public/order_quote',
      { subaccount_id: t.sub, ...ORDER },
      { owner: t.w.address },
    );
    expect((await anyone.request('public/order_quote', { ...forged, signer: t.w.address })).error.code).toBe(14004);
    // On a logged-in connection it is verified once, for the login.
    const mine = await signed(t.w, 'public/order_quote', { subaccount_id: t.sub, ...ORDER });
    expect((await t.c.call('public/order_quote', mine)).is_valid).toBe(true);
  });
});

/**
 * The margin model (issue 31, item 2): initial and maintenance by instrument kind from the `margin`
 * option, reported by get_subaccount and get_positions; an order that would take the initial margin
 * below zero refused with 11000 while one that reduces the position passes; get_margin, the private
 * one on a subaccount and the public simulation without login, each result valid against the spec.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions, SandboxOptionsError } from '../src/index';
import { post } from './helpers';
import { httpRead, wsRead } from './reads-helpers';
import { smallAccount } from './margin-helpers';

const model = { margin: { perp: { initial: 0.2, maintenance: 0.1 } } };

describe('the margin model', () => {
  it('reports each position and the account at the configured fractions of the notional', async () => {
    const a = await smallAccount(10_000, model);
    expect((await a.order('buy', '10', '101')).result.order.order_status).toBe('filled');
    const p = await a.position();
    const notional = 10 * Number(p.mark_price);
    expect(Number(p.initial_margin)).toBeCloseTo(-0.2 * notional, 8);
    expect(Number(p.maintenance_margin)).toBeCloseTo(-0.1 * notional, 8);
    const s = await wsRead(a.c, 'private/get_subaccount', { subaccount_id: a.sub });
    const value = Number(s.subaccount_value);
    expect(Number(s.initial_margin)).toBeCloseTo(value - 0.2 * notional, 8);
    expect(Number(s.maintenance_margin)).toBeCloseTo(value - 0.1 * notional, 8);
    expect(Number(s.collaterals_initial_margin) + Number(s.positions_initial_margin)).toBeCloseTo(
      Number(s.initial_margin),
      8,
    );
    expect(s.is_under_liquidation).toBe(false);
  });

  it(
    'refuses an order that would take the initial margin ' + 'below zero (11000), and lets one that reduces pass',
    async () => {
      const a = await smallAccount(1_000, model);
      // 60 × 100 × 20 % = 1200 of initial margin against 1000 of value.
      const refused = await a.order('buy', '60', '101');
      expect(refused.error).toMatchObject({ code: 11000, data: expect.stringMatching(/insufficient margin/) });
      expect((await a.order('buy', '40', '101')).result.order.order_status).toBe('filled');
      // The mark falls until the account is worth less than the initial margin of what it holds.
      await a.mark(85);
      const s = await wsRead(a.c, 'private/get_subaccount', { subaccount_id: a.sub });
      expect(Number(s.initial_margin)).toBeLessThan(0);
      expect((await a.order('buy', '1', '86')).error.code).toBe(11000);
      const closing = await a.order('sell', '40', '80');
      expect(closing.error).toBeUndefined();
      expect(closing.result.order.order_status).toBe('filled');
    },
  );

  it('private/get_margin: before and after simulated changes, on both transports', async () => {
    const a = await smallAccount(10_000, model);
    await a.order('buy', '10', '101');
    const s = await wsRead(a.c, 'private/get_subaccount', { subaccount_id: a.sub });
    const plain = await wsRead(a.c, 'private/get_margin', { subaccount_id: a.sub });
    expect(plain).toMatchObject({ subaccount_id: a.sub, is_valid_trade: true });
    expect(Number(plain.pre_initial_margin)).toBeCloseTo(Number(s.initial_margin), 8);
    expect(plain.post_initial_margin).toBe(plain.pre_initial_margin);
    const mark = Number((await a.position()).mark_price);
    const more = { instrument_name: 'TEST-PERP', amount: '100', entry_price: null };
    const sim = await httpRead(
      a.sb,
      'private/get_margin',
      { subaccount_id: a.sub, simulated_position_changes: [more] },
      a.w,
    );
    expect(Number(sim.post_initial_margin)).toBeCloseTo(Number(sim.pre_initial_margin) - 0.2 * 100 * mark, 6);
    expect(Number(sim.post_maintenance_margin)).toBeCloseTo(Number(sim.pre_maintenance_margin) - 0.1 * 100 * mark, 6);
    const tooMuch = await wsRead(a.c, 'private/get_margin', {
      subaccount_id: a.sub,
      simulated_position_changes: [{ ...more, amount: '1000' }],
      simulated_collateral_changes: [{ asset_name: 'USDC', amount: '-1000' }],
    });
    expect(tooMuch.is_valid_trade).toBe(false);
    const bad = await a.c.request('private/get_margin', {
      subaccount_id: a.sub,
      simulated_position_changes: [{ instrument_name: 'NOPE', amount: '1' }],
    });
    expect(bad.error).toMatchObject({ code: 12001, data: expect.stringMatching(/simulated_position_changes\/0/) });
    expect((await a.c.request('private/get_margin', { subaccount_id: 1 })).error.code).toBe(14003);
  });

  it(
    'public/get_margin values a described portfolio without ' + 'a login; other margin types are refused by name',
    async () => {
      const a = await smallAccount(10_000, model);
      const portfolio = {
        margin_type: 'SM',
        simulated_collaterals: [{ asset_name: 'USDC', amount: '1000' }],
        simulated_positions: [{ instrument_name: 'TEST-PERP', amount: '10', entry_price: null }],
        simulated_position_changes: [{ instrument_name: 'TEST-PERP', amount: '-10' }],
      };
      const r = await httpRead(a.sb, 'public/get_margin', portfolio);
      const mark = Number((await wsRead(a.c, 'public/get_ticker', { instrument_name: 'TEST-PERP' })).mark_price);
      expect(Number(r.pre_initial_margin)).toBeCloseTo(1000 - 0.2 * 10 * mark, 6);
      expect(Number(r.post_initial_margin)).toBeCloseTo(1000, 6);
      expect(r.is_valid_trade).toBe(true);
      const pm = await post(a.sb, '/v3/public/get_margin', { ...portfolio, margin_type: 'PM2' });
      expect(pm.json.error).toMatchObject({ code: 10000, data: expect.stringMatching(/margin_type/) });
    },
  );
});

describe('the margin option', () => {
  it('refuses a maintenance above the initial margin, a fraction above 1 and an unknown key', () => {
    const bad = (margin: unknown) => () => resolveOptions({ margin });
    expect(bad({ perp: { initial: 0.05, maintenance: 0.1 } })).toThrow(/margin\.perp\.maintenance/);
    expect(bad({ option: { initial: 2 } })).toThrow(SandboxOptionsError);
    expect(bad({ spot: {} })).toThrow(/margin\.spot: unknown key/);
    expect(resolveOptions({ margin: { erc20: { initial: 0.1, maintenance: 0.05 } } }).margin.erc20).toEqual({
      initial: 0.1,
      maintenance: 0.05,
    });
  });
});

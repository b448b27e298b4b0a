/**
 * The simulated data is plausible to a trader: exact money, perps settling PnL and fees rather than
 * notional, real counterparties with real signatures, quotes on RFQs that exist, proportionate fees
 * and margins, open interest that follows positions.
 */
import { describe, expect, it } from 'vitest';
import { channelTable, fillAddress } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import { defaultActionLayout, recoverActionSigner } from '@exchange-api/auth';
import { Client, control, newWallet, signed, start } from './helpers';
import { counterpartyKeys } from './rfq-support';
import { Market, legsHash, quoteAction } from '../src/market';
import { assetOf } from '../src/market/instrument';
import { defaultInstruments } from '../src/options';
import { Accounts } from '../src/accounts';
import { Clock } from '../src/clock';
import { resolveOptions } from '../src/options';

/** A decimal string as an exact count of 10^-12 units. */
function units(s: string): bigint {
  const m = /^(-)?([0-9]+)(?:\.([0-9]{1,12}))?$/.exec(s);
  if (!m) throw new Error(`not a Decimal with at most 12 fractional digits: ${s}`);
  const v = BigInt(m[2]!) * 10n ** 12n + BigInt((m[3] ?? '').padEnd(12, '0'));
  return m[1] ? -v : v;
}
const times = (a: string, b: string) => (units(a) * units(b)) / 10n ** 12n;
const ZERO = '0x0000000000000000000000000000000000000000';

const quietPerp = {
  control: true,
  market: { intervalMs: 60_000 },
  limits: { matching: { points: 100 }, bucket_perp_spot: { capacity: 100 } },
  instruments: [
    {
      instrument_name: 'TEST-PERP',
      instrument_type: 'perp' as const,
      base_currency: 'TST',
      tick_size: '0.01',
      amount_step: '0.1',
      price: 100,
    },
    {
      instrument_name: 'TST-USDC',
      instrument_type: 'erc20' as const,
      base_currency: 'TST',
      tick_size: '0.01',
      amount_step: '0.001',
      price: 100.37,
    },
  ],
};

async function trader(url: string) {
  const w = newWallet();
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  await c.call('subscribe', { channels: [`${sub}.balances`, `${sub}.trades`] });
  return { w, c, sub: sub! };
}

describe('every channel has a producer', () => {
  it('the market produces a schema-valid payload for every channel of channelTable, keyed by channel id', () => {
    const options = resolveOptions({});
    const clock = new Clock();
    const accounts = new Accounts(options, clock);
    const market = new Market(options, clock, accounts, {
      addresses: () => new Map(),
      publish: () => {},
      publishTo: () => {},
    });
    const wallet = newWallet().address;
    const [sub] = accounts.subaccountsOf(wallet);
    const fill: Record<string, string> = {
      instrument_name: 'ETH-PERP',
      currency: 'ETH',
      subaccount_id: String(sub),
      wallet,
    };
    const ids = channelTable.map((c) => c.id as string);
    expect(
      Object.keys(market.producers).filter((id) => !ids.includes(id)),
      'producers of channels that are not in channelTable',
    ).toEqual([]);
    for (const ch of channelTable) {
      expect(
        Object.keys(market.producers),
        `channel ${ch.id} (${ch.address}) has no producer in packages/sandbox/src/market/producers.ts`,
      ).toContain(ch.id);
      const params = Object.fromEntries(
        ch.parameters.map((p) => [p.name, p.name === 'instrument_type' ? 'perp' : p.enum ? p.enum[0]! : fill[p.name]!]),
      );
      const data = market.produce(fillAddress(ch.address, params));
      const validate = validators.channels[ch.id as keyof typeof validators.channels];
      expect(validate(data), `${ch.id}: ${JSON.stringify(data).slice(0, 300)} ${JSON.stringify(validate.errors)}`).toBe(
        true,
      );
    }
  });
});

describe('money is exact and coherent', () => {
  it('a perp fill moves the position and charges only the fee; cash is exact', async () => {
    const sb = await start(quietPerp);
    const { w, c, sub } = await trader(sb.wsUrl);
    const res = await c.call(
      'private/order',
      await signed(w, 'private/order', {
        subaccount_id: sub,
        instrument_name: 'TEST-PERP',
        direction: 'buy',
        order_type: 'limit',
        amount: '0.7',
        limit_price: '101',
        max_fee: '10',
      }),
    );
    expect(res.order.order_status).toBe('filled');
    let fees = 0n;
    for (const t of res.trades) {
      const fee = (times(t.trade_price, t.trade_amount) * 3n) / 10_000n;
      expect(units(t.trade_fee)).toBe(fee);
      expect(units(t.realized_pnl)).toBe(-fee);
      fees += fee;
    }
    expect(units(res.order.order_fee)).toBe(fees);
    // Nothing more is coming: the sandbox answers a socket in order, so a round trip flushes what it sent.
    await c.roundTrip();
    const updates = c.pushes(`${sub}.balances`).flat();
    const cash = updates.filter((u: any) => u.name === 'USDC');
    expect(units(cash.at(-1).new_balance)).toBe(1_000_000n * 10n ** 12n - fees);
    for (const u of cash) expect(units(u.previous_balance) - units(u.new_balance)).toBeLessThan(10n ** 12n); // fees, never the ~70 USDC notional
    expect(updates.filter((u: any) => u.name === 'TEST-PERP').at(-1).new_balance).toBe('0.7');
  });

  it('closing a perp position realizes its PnL in cash', async () => {
    const sb = await start(quietPerp);
    const a = await trader(sb.wsUrl);
    const b = await trader(sb.wsUrl);
    const order = async (t: typeof a, direction: string, price: string, extra: Record<string, unknown> = {}) =>
      t.c.call(
        'private/order',
        await signed(t.w, 'private/order', {
          subaccount_id: t.sub,
          instrument_name: 'TEST-PERP',
          direction,
          order_type: 'limit',
          amount: '1',
          limit_price: price,
          max_fee: '10',
          ...extra,
        }),
      );
    // Inside the synthetic spread (99.98 / 100.02): a buys 1 at 99.99 from b, then sells 1 at 100.01 to b.
    await order(a, 'buy', '99.99');
    expect((await order(b, 'sell', '99.99', { time_in_force: 'ioc' })).trades[0].trade_price).toBe('99.99');
    await order(b, 'buy', '100.01');
    const close = await order(a, 'sell', '100.01', { time_in_force: 'ioc' });
    expect(close.trades).toHaveLength(1);
    expect(close.trades[0].realized_pnl_excl_fees).toBe('0.02');
    const takerFee = units(close.trades[0].trade_fee);
    expect(takerFee).toBe(units('0.030003'));
    expect(units(close.trades[0].realized_pnl)).toBe(units('0.02') - takerFee);
    await a.c.roundTrip();
    const updates = a.c.pushes(`${a.sub}.balances`).flat();
    const makerFee = units('0.009999');
    expect(updates.filter((u: any) => u.name === 'USDC').at(-1).new_balance).toBe('999999.979998'); // 1000000 - 0.009999 + 0.02 - 0.030003
    expect(1_000_000n * 10n ** 12n - makerFee + units('0.02') - takerFee).toBe(units('999999.979998'));
    expect(updates.filter((u: any) => u.name === 'TEST-PERP').at(-1).new_balance).toBe('0');
  });

  it('a spot fill exchanges the asset for exactly its price plus the fee, without binary noise', async () => {
    const sb = await start(quietPerp);
    const { w, c, sub } = await trader(sb.wsUrl);
    const res = await c.call(
      'private/order',
      await signed(w, 'private/order', {
        subaccount_id: sub,
        instrument_name: 'TST-USDC',
        direction: 'buy',
        order_type: 'limit',
        amount: '0.013',
        limit_price: '101',
        max_fee: '10',
      }),
    );
    expect(res.order.order_status).toBe('filled');
    await c.roundTrip();
    const updates = c.pushes(`${sub}.balances`);
    expect(updates).toHaveLength(res.trades.length);
    res.trades.forEach((t: any, i: number) => {
      const cash = updates[i].find((u: any) => u.name === 'USDC');
      const notional = times(t.trade_price, t.trade_amount);
      expect(units(cash.previous_balance) - units(cash.new_balance)).toBe(notional + (notional * 3n) / 10_000n);
    });
    for (const u of updates.flat())
      for (const v of [u.new_balance, u.previous_balance]) expect(v).toMatch(/^-?[0-9]+(\.[0-9]{1,12})?$/);
  });

  it('open interest follows positions (ticker and margin.watch agree)', async () => {
    const sb = await start(quietPerp);
    const { w, c, sub } = await trader(sb.wsUrl);
    await c.call('subscribe', { channels: ['ticker_slim.TEST-PERP.1000', 'margin.watch'] });
    /** A fresh payload of the channel, generated now (the market is quiet: nothing moves in between). */
    const fresh = async (channel: string) => {
      const from = c.frames.length;
      await control(sb, 'push', { channel, generate: true });
      return (await c.next((f) => f.json?.params?.channel === channel, 3000, from)).json.params.data;
    };
    const oi = async () => (await fresh('ticker_slim.TEST-PERP.1000')).instrument_ticker.stats.oi;
    const positions = async () => {
      const list = (await fresh('margin.watch'))
        .flatMap((m: any) => m.positions)
        .filter((p: any) => p.instrument_name === 'TEST-PERP');
      const sum = (keep: (x: bigint) => boolean) =>
        list
          .map((p: any) => units(p.amount))
          .filter(keep)
          .reduce((x: bigint, y: bigint) => x + y, 0n);
      return { long: sum((x) => x > 0n), net: sum(() => true) };
    };
    expect(await oi()).toBe('0');
    await c.call(
      'private/order',
      await signed(w, 'private/order', {
        subaccount_id: sub,
        instrument_name: 'TEST-PERP',
        direction: 'buy',
        order_type: 'limit',
        amount: '0.5',
        limit_price: '101',
        max_fee: '10',
      }),
    );
    expect(await oi()).toBe('0.5');
    expect(await positions()).toEqual({ long: units('0.5'), net: 0n });
    await c.call(
      'private/order',
      await signed(w, 'private/order', {
        subaccount_id: sub,
        instrument_name: 'TEST-PERP',
        direction: 'sell',
        order_type: 'limit',
        amount: '0.2',
        limit_price: '99',
        max_fee: '10',
      }),
    );
    expect(await oi()).toBe('0.3');
    expect(await positions()).toEqual({ long: units('0.3'), net: 0n });
  });
});

describe('simulated participants', () => {
  it('public trades carry real counterparties and nonzero fees', async () => {
    const sb = await start({ market: { intervalMs: 20 } });
    const c = await Client.connect(sb.wsUrl);
    await c.call('subscribe', { channels: ['trades.ETH-PERP', 'trades.BTC-PERP'] });
    // Each push is a chance to be done; too few trades fail the count below, with the number seen.
    await c
      .until(() => c.pushes('trades.ETH-PERP').length + c.pushes('trades.BTC-PERP').length >= 4)
      .catch(() => undefined);
    const trades = [...c.pushes('trades.ETH-PERP'), ...c.pushes('trades.BTC-PERP')].flat();
    expect(trades.length).toBeGreaterThanOrEqual(4);
    for (const t of trades) {
      expect(t.wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(t.wallet).not.toBe(ZERO);
      expect(t.subaccount_id).toBeGreaterThan(1000);
      expect(units(t.trade_fee)).toBe((times(t.trade_price, t.trade_amount) * 3n) / 10_000n);
      expect(units(t.trade_fee)).toBeGreaterThan(0n);
    }
  });

  it('quotes answer RFQs that exist, are signed by their counterparty, with proportionate fees and margins', async () => {
    const sb = await start({ market: { intervalMs: 20 }, limits: { connections: { max: 10 } } });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    await c.call('subscribe', { channels: [`${sub}.best.quotes`, `${w.address}.rfqs`] });
    // The simulated counterparties, each listening to its own quotes.
    const makers = await Promise.all(
      counterpartyKeys().map(async (k) => {
        const m = await Client.connect(sb.wsUrl);
        const [ms] = await m.login(k);
        await m.call('subscribe', { channels: [`${ms}.quotes`] });
        return { m, channel: `${ms}.quotes` };
      }),
    );
    const legs = [
      { instrument_name: 'ETH-PERP', amount: '1.5', direction: 'buy' },
      { instrument_name: 'ETH-20261231-3000-C', amount: '2', direction: 'sell' },
    ];
    const sent = await c.call('private/send_rfq', { subaccount_id: sub, legs });
    await c.until(() => c.pushes(`${sub}.best.quotes`).length >= 1 && c.pushes(`${w.address}.rfqs`).length >= 1);
    const rfqs = new Map<string, any>(
      c
        .pushes(`${w.address}.rfqs`)
        .flat()
        .map((r: any) => [r.rfq_id, r]),
    );
    expect([...rfqs.keys()]).toEqual([sent.rfq_id]);
    for (const r of rfqs.values()) {
      expect(r.wallet).toBe(w.address);
      expect(r.subaccount_id).toBe(sub);
      expect(units(r.partial_fill_step)).toBeGreaterThan(0n);
    }
    // Each maker's connection answers in order: once its round trip is back, its quote's push is here.
    await Promise.all(makers.map(({ m }) => m.roundTrip()));
    const quotes = makers.flatMap(({ m, channel }) => m.pushes(channel).flat());
    expect(quotes.map((q: any) => q.direction).sort()).toEqual(['buy', 'sell']);
    for (const q of quotes) {
      const rfq = rfqs.get(q.rfq_id);
      expect(
        rfq,
        `quote ${q.quote_id} answers rfq ${q.rfq_id}, which never appeared on ${w.address}.rfqs`,
      ).toBeDefined();
      expect(q.legs.map((l: any) => [l.instrument_name, l.amount, l.direction])).toEqual(
        rfq.legs.map((l: any) => [l.instrument_name, l.amount, l.direction]),
      );
      expect(q.signer).not.toBe(w.address);
      // The rfq module's action, for the legs' assets in this (default) market, under the spec's deployment.
      const asset = (name: string) => {
        const a = assetOf(defaultInstruments.find((i) => i.instrument_name === name)!);
        return { base_asset_address: a.address, base_asset_sub_id: a.subId };
      };
      const { separator } = defaultActionLayout.deployment;
      expect(recoverActionSigner(quoteAction(q, asset), q.signature, separator)).toBe(q.signer);
      expect(q.legs_hash).toBe(legsHash(q.legs));
      const notional = q.legs.reduce((s: bigint, l: any) => s + times(l.price, l.amount), 0n);
      expect(units(q.fee)).toBeGreaterThan(0n);
      expect(units(q.fee) * 1000n).toBeLessThanOrEqual(notional); // at most 10 bps
      expect(units(q.max_fee)).toBeGreaterThanOrEqual(units(q.fee));
    }
    // A side with no quote yet has no best quote (is_valid false); the others name theirs.
    const bests = c.pushes(`${sub}.best.quotes`).flat();
    for (const b of bests.filter((x: any) => !x.result.best_quote)) expect(b.result.is_valid).toBe(false);
    expect(bests.filter((x: any) => x.result.best_quote).length).toBeGreaterThan(0);
    for (const b of bests.filter((x: any) => x.result.best_quote)) {
      expect(rfqs.has(b.rfq_id), `best quote for unknown rfq ${b.rfq_id}`).toBe(true);
      const r = b.result;
      expect(r.best_quote.rfq_id).toBe(b.rfq_id);
      expect(r.best_quote.wallet).not.toBe(w.address);
      const notional = r.best_quote.legs.reduce((s: bigint, l: any) => s + times(l.price, l.amount), 0n);
      const added = units(r.post_initial_margin) - units(r.pre_initial_margin);
      expect(added).toBeGreaterThanOrEqual(0n);
      expect(added * 2n).toBeLessThanOrEqual(notional);
      expect(units(r.estimated_fee) * 1000n).toBeLessThanOrEqual(notional);
      expect(units(r.suggested_max_fee)).toBeGreaterThanOrEqual(units(r.estimated_fee));
    }
  });
});

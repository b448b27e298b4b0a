/**
 * The market-data reads (issue 31, item 6): tickers of a type, a currency with its managers and
 * assets, the assets, the risk universe, option settlement prices, trade candles from the tape, index
 * candles from the sampled price, interest rates and the referral reads; each over the WebSocket and
 * HTTP, each result valid against the spec.
 */
import { describe, expect, it } from 'vitest';
import { AbiCoder, keccak256, verifyMessage } from 'ethers';
import { Client, control, newWallet, signed, start } from './helpers';
import { bothReads, wsRead } from './reads-helpers';

const quiet = { control: true, market: { intervalMs: 60_000 } };

describe('the market-data reads', () => {
  it('gives the tickers of a type, filtered by currency and expiry date, each as get_ticker gives it', async () => {
    const sb = await start(quiet);
    const c = await Client.connect(sb.wsUrl);
    const [perps, overHttp] = await bothReads(sb, c, 'public/get_tickers', { instrument_type: 'perp' });
    expect(Object.keys(perps.tickers).sort()).toEqual(['BTC-PERP', 'ETH-PERP']);
    expect(Object.keys(overHttp.tickers).sort()).toEqual(['BTC-PERP', 'ETH-PERP']);
    const one = await wsRead(c, 'public/get_ticker', { instrument_name: 'ETH-PERP' });
    expect(perps.tickers['ETH-PERP']).toMatchObject({ instrument_name: 'ETH-PERP', b: one.b, a: one.a, M: one.M });
    const eth = await wsRead(c, 'public/get_tickers', { instrument_type: 'perp', currency: 'ETH' });
    expect(Object.keys(eth.tickers)).toEqual(['ETH-PERP']);
    const byDate = await wsRead(c, 'public/get_tickers', { instrument_type: 'option', expiry_date: 20261231 });
    expect(Object.keys(byDate.tickers)).toEqual(['ETH-20261231-3000-C']);
    const none = await wsRead(c, 'public/get_tickers', { instrument_type: 'option', expiry_date: 20270101 });
    expect(none.tickers).toEqual({});
  });

  it('describes a currency with its managers and assets, the assets, and the one risk universe', async () => {
    const sb = await start(quiet);
    const c = await Client.connect(sb.wsUrl);
    const [eth] = await bothReads(sb, c, 'public/get_currency', { currency: 'ETH' });
    const listed = (await wsRead(c, 'public/get_all_currencies')).find((x: any) => x.currency === 'ETH');
    // get_all_currencies lists each currency whole (derive-ts reads `spot` of every one).
    expect(listed).toEqual(eth);
    expect(eth).toMatchObject({ managers: [{ risk_universe_id: 1, sm: 1, pm: 2 }] });
    const perp = await wsRead(c, 'public/get_instrument', { instrument_name: 'ETH-PERP' });
    expect(eth.perp).toMatchObject({ address: perp.base_asset_address, name: 'ETH-PERP' });
    const option = await wsRead(c, 'public/get_instrument', { instrument_name: 'ETH-20261231-3000-C' });
    expect(eth.option).toMatchObject({ address: option.base_asset_address, name: 'ETH-OPTION' });
    expect(eth.spot.map((s: any) => s.name)).toEqual(['ETH']);
    const usdc = await wsRead(c, 'public/get_currency', { currency: 'USDC' });
    expect(usdc).toMatchObject({ market_type: 'CASH', perp: null, option: null });
    const btc = await wsRead(c, 'public/get_currency', { currency: 'BTC' });
    expect(btc.managers[0].pm).toBeNull();
    const unknown = await c.request('public/get_currency', { currency: 'NOPE' });
    expect(unknown.error).toMatchObject({ code: -32602, data: expect.stringMatching(/unknown currency "NOPE"/) });

    const [assets] = await bothReads(sb, c, 'public/get_assets', {
      asset_type: 'option',
      currency: 'ETH',
      expired: false,
    });
    expect(assets).toMatchObject([
      { asset_name: 'ETH-20261231-3000-C', address: option.base_asset_address, sub_id: option.base_asset_sub_id },
    ]);
    expect(await wsRead(c, 'public/get_assets', { asset_type: 'perp', currency: 'ETH', expired: true })).toEqual([]);

    const [universes] = await bothReads(sb, c, 'public/get_risk_universes', null);
    expect(universes).toHaveLength(1);
    const [standard, portfolio] = universes[0].managers;
    expect(standard).toMatchObject({ manager_id: 1, margin_type: 'SM' });
    expect(standard.instruments.sort()).toEqual(['BTC-PERP', 'ETH', 'ETH-OPTION', 'ETH-PERP']);
    expect(portfolio).toMatchObject({
      manager_id: 2,
      margin_type: 'PM2',
      instruments: ['ETH-PERP', 'ETH-OPTION', 'ETH'],
    });
    const cash = standard.collaterals.find((x: any) => x.name === 'USDC');
    expect(cash.address).toBe(universes[0].security_module.cash_asset);
    expect(cash.address).toBe(usdc.spot[0].address);
  });

  it('lists option expiries unsettled, and candles of trades and of the index on the movable clock', async () => {
    const sb = await start(quiet);
    const c = await Client.connect(sb.wsUrl);
    const [prices] = await bothReads(sb, c, 'public/get_option_settlement_prices', { currency: 'ETH' });
    expect(prices.expiries).toEqual([
      { expiry_date: '20261231', utc_expiry_sec: Date.UTC(2026, 11, 31, 8) / 1000, price: null },
    ]);

    const w = newWallet();
    const [sub] = await c.login(w);
    const fill = await c.call(
      'private/order',
      await signed(w, 'private/order', {
        subaccount_id: sub!,
        instrument_name: 'ETH-PERP',
        direction: 'buy',
        amount: '0.5',
        limit_price: '4000',
        max_fee: '100',
      }),
    );
    const nowSec = Math.ceil(fill.trades[0].timestamp / 1000);
    const window = { start_timestamp: nowSec - 3600, end_timestamp: nowSec + 1, period: 3600 };
    const [candles] = await bothReads(sb, c, 'public/get_tradingview_chart_data', {
      ...window,
      instrument_name: 'ETH-PERP',
    });
    const last = candles.at(-1);
    const prices_ = fill.trades.map((t: any) => Number(t.trade_price));
    expect(Number(last.high_price)).toBeGreaterThanOrEqual(Math.max(...prices_));
    expect(Number(last.volume_contracts)).toBeGreaterThanOrEqual(0.5);
    expect(last.timestamp % 3_600_000).toBe(0);
    const bad = await c.request('public/get_tradingview_chart_data', {
      ...window,
      period: 0,
      instrument_name: 'ETH-PERP',
    });
    expect(bad.error).toMatchObject({ code: -32602, data: expect.stringMatching(/period/) });

    const spot = (await wsRead(c, 'public/get_currency', { currency: 'ETH' })).spot_price;
    const [index] = await bothReads(sb, c, 'public/get_index_chart_data', { ...window, currency: 'ETH', period: 60 });
    expect(index.at(-1).close_price).toBe(spot);
    await control(sb, 'advance', { ms: 3 * 3_600_000 });
    const later = Math.ceil(Date.now() / 1000) + 3 * 3600 + 1;
    const span = await wsRead(c, 'public/get_index_chart_data', {
      currency: 'ETH',
      start_timestamp: nowSec - 60,
      end_timestamp: later,
      period: 3600,
    });
    // The price sampled before the advance and the one now fall in different hours.
    expect(span.length).toBeGreaterThanOrEqual(2);
    expect(span[0].timestamp).toBeLessThan(span.at(-1).timestamp);
  });

  it('gives the borrow rate charged on cash, a supply rate of 0, the supply held; no referral codes', async () => {
    const sb = await start({ ...quiet, margin: { borrowRatePerYear: 0.25 } });
    const c = await Client.connect(sb.wsUrl);
    await c.login(newWallet());
    const [rates] = await bothReads(sb, c, 'public/get_interest_rate_history', { currency: 'USDC' });
    const [candle] = rates.interest_rate_history;
    expect(candle).toMatchObject({ risk_universe_id: 1, borrow_apy: { close: '0.25' }, supply_apy: { open: '0' } });
    // ETH is no cash currency: owing it is never charged.
    const [eth] = (await wsRead(c, 'public/get_interest_rate_history', { currency: 'ETH' })).interest_rate_history;
    expect(eth.borrow_apy).toEqual({ open: '0', high: '0', low: '0', close: '0' });
    expect(Number(candle.total_supply)).toBeGreaterThanOrEqual(1_000_000);
    const past = await wsRead(c, 'public/get_interest_rate_history', { currency: 'USDC', end_timestamp: 1 });
    expect(past.interest_rate_history).toEqual([]);
    const other = await wsRead(c, 'public/get_interest_rate_history', { currency: 'USDC', risk_universe_id: 9 });
    expect(other.interest_rate_history).toEqual([]);
    expect((await bothReads(sb, c, 'public/get_all_referral_codes', {}))[0]).toEqual([]);
    const [perf] = await bothReads(sb, c, 'public/get_referral_performance', {
      start_ms: 0,
      end_ms: Date.now(),
      referral_code: 'abc',
    });
    expect(perf).toMatchObject({ referral_code: 'abc', total_notional_volume: '0', rewards: {} });
  });

  it("signs the latest spot, perp and funding feeds with the oracle's key, per currency", async () => {
    const sb = await start(quiet);
    const c = await Client.connect(sb.wsUrl);
    const [feeds] = await bothReads(sb, c, 'public/get_latest_signed_feeds', {});
    expect(Object.keys(feeds.spot_data).sort()).toEqual(['BTC', 'ETH']);
    const eth = feeds.spot_data.ETH;
    expect(eth.price).toBe((await wsRead(c, 'public/get_currency', { currency: 'ETH' })).spot_price);
    expect(eth.deadline - eth.timestamp).toBe(60_000);
    const digest = keccak256(
      AbiCoder.defaultAbiCoder().encode(
        ['string', 'string', 'int256', 'uint256', 'uint64', 'uint64'],
        [
          'spot',
          'ETH',
          BigInt(Math.round(Number(eth.price) * 100)) * 10n ** 16n,
          10n ** 18n,
          eth.timestamp,
          eth.deadline,
        ],
      ),
    );
    expect(verifyMessage(digest, eth.signatures.signatures[0])).toBe(eth.signatures.signers[0]);
    const ticker = await wsRead(c, 'public/get_ticker', { instrument_name: 'ETH-PERP' });
    expect(Number(feeds.perp_data.ETH.P.spot_diff_value)).toBeCloseTo(Number(ticker.M) - Number(eth.price), 8);
    expect(Number(feeds.perp_data.ETH.A.spot_diff_value)).toBeCloseTo(Number(ticker.a) - Number(eth.price), 8);
    expect(feeds.funding_data.ETH.funding_rate).toBe(ticker.f);
    expect([feeds.fwd_data, feeds.rate_data, feeds.vol_data]).toEqual([{}, {}, {}]);
    const btc = await wsRead(c, 'public/get_latest_signed_feeds', { currency: 'BTC' });
    expect(Object.keys(btc.spot_data)).toEqual(['BTC']);
    const unknown = await c.request('public/get_latest_signed_feeds', { currency: 'NOPE' });
    expect(unknown.error).toMatchObject({ code: -32602, data: expect.stringMatching(/unknown currency "NOPE"/) });
  });
});

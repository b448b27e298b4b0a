/**
 * RFQs against the simulated maker (issue 31, item 5): a taker alone sends an RFQ, the maker's signed
 * quotes arrive (poll and channels), the taker's signed execution settles both sides' positions and
 * cash with fees; cancels, expiry and the maker's delay on the movable clock; bad input refused by name.
 */
import { describe, expect, it } from 'vitest';
import { defaultActionLayout, recoverActionSigner } from '@exchange-api/auth';
import { quoteAction } from '../src/market/rfqs';
import { loginHeaders, signLogin } from '@exchange-api/auth';
import { Client, control, newWallet, post } from './helpers';
import { defaultInstruments } from '../src/index';
import { assets, counterpartyKeys, rfqMarket, signRfq, trader, units, valid } from './rfq-support';

const LEG = { instrument_name: 'TEST-PERP', amount: '2.5', direction: 'buy' };

describe('a taker alone trades an RFQ with the simulated maker', () => {
  it('sends an RFQ, sees the two signed quotes, executes one, and both sides settle with fees', async () => {
    const sb = await rfqMarket();
    const t = await trader(sb.wsUrl);
    await t.c.call('subscribe', { channels: [`${t.sub}.best.quotes`, `${t.w.address}.rfqs`] });
    // Every simulated counterparty that may quote, listening to its own quotes.
    const makers = await Promise.all(
      counterpartyKeys()
        .slice(1)
        .map((k) => trader(sb.wsUrl, k)),
    );
    for (const m of makers) await m.c.call('subscribe', { channels: [`${m.sub}.quotes`] });
    const rfq = await t.c.call('private/send_rfq', { subaccount_id: t.sub, legs: [LEG], label: 'first' });
    valid('private/send_rfq', rfq);
    expect(rfq).toMatchObject({ status: 'open', subaccount_id: t.sub, wallet: t.w.address, label: 'first' });
    expect(rfq.ask_total_cost).not.toBeNull();
    const pushed = await t.c.nextPush(`${t.w.address}.rfqs`, undefined, (d) => d[0].rfq_id === rfq.rfq_id);
    expect(pushed[0].status).toBe('open');
    const best = await t.c.nextPush(`${t.sub}.best.quotes`, undefined, (d) => d[0].rfq_id === rfq.rfq_id);
    expect(best.map((b: any) => b.result.direction).sort()).toEqual(['buy', 'sell']);

    const poll = await t.c.call('private/poll_quotes', { subaccount_id: t.sub, rfq_id: rfq.rfq_id, status: 'open' });
    valid('private/poll_quotes', poll);
    expect(poll.quotes.map((q: any) => q.direction).sort()).toEqual(['buy', 'sell']);
    const sell = poll.quotes.find((q: any) => q.direction === 'sell');
    // The maker sells above the mark (100) and signs for real: its own record carries the signature.
    expect(Number(sell.legs[0].price)).toBeGreaterThan(100);
    expect(best.find((b: any) => b.result.direction === 'buy').result.best_quote.quote_id).toBe(sell.quote_id);
    const maker = makers.find((m) => m.w.address === sell.wallet)!;
    const [published] = await maker.c.nextPush(
      `${maker.sub}.quotes`,
      undefined,
      (d) => d[0].quote_id === sell.quote_id,
    );
    const { separator } = defaultActionLayout.deployment;
    const byName = assets(['TEST-PERP']);
    expect(
      recoverActionSigner(
        quoteAction(published, (n) => byName[n]!),
        published.signature,
        separator,
      ),
    ).toBe(sell.wallet);
    const own = await maker.c.call('private/get_quotes', { subaccount_id: maker.sub, quote_id: sell.quote_id });
    valid('private/get_quotes', own);
    expect(own.quotes[0]).toMatchObject({ status: 'open', nonce: published.nonce, liquidity_role: 'maker' });
    const bestQuote = await t.c.call('private/rfq_get_best_quote', {
      subaccount_id: t.sub,
      rfq_id: rfq.rfq_id,
      direction: 'buy',
    });
    valid('private/rfq_get_best_quote', bestQuote);
    expect(bestQuote).toMatchObject({ is_valid: true, best_quote: { quote_id: sell.quote_id } });

    const [takerCash, makerCash] = [await t.usdc(t.sub), await maker.usdc(maker.sub)];
    const makerPos = await maker.position(maker.sub, 'TEST-PERP');
    const exec = await signRfq(t.w, 'private/execute_quote', {
      subaccount_id: t.sub,
      rfq_id: rfq.rfq_id,
      quote_id: sell.quote_id,
      direction: 'buy',
      legs: sell.legs,
      max_fee: '10',
      enable_taker_protection: true,
    });
    const done = await t.c.call('private/execute_quote', exec);
    valid('private/execute_quote', done);
    const notional = (units(sell.legs[0].price) * units('2.5')) / 10n ** 12n;
    const takerFee = (notional * 3n + 5000n) / 10_000n;
    const makerFee = (notional * 1n + 5000n) / 10_000n;
    expect(done).toMatchObject({ status: 'filled', direction: 'buy', liquidity_role: 'taker', rfq_filled_pct: '1' });
    expect(units(done.fee)).toBe(takerFee);
    // A perp moves by position, and cash only by the fee (no PnL realized on an opening trade).
    expect(await t.position(t.sub, 'TEST-PERP')).toBe(units('2.5'));
    expect(await t.usdc(t.sub)).toBe(takerCash - takerFee);
    expect(await maker.position(maker.sub, 'TEST-PERP')).toBe(makerPos - units('2.5'));
    expect(await maker.usdc(maker.sub)).toBe(makerCash - makerFee);
    const trades = await t.c.call('private/get_trade_history', { subaccount_id: t.sub });
    expect(trades.trades[0]).toMatchObject({
      rfq_id: rfq.rfq_id,
      quote_id: sell.quote_id,
      trade_price: sell.legs[0].price,
    });

    const after = await t.c.call('private/get_rfqs', { subaccount_id: t.sub, rfq_id: rfq.rfq_id });
    valid('private/get_rfqs', after);
    expect(after.rfqs[0]).toMatchObject({ status: 'filled', filled_direction: 'buy', filled_pct: '1' });
    const other = await t.c.call('private/poll_quotes', { subaccount_id: t.sub, rfq_id: rfq.rfq_id });
    const buy = other.quotes.find((x: any) => x.direction === 'buy');
    expect(buy).toMatchObject({ status: 'cancelled', cancel_reason: 'rfq_no_longer_open' });
    // A second execution of the filled RFQ is refused, the positions as they were.
    const again = await t.c.request('private/execute_quote', exec);
    expect(again.error.code).toBe(11001);
    expect(await t.position(t.sub, 'TEST-PERP')).toBe(units('2.5'));
  });

  it('refuses an execution whose signature is not the taker’s, or that changes the quote’s price', async () => {
    const sb = await rfqMarket();
    const t = await trader(sb.wsUrl);
    const rfq = await t.c.call('private/send_rfq', { subaccount_id: t.sub, legs: [LEG] });
    const { quotes } = await t.c.call('private/poll_quotes', { subaccount_id: t.sub, rfq_id: rfq.rfq_id });
    const sell = quotes.find((q: any) => q.direction === 'sell');
    const base = { subaccount_id: t.sub, rfq_id: rfq.rfq_id, quote_id: sell.quote_id, direction: 'buy', max_fee: '10' };
    const stranger = (await trader(sb.wsUrl)).w;
    const forged = {
      ...(await signRfq(stranger, 'private/execute_quote', { ...base, legs: sell.legs })),
      signer: t.w.address,
    };
    const refused = await t.c.request('private/execute_quote', forged);
    expect(refused.error.code).toBe(14004);
    expect(refused.error.data).toMatch(/signature is not/);
    const cheaper = [{ ...sell.legs[0], price: '50' }];
    const moved = await t.c.request(
      'private/execute_quote',
      await signRfq(t.w, 'private/execute_quote', { ...base, legs: cheaper }),
    );
    expect(moved.error).toMatchObject({ code: 11000 });
    expect(moved.error.data).toMatch(/legs and prices exactly/);
    const fee = await t.c.request(
      'private/execute_quote',
      await signRfq(t.w, 'private/execute_quote', { ...base, legs: sell.legs, max_fee: '0' }),
    );
    expect(fee.error.data).toMatch(/below the taker fee/);
    expect(await t.position(t.sub, 'TEST-PERP')).toBe(0n);
  });

  it('cancels an RFQ with its quotes, and expires RFQs and answers late on the movable clock', async () => {
    const sb = await rfqMarket({ lifetimeMs: 60_000, maker: { delayMs: 5000 } });
    const t = await trader(sb.wsUrl);
    await t.c.call('subscribe', { channels: [`${t.w.address}.rfqs`] });
    const rfq = await t.c.call('private/send_rfq', { subaccount_id: t.sub, legs: [LEG] });
    expect((await t.c.call('private/poll_quotes', { subaccount_id: t.sub })).quotes).toEqual([]);
    await control(sb, 'advance', { ms: 5000 });
    expect((await t.c.call('private/poll_quotes', { subaccount_id: t.sub, status: 'open' })).quotes).toHaveLength(2);
    await control(sb, 'advance', { ms: 55_000 });
    const expired = await t.c.nextPush(`${t.w.address}.rfqs`, undefined, (d) => d[0].status === 'expired');
    expect(expired[0].rfq_id).toBe(rfq.rfq_id);
    const quotes = (await t.c.call('private/poll_quotes', { subaccount_id: t.sub })).quotes;
    expect(quotes.map((q: any) => q.status)).toEqual(['expired', 'expired']);

    const second = await t.c.call('private/send_rfq', { subaccount_id: t.sub, legs: [LEG], label: 'x' });
    const third = await t.c.call('private/send_rfq', { subaccount_id: t.sub, legs: [LEG], label: 'x' });
    expect(await t.c.call('private/cancel_rfq', { subaccount_id: t.sub, rfq_id: second.rfq_id })).toBe('ok');
    expect((await t.c.request('private/cancel_rfq', { subaccount_id: t.sub, rfq_id: second.rfq_id })).error.code).toBe(
      11001,
    );
    const batch = await t.c.call('private/cancel_batch_rfqs', { subaccount_id: t.sub, label: 'x' });
    expect(batch.cancelled_ids).toEqual([third.rfq_id]);
    const got = await t.c.call('private/get_rfqs', { subaccount_id: t.sub, status: 'cancelled' });
    expect(got.rfqs.map((r: any) => r.cancel_reason)).toEqual(['user_request', 'user_request']);
  });

  it('refuses bad legs and what it does not model, by name', async () => {
    const sb = await rfqMarket();
    const t = await trader(sb.wsUrl);
    const send = (extra: Record<string, unknown>) =>
      t.c.request('private/send_rfq', { subaccount_id: t.sub, legs: [LEG], ...extra }).then((r) => r.error);
    expect((await send({ legs: [{ ...LEG, instrument_name: 'NOPE-PERP' }] })).data).toMatch(
      /legs\[0\]\.instrument_name: unknown instrument/,
    );
    expect((await send({ legs: [{ ...LEG, amount: '0.05' }] })).data).toMatch(
      /legs\[0\]\.amount 0.05 is not a multiple of amount_step 0.1/,
    );
    expect((await send({ legs: [LEG, LEG] })).data).toMatch(/TEST-PERP is in two legs/);
    expect((await send({ legs: [] })).data).toMatch(/legs: from 1 to 8 legs/);
    expect((await send({ extra_fee: '1' })).data).toMatch(/^extra_fee:/);
    expect((await send({ referral_code: 'abc' })).data).toMatch(/^referral_code:/);
    expect((await send({ subaccount_id: 1 })).code).toBe(14003);
    const nonce = await t.c.request('private/cancel_batch_rfqs', { subaccount_id: t.sub, nonce: 5 });
    expect(nonce.error.data).toMatch(/^nonce: an RFQ is not signed/);
    const capped = await t.c.call('private/send_rfq', { subaccount_id: t.sub, legs: [LEG], max_total_cost: '100' });
    const { quotes } = await t.c.call('private/poll_quotes', { subaccount_id: t.sub, rfq_id: capped.rfq_id });
    const sell = quotes.find((q: any) => q.direction === 'sell');
    const exec = await signRfq(t.w, 'private/execute_quote', {
      subaccount_id: t.sub,
      rfq_id: capped.rfq_id,
      quote_id: sell.quote_id,
      direction: 'buy',
      legs: sell.legs,
      max_fee: '10',
    });
    expect((await t.c.request('private/execute_quote', exec)).error.data).toMatch(/above the RFQ's max_total_cost 100/);
  });

  it('serves over HTTP too, and a read-only session key may read RFQs but not send one', async () => {
    const w = newWallet();
    const key = newWallet();
    const sb = await rfqMarket({}, { sessionKeys: [{ address: key.address, wallet: w.address, scopes: ['read'] }] });
    const headers = async () => loginHeaders(await signLogin(w));
    const subs = (await post(sb, '/v3/private/get_subaccounts', { wallet: w.address }, await headers())).json.result
      .subaccount_ids;
    const sent = await post(sb, '/v3/private/send_rfq', { subaccount_id: subs[0], legs: [LEG] }, await headers());
    valid('private/send_rfq', sent.json.result);
    const polled = await post(sb, '/v3/private/poll_quotes', { subaccount_id: subs[0] }, await headers());
    expect(polled.json.result.quotes).toHaveLength(2);
    const reader = await Client.connect(sb.wsUrl);
    await reader.login(key, w.address);
    expect((await reader.call('private/get_rfqs', { subaccount_id: subs[0] })).rfqs).toHaveLength(1);
    const refused = await reader.request('private/send_rfq', { subaccount_id: subs[0], legs: [LEG] });
    expect(refused.error).toMatchObject({ code: 14003, data: `session key ${key.address} lacks the trade scope` });
  });

  it('settles a two-leg package: the perp by position, the option by its premium, each leg with its fee', async () => {
    const sb = await rfqMarket({}, { instruments: defaultInstruments });
    const t = await trader(sb.wsUrl);
    const legs = [
      { instrument_name: 'ETH-PERP', amount: '1', direction: 'buy' },
      { instrument_name: 'ETH-20261231-3000-C', amount: '2', direction: 'sell' },
    ];
    const rfq = await t.c.call('private/send_rfq', { subaccount_id: t.sub, legs });
    const { quotes } = await t.c.call('private/poll_quotes', { subaccount_id: t.sub, rfq_id: rfq.rfq_id });
    const sell = quotes.find((q: any) => q.direction === 'sell');
    // Legs come sorted by instrument name, as both sides sign them.
    const [call, perp] = sell.legs;
    expect([call.instrument_name, perp.instrument_name]).toEqual(['ETH-20261231-3000-C', 'ETH-PERP']);
    const maker = await trader(
      sb.wsUrl,
      counterpartyKeys().find((k) => k.address === sell.wallet)!,
    );
    const [cashT, cashM] = [await t.usdc(t.sub), await maker.usdc(maker.sub)];
    const exec = await signRfq(
      t.w,
      'private/execute_quote',
      {
        subaccount_id: t.sub,
        rfq_id: rfq.rfq_id,
        quote_id: sell.quote_id,
        direction: 'buy',
        legs: sell.legs,
        max_fee: '100',
      },
      defaultInstruments,
    );
    await t.c.call('private/execute_quote', exec);
    const value = (l: any) => (units(l.price) * units(l.amount)) / 10n ** 12n;
    const fees = (rate: bigint) => [perp, call].reduce((s, l) => s + (value(l) * rate + 5000n) / 10_000n, 0n);
    // The taker buys the perp (cash moves by the fee alone) and sells the call (it receives the premium).
    expect(await t.position(t.sub, 'ETH-PERP')).toBe(units('1'));
    expect(await t.position(t.sub, 'ETH-20261231-3000-C')).toBe(-units('2'));
    expect(await t.usdc(t.sub)).toBe(cashT + value(call) - fees(3n));
    expect(await maker.usdc(maker.sub)).toBe(cashM - value(call) - fees(1n));
  });

  it('a read filtered by a status no RFQ or quote has is refused by name, with no record to test', async () => {
    const sb = await rfqMarket();
    const t = await trader(sb.wsUrl);
    for (const method of ['private/get_rfqs', 'private/poll_rfqs', 'private/get_quotes', 'private/poll_quotes']) {
      const r = await t.c.request(method, { subaccount_id: t.sub, status: 'bogus' });
      expect(r.error, method).toBeDefined();
      expect(r.error.data, method).toMatch(/status/);
    }
  });
});

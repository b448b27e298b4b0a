/**
 * RFQs between users (issue 31, item 5): a maker sees an RFQ (poll and `{wallet}.rfqs`), quotes it with
 * a signed quote, replaces and cancels quotes; a replayed or forged quote is refused; the taker executes
 * and both sides settle; and a position transfer between two subaccounts of one wallet, both halves signed.
 */
import { describe, expect, it } from 'vitest';
import { newNonce, signTransferPositions } from '@exchange-api/auth';
import { keccak256, recoverAddress } from 'ethers';
import { Client, newWallet } from './helpers';
import { assets, inSec, rfqMarket, signRfq, trader, units, valid } from './rfq-support';

const LEG = { instrument_name: 'TEST-PERP', amount: '2.5', direction: 'buy' };
const priced = (price: string) => [{ ...LEG, price }];

/** A taker and a maker on a sandbox whose simulated maker stays quiet. */
async function pair() {
  const sb = await rfqMarket({ maker: { enabled: false } });
  const taker = await trader(sb.wsUrl);
  const maker = await trader(sb.wsUrl);
  const quote = (rfqId: string, price: string, extra: Record<string, unknown> = {}, by = maker.w) =>
    signRfq(by, 'private/send_quote', {
      subaccount_id: maker.sub,
      rfq_id: rfqId,
      direction: 'sell',
      legs: priced(price),
      max_fee: '1',
      ...extra,
    });
  return { sb, taker, maker, quote };
}

describe('RFQs between users', () => {
  it('a maker sees the RFQ, quotes, replaces; replays and forgeries are refused; the taker executes', async () => {
    const { taker, maker, quote } = await pair();
    await maker.c.call('subscribe', { channels: [`${maker.w.address}.rfqs`, `${maker.sub}.quotes`] });
    await taker.c.call('subscribe', { channels: [`${taker.sub}.best.quotes`] });
    const rfq = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG] });
    const seen = await maker.c.nextPush(`${maker.w.address}.rfqs`, undefined, (d) => d[0].rfq_id === rfq.rfq_id);
    expect(seen[0]).toMatchObject({ status: 'open', wallet: taker.w.address, legs: [LEG] });
    const polled = await maker.c.call('private/poll_rfqs', { subaccount_id: maker.sub, status: 'open' });
    valid('private/poll_rfqs', polled);
    expect(polled.rfqs.map((r: any) => r.rfq_id)).toEqual([rfq.rfq_id]);
    // The taker's own RFQ is not open to it as a maker.
    expect((await taker.c.call('private/poll_rfqs', { subaccount_id: taker.sub })).rfqs).toEqual([]);

    const first = await quote(rfq.rfq_id, '101');
    const sent = await maker.c.call('private/send_quote', first);
    valid('private/send_quote', sent);
    expect(sent).toMatchObject({ status: 'open', direction: 'sell', nonce: first.nonce, liquidity_role: 'maker' });
    const [pushed] = await maker.c.nextPush(`${maker.sub}.quotes`, undefined, (d) => d[0].quote_id === sent.quote_id);
    expect(pushed).toMatchObject({ signature: first.signature, signer: maker.w.address });
    const best = await taker.c.nextPush(`${taker.sub}.best.quotes`);
    expect(best.find((b: any) => b.result.direction === 'buy').result.best_quote.quote_id).toBe(sent.quote_id);

    const replay = await maker.c.request('private/send_quote', first);
    expect(replay.error).toMatchObject({ code: 14004 });
    expect(replay.error.data).toMatch(/nonce .* was already used/);
    const forged = { ...(await quote(rfq.rfq_id, '101', {}, newWallet())), signer: maker.w.address };
    expect((await maker.c.request('private/send_quote', forged)).error.data).toMatch(/signature is not/);
    const own = await taker.c.request(
      'private/send_quote',
      await signRfq(taker.w, 'private/send_quote', { ...first, subaccount_id: taker.sub, nonce: newNonce() }),
    );
    expect(own.error.data).toMatch(/this wallet's own/);
    const short = await maker.c.request(
      'private/send_quote',
      await quote(rfq.rfq_id, '101', { signature_expiry_sec: inSec(60) }),
    );
    expect(short.error.data).toMatch(/ends before RFQ .* closes/);
    const offTick = await maker.c.request('private/send_quote', await quote(rfq.rfq_id, '101.005'));
    expect(offTick.error.data).toMatch(/legs\[0\]\.price 101.005 is not a multiple of tick_size 0.01/);

    const replaced = await maker.c.call(
      'private/replace_quote',
      await signRfq(maker.w, 'private/replace_quote', {
        subaccount_id: maker.sub,
        rfq_id: rfq.rfq_id,
        direction: 'sell',
        legs: priced('100.5'),
        max_fee: '1',
        quote_id_to_cancel: sent.quote_id,
      }),
    );
    valid('private/replace_quote', replaced);
    expect(replaced.cancelled_quote).toMatchObject({ quote_id: sent.quote_id, status: 'cancelled' });
    const polls = await taker.c.call('private/poll_quotes', { subaccount_id: taker.sub, rfq_id: rfq.rfq_id });
    expect(polls.quotes.map((q: any) => [q.price ?? q.legs[0].price, q.status])).toEqual([
      ['100.5', 'open'],
      ['101', 'cancelled'],
    ]);

    const [cashT, cashM] = [await taker.usdc(taker.sub), await maker.usdc(maker.sub)];
    const exec = await signRfq(taker.w, 'private/execute_quote', {
      subaccount_id: taker.sub,
      rfq_id: rfq.rfq_id,
      quote_id: replaced.quote.quote_id,
      direction: 'buy',
      legs: replaced.quote.legs,
      max_fee: '1',
    });
    expect(await taker.c.call('private/execute_quote', exec)).toMatchObject({ status: 'filled' });
    const notional = units('251.25'); // 2.5 at 100.5
    expect(await taker.position(taker.sub, 'TEST-PERP')).toBe(units('2.5'));
    expect(await maker.position(maker.sub, 'TEST-PERP')).toBe(-units('2.5'));
    expect(await taker.usdc(taker.sub)).toBe(cashT - (notional * 3n) / 10_000n);
    expect(await maker.usdc(maker.sub)).toBe(cashM - (notional * 1n) / 10_000n);
    const [filled] = await maker.c.nextPush(`${maker.sub}.quotes`, undefined, (d) => d[0].status === 'filled');
    expect(filled).toMatchObject({ quote_id: replaced.quote.quote_id, fill_pct: '1', batch_status: 'Settled' });
  });

  it('cancels quotes one by one and in a batch; a cancelled quote cannot be executed', async () => {
    const { taker, maker, quote } = await pair();
    const rfq = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG] });
    const a = await maker.c.call('private/send_quote', await quote(rfq.rfq_id, '101'));
    const b = await maker.c.call('private/send_quote', await quote(rfq.rfq_id, '102', { label: 'b' }));
    const c = await maker.c.call('private/send_quote', await quote(rfq.rfq_id, '103', { label: 'b' }));
    const cancelled = await maker.c.call('private/cancel_quote', { subaccount_id: maker.sub, quote_id: a.quote_id });
    valid('private/cancel_quote', cancelled);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'user_request' });
    const batch = await maker.c.call('private/cancel_batch_quotes', { subaccount_id: maker.sub, label: 'b' });
    expect(batch.cancelled_ids.sort()).toEqual([b.quote_id, c.quote_id].sort());
    const exec = await signRfq(taker.w, 'private/execute_quote', {
      subaccount_id: taker.sub,
      rfq_id: rfq.rfq_id,
      quote_id: a.quote_id,
      direction: 'buy',
      legs: a.legs,
      max_fee: '1',
    });
    const refused = await taker.c.request('private/execute_quote', exec);
    expect(refused.error).toMatchObject({ code: 11001, data: `quote ${a.quote_id} is cancelled` });
    expect((await maker.c.call('private/get_quotes', { subaccount_id: maker.sub, status: 'open' })).quotes).toEqual([]);
  });

  it('transfer_positions moves a position between two subaccounts of one wallet, both halves signed, no fee', async () => {
    const { taker } = await pair();
    const [s0, s1] = taker.subs as [number, number];
    const [cash0, cash1] = [await taker.usdc(s0), await taker.usdc(s1)];
    const legs = [{ instrument_name: 'TEST-PERP', amount: '1', direction: 'buy', price: '100' }];
    const half = (subaccount_id: number, direction: string) => ({
      subaccount_id,
      direction,
      legs,
      max_fee: '0',
      nonce: newNonce(),
      signature_expiry_sec: inSec(700),
    });
    const params = await signTransferPositions(
      taker.w,
      { wallet: taker.w.address, maker_params: half(s0, 'sell'), taker_params: half(s1, 'buy') },
      { instruments: assets(['TEST-PERP']) },
    );
    const moved = await taker.c.call('private/transfer_positions', params);
    valid('private/transfer_positions', moved);
    expect(moved.maker_quote).toMatchObject({ is_transfer: true, status: 'filled', fee: '0' });
    expect(await taker.position(s0, 'TEST-PERP')).toBe(-units('1'));
    expect(await taker.position(s1, 'TEST-PERP')).toBe(units('1'));
    expect([await taker.usdc(s0), await taker.usdc(s1)]).toEqual([cash0, cash1]);
    const again = await taker.c.request('private/transfer_positions', params);
    expect(again.error.data).toMatch(/nonce .* was already used/);
    const same = await signTransferPositions(
      taker.w,
      { wallet: taker.w.address, maker_params: half(s0, 'sell'), taker_params: half(s0, 'buy') },
      { instruments: assets(['TEST-PERP']) },
    );
    expect((await taker.c.request('private/transfer_positions', same)).error.data).toMatch(/name one subaccount/);
  });

  it('the debug methods answer the data and hashes of a signed quote and execution, which recover to the signer', async () => {
    const { sb, maker, quote } = await pair();
    const anyone = await Client.connect(sb.wsUrl);
    const q = await quote('any-rfq', '101');
    const sent = await anyone.call('public/send_quote_debug', q);
    valid('public/send_quote_debug', sent);
    expect(recoverAddress(sent.typed_data_hash, q.signature)).toBe(maker.w.address);
    expect(sent.encoded_data_hashed).toBe(keccak256(sent.encoded_data));
    const exec = await signRfq(maker.w, 'private/execute_quote', {
      subaccount_id: maker.sub,
      rfq_id: 'any-rfq',
      quote_id: 'any-quote',
      direction: 'buy',
      legs: priced('101'),
      max_fee: '1',
    });
    const done = await anyone.call('public/execute_quote_debug', exec);
    valid('public/execute_quote_debug', done);
    expect(recoverAddress(done.typed_data_hash, exec.signature)).toBe(maker.w.address);
    // The execution's data is the hash of the legs as encoded, then the taker's max fee.
    expect(done.legs_hash).toBe(keccak256(done.encoded_legs));
    expect(done.encoded_data.slice(0, 66)).toBe(done.legs_hash);
  });

  it('an RFQ that names its counterparties is seen and quoted by them alone', async () => {
    const { sb, taker, maker, quote } = await pair();
    const outsider = await trader(sb.wsUrl);
    await maker.c.call('subscribe', { channels: [`${maker.w.address}.rfqs`] });
    await outsider.c.call('subscribe', { channels: [`${outsider.w.address}.rfqs`] });
    const rfq = await taker.c.call('private/send_rfq', {
      subaccount_id: taker.sub,
      legs: [LEG],
      counterparties: [maker.w.address.toLowerCase()],
    });
    expect(rfq.counterparties).toEqual([maker.w.address]);
    await maker.c.nextPush(`${maker.w.address}.rfqs`, undefined, (d) => d[0].rfq_id === rfq.rfq_id);
    expect((await outsider.c.call('private/poll_rfqs', { subaccount_id: outsider.sub })).rfqs).toEqual([]);
    expect((await maker.c.call('private/poll_rfqs', { subaccount_id: maker.sub })).rfqs).toHaveLength(1);
    const theirs = await signRfq(outsider.w, 'private/send_quote', {
      subaccount_id: outsider.sub,
      rfq_id: rfq.rfq_id,
      direction: 'sell',
      legs: priced('101'),
      max_fee: '1',
    });
    expect((await outsider.c.request('private/send_quote', theirs)).error.data).toMatch(/is not one of them/);
    expect(await maker.c.call('private/send_quote', await quote(rfq.rfq_id, '101'))).toMatchObject({ status: 'open' });
    // The outsider's channel carries its own RFQ, sent after, and never the one it may not quote.
    const own = await outsider.c.call('private/send_rfq', { subaccount_id: outsider.sub, legs: [LEG] });
    const address = `${outsider.w.address}.rfqs`;
    await outsider.c.nextPush(address, undefined, (d) => d[0].rfq_id === own.rfq_id);
    const pushed = outsider.c.frames.filter((f: any) => f.json?.params?.channel === address);
    expect(pushed.map((f: any) => f.json.params.data[0].rfq_id)).toEqual([own.rfq_id]);
  });

  it('cancel on disconnect cancels the maker’s open quotes when its last connection closes', async () => {
    const { taker, maker, quote } = await pair();
    await taker.c.call('subscribe', { channels: [`${taker.sub}.best.quotes`] });
    const rfq = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG] });
    const q = await maker.c.call('private/send_quote', await quote(rfq.rfq_id, '101'));
    expect(await maker.c.call('private/set_cancel_on_disconnect', { enabled: true })).toBe('ok');
    maker.c.close();
    await taker.c.nextPush(`${taker.sub}.best.quotes`, undefined, (d) => d.every((b: any) => !b.result.best_quote));
    const { quotes } = await taker.c.call('private/poll_quotes', { subaccount_id: taker.sub, rfq_id: rfq.rfq_id });
    expect(quotes).toMatchObject([
      { quote_id: q.quote_id, status: 'cancelled', cancel_reason: 'cancel_on_disconnect' },
    ]);
  });
});

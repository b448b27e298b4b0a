/**
 * Liquidation (issue 31, item 2), driven by the mark through the control plane: a subaccount below its
 * maintenance margin goes to auction (auctions.watch pushes it with its AuctionDetails, its orders are
 * cancelled, it takes none), public/start_auction answers for it and refuses a healthy one, a liquidator
 * bids with private/liquidate and takes the account's share at the mark plus the discount, the auction
 * ends, and the liquidation history shows it. Real WebSocket, real signatures.
 */
import type { SandboxOptions } from '../src/index';
import { describe, expect, it } from 'vitest';
import { Client, newWallet, post } from './helpers';
import { httpRead, valid, wsRead } from './reads-helpers';
import { nextNonce, smallAccount } from './margin-helpers';

const DISCOUNT = 0.05;

/** A long of `size` TEST-PERP on `keep` USDC, and the mark at which the account falls below maintenance. */
async function underwater(keep: number, size: string, extra: SandboxOptions = {}) {
  const a = await smallAccount(keep, { margin: { auctionDiscount: DISCOUNT }, ...extra });
  expect((await a.order('buy', size, '101')).result.order.order_status).toBe('filled');
  const p = await a.position();
  const amount = Number(p.amount);
  // value = cash + amount × (mark − entry) falls below 5 % of amount × mark at this mark.
  const edge = (amount * Number(p.average_price) - (await a.cash())) / (0.95 * amount);
  return { ...a, amount, below: Math.floor(edge) - 1 };
}

describe('liquidation', () => {
  it('sends an account below maintenance to auction when the mark moves, and a bid takes it over', async () => {
    // A read-only session key of the liquidator's wallet: its login may not bid.
    const liq = newWallet();
    const reader = newWallet();
    const a = await underwater(1_000, '50', {
      sessionKeys: [{ address: reader.address, wallet: liq.address, scopes: ['read'] }],
    });
    await a.c.call('subscribe', { channels: ['auctions.watch'] });
    const resting = await a.order('buy', '1', '50');
    expect(resting.result.order.order_status).toBe('open');
    // Still above maintenance: no auction, and start_auction says why.
    const early = await post(a.sb, '/v3/public/start_auction', { subaccount_id: a.sub });
    expect(early.json.error).toMatchObject({ code: 11200, data: expect.stringMatching(/not below its maintenance/) });

    const pushed = a.c.nextPush('auctions.watch', undefined, (d) => d.some((x: any) => x.subaccount_id === a.sub));
    await a.mark(a.below);
    const [auction] = (await pushed).filter((x: any) => x.subaccount_id === a.sub);
    expect(auction).toMatchObject({ state: 'ongoing', details: { margin_type: 'SM' } });
    const mtm = Number(auction.details.estimated_mtm);
    expect(Number(auction.details.estimated_bid_price)).toBeCloseTo(mtm * (1 - DISCOUNT), 4);
    expect(auction.details.subaccount_balances['TEST-PERP']).toBe(String(a.amount));
    const s = await wsRead(a.c, 'private/get_subaccount', { subaccount_id: a.sub });
    expect(s.is_under_liquidation).toBe(true);
    expect(s.open_orders).toEqual([]);
    expect((await a.order('sell', '1', '50')).error).toMatchObject({
      code: 11027,
      data: expect.stringMatching(/liquidation auction/),
    });
    const started = await post(a.sb, '/v3/public/start_auction', { subaccount_id: a.sub });
    valid('public/start_auction', started.json.result);

    // A liquidator bids for the whole account.
    const lc = await Client.connect(a.sb.wsUrl);
    const [mine] = (await lc.login(liq)) as [number];
    const before = Number(
      (await lc.call('private/get_collaterals', { subaccount_id: mine })).collaterals.find(
        (x: any) => x.asset_name === 'USDC',
      ).amount,
    );
    const bid = (extra: Record<string, unknown> = {}) => ({
      subaccount_id: mine,
      liquidated_account_id: a.sub,
      percent_of_acc: '1',
      price_limit: String(mtm),
      cash_transfer: '0',
      merge_account: true,
      last_seen_trade_id: 0,
      nonce: nextNonce(),
      signer: liq.address,
      signature: `0x${'11'.repeat(65)}`,
      signature_expiry_sec: Math.floor(Date.now() / 1000) + 600,
      ...extra,
    });
    const low = await lc.request('private/liquidate', bid({ price_limit: '0.01' }));
    expect(low.error).toMatchObject({ code: 11202, data: expect.stringMatching(/price_limit/) });
    const newSub = await lc.request('private/liquidate', bid({ merge_account: false }));
    expect(newSub.error).toMatchObject({ code: 11000, data: expect.stringMatching(/merge_account/) });
    const stale = await lc.request('private/liquidate', bid({ last_seen_trade_id: 3 }));
    expect(stale.error).toMatchObject({ code: 11203, data: expect.stringMatching(/last_seen_trade_id/) });
    const stranger = await lc.request('private/liquidate', bid({ signer: newWallet().address }));
    expect(stranger.error.code).toBe(14004);
    const rc = await Client.connect(a.sb.wsUrl);
    await rc.login(reader, liq.address);
    const readOnly = await rc.request('private/liquidate', bid());
    expect(readOnly.error).toMatchObject({ code: 14003, data: `session key ${reader.address} lacks the trade scope` });
    const ended = a.c.nextPush('auctions.watch', undefined, (d) =>
      d.some((x: any) => x.subaccount_id === a.sub && x.state === 'ended'),
    );
    const done = await lc.call('private/liquidate', bid());
    valid('private/liquidate', done);
    await ended;
    const theirs = (await lc.call('private/get_positions', { subaccount_id: mine })).positions[0];
    expect(theirs).toMatchObject({ instrument_name: 'TEST-PERP', amount: String(a.amount) });
    const after = Number(
      (await lc.call('private/get_collaterals', { subaccount_id: mine })).collaterals.find(
        (x: any) => x.asset_name === 'USDC',
      ).amount,
    );
    expect(after - before).toBeCloseTo(mtm * DISCOUNT, 4);
    expect(await a.position()).toBeUndefined();
    expect((await wsRead(a.c, 'private/get_subaccount', { subaccount_id: a.sub })).is_under_liquidation).toBe(false);

    const history = await wsRead(a.c, 'private/get_liquidation_history', { subaccount_id: a.sub });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      subaccount_id: a.sub,
      auction_type: 'solvent',
      bids: [{ percent_liquidated: '1' }],
    });
    expect(history[0].end_timestamp).toBeGreaterThanOrEqual(history[0].start_timestamp);
    expect(await wsRead(a.c, 'private/get_liquidation_history', { wallet: a.w.address })).toEqual(history);
    const [asLiquidator] = (await wsRead(lc, 'private/get_liquidator_history', { subaccount_id: mine })).bids;
    expect(asLiquidator).toEqual(history[0].bids[0]);
    expect((await lc.request('private/get_liquidator_history', { subaccount_id: a.sub })).error.code).toBe(14003);
    const everyone = await httpRead(a.sb, 'public/get_liquidation_history', {});
    expect(everyone.auctions).toEqual(history);
    expect(everyone.pagination).toEqual({ num_pages: 1, count: 1 });
    const other = await httpRead(a.sb, 'public/get_liquidation_history', { subaccount_id: mine });
    expect(other.auctions).toEqual([]);
    const gone = await lc.request('private/liquidate', bid());
    expect(gone.error).toMatchObject({ code: 11200, data: expect.stringMatching(/no live auction/) });
  });

  it('an auction nobody bids on ends after margin.auctionMs of the clock', async () => {
    const a = await underwater(1_000, '50');
    await a.mark(a.below);
    expect((await wsRead(a.c, 'private/get_subaccount', { subaccount_id: a.sub })).is_under_liquidation).toBe(true);
    // The auction ends, and the account, still below maintenance, goes to auction again at the next check.
    await post(a.sb, '/control/advance', { ms: 600_000 });
    const history = await wsRead(a.c, 'private/get_liquidation_history', { subaccount_id: a.sub });
    expect(history.length).toBeGreaterThanOrEqual(1);
    expect(history.at(-1).end_timestamp).not.toBeNull();
    expect(history.at(-1).bids).toEqual([]);
  });
});

/**
 * The seeded vaults (issue 31, item 6): their public reads; a shareholder's signed deposit and
 * withdrawal, live until the simulated curator settles them a minute later on the movable clock,
 * then shares and USDC accounted; the cooldown after a deposit; cancelling; the request history. Each
 * read valid against the spec, over the WebSocket and HTTP.
 */
import { describe, expect, it } from 'vitest';
import { keccak256 } from 'ethers';
import { Client, control, newWallet, signed, start } from './helpers';
import { bothReads, httpRead, wsRead } from './reads-helpers';

const MINUTE = 60_000;

describe('the seeded vaults', () => {
  it('lists vaults with their figures and events, and refuses an unknown one by its id', async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    const c = await Client.connect(sb.wsUrl);
    const [all, overHttp] = await bothReads(sb, c, 'public/get_vaults', {});
    expect(overHttp).toEqual(all);
    expect(all.vaults).toHaveLength(2);
    expect(all.pagination).toEqual({ num_pages: 1, count: 2 });
    const [first] = all.vaults;
    expect(first).toMatchObject({ nav_usd: '250000', simulated_share_price_usd: '1' });
    expect(first.protocol).toMatchObject({ total_shares: '250000', closed: false });
    const [one] = await bothReads(sb, c, 'public/get_vault', { subaccount_id: first.protocol.subaccount_id });
    expect(one).toEqual(first);
    const paged = await wsRead(c, 'public/get_vaults', { page: 2, page_size: 1 });
    expect(paged.vaults.map((v: any) => v.name)).toEqual([all.vaults[1].name]);
    const [events] = await bothReads(sb, c, 'public/get_vault_action_history', {
      subaccount_id: first.protocol.subaccount_id,
    });
    expect(events.events).toMatchObject([{ event_type: 'create', holder: first.curator, shares_delta: '250000' }]);
    const [perf] = await bothReads(sb, c, 'public/get_vault_performance_history', {
      subaccount_id: first.protocol.subaccount_id,
      resolution: '1h',
    });
    expect(perf.points).toMatchObject([{ nav: '250000', share_price: '1' }]);
    const unknown = await c.request('public/get_vault', { subaccount_id: 5 });
    expect(unknown.error).toMatchObject({ code: 14003, data: expect.stringMatching(/no vault with subaccount_id 5/) });
    // Reads of a subaccount that is no vault: nothing happened there.
    expect((await wsRead(c, 'public/get_vault_action_history', { subaccount_id: 5 })).events).toEqual([]);
    const none = await wsRead(c, 'public/get_vault_performance_history', { subaccount_id: 5, resolution: '1h' });
    expect(none.points).toEqual([]);
  });

  it('queues a signed deposit, mints shares a minute later, then burns them after the cooldown', async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const vault = (await wsRead(c, 'public/get_vaults', {})).vaults[0];
    const id = vault.protocol.subaccount_id;
    const usdc = async () =>
      Number(
        (await wsRead(c, 'private/get_collaterals', { subaccount_id: sub })).collaterals.find(
          (x: any) => x.currency === 'USDC',
        ).amount,
      );
    const before = await usdc();
    const deposit = await signed(w, 'private/request_vault_deposit', {
      subaccount_id: sub!,
      vault_subaccount_id: id,
      deposit_spot_asset: vault.protocol.config.deposit_spot_asset,
      amount: '1000',
    });
    const ack = await wsRead(c, 'private/request_vault_deposit', deposit);
    expect(ack.request_id).toMatchObject({ wallet: w.address, vault_subaccount_id: id });
    const replay = await c.request('private/request_vault_deposit', deposit);
    expect(replay.error.data).toMatch(/nonce .* was already used/);

    const [live] = await bothReads(sb, c, 'private/get_live_vault_requests', { wallet: w.address }, w);
    expect(live.total).toBe(1);
    expect(live.requests[0]).toMatchObject({ id: ack.request_id, subaccount_id: sub });
    const mints = await wsRead(c, 'private/get_live_mint_requests', { subaccount_id: id, limit: 10 });
    expect(mints.requests.map((r: any) => r.id)).toEqual([ack.request_id]);
    expect(await usdc()).toBe(before);

    await control(sb, 'advance', { ms: MINUTE });
    const [shares] = await bothReads(sb, c, 'private/get_vault_shares', { wallet: w.address }, w);
    expect(shares.vaults).toMatchObject([{ shares: '1000', vault: { nav_usd: '251000' } }]);
    expect(await usdc()).toBe(before - 1000);
    expect((await wsRead(c, 'private/get_shareholder_vaults', { wallet: w.address })).subaccount_ids).toEqual([id]);
    expect((await wsRead(c, 'private/get_live_vault_requests', { wallet: w.address })).total).toBe(0);

    const withdraw = async (shares: string) =>
      c.request(
        'private/request_vault_withdraw',
        await signed(
          w,
          'private/request_vault_withdraw',
          {
            subaccount_id: sub!,
            vault_subaccount_id: id,
            shares_to_burn: shares,
          },
          { expiry: Math.floor(Date.now() / 1000) + 86_400 },
        ),
      );
    expect((await withdraw('400')).error.data).toMatch(/cooldown of 3600 s/);
    await control(sb, 'advance', { ms: 3600_000 });
    expect((await withdraw('1001')).error.data).toMatch(/more than the 1000 shares/);
    expect((await withdraw('400')).error).toBeUndefined();
    await control(sb, 'advance', { ms: MINUTE });
    expect((await wsRead(c, 'private/get_vault_shares', { wallet: w.address })).vaults[0].shares).toBe('600');
    expect(await usdc()).toBe(before - 600);

    const [history] = await bothReads(sb, c, 'private/get_vault_request_history', { wallet: w.address }, w);
    expect(history.actions.map((a: any) => [a.event_type, a.status])).toEqual([
      ['withdraw', 'burned'],
      ['withdraw', 'requested'],
      ['deposit', 'minted'],
      ['deposit', 'requested'],
    ]);
    const events = await wsRead(c, 'public/get_vault_action_history', { subaccount_id: id });
    expect(events.events.map((e: any) => [e.event_type, e.shares_delta])).toEqual([
      ['burn', '-400'],
      ['mint', '1000'],
      ['create', '250000'],
    ]);
    expect((await wsRead(c, 'private/get_curated_vaults', { wallet: w.address })).subaccount_ids).toEqual([]);
  });

  it('cancels live requests, and refuses a deposit it cannot take or one signed by someone else', async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const vault = (await wsRead(c, 'public/get_vaults', {})).vaults[1];
    const id = vault.protocol.subaccount_id;
    const deposit = (amount: string, asset = vault.protocol.config.deposit_spot_asset) =>
      signed(w, 'private/request_vault_deposit', {
        subaccount_id: sub!,
        vault_subaccount_id: id,
        deposit_spot_asset: asset,
        amount,
      });
    await wsRead(c, 'private/request_vault_deposit', await deposit('5'));
    await wsRead(c, 'private/request_vault_deposit', await deposit('7'));
    const cancel = await signed(w, 'private/cancel_all_vault_requests', {
      subaccount_id: sub!,
      vault_subaccount_id: id,
    });
    // Over HTTP: the signed request carries its own signature, the login its headers.
    const cancelled = await httpRead(sb, 'private/cancel_all_vault_requests', cancel, w);
    expect(cancelled.cancelled_request_ids).toHaveLength(2);
    expect((await wsRead(c, 'private/get_live_vault_requests', { wallet: w.address })).total).toBe(0);
    await control(sb, 'advance', { ms: MINUTE });
    expect((await wsRead(c, 'private/get_vault_shares', { wallet: w.address })).vaults).toEqual([]);

    expect((await c.request('private/request_vault_deposit', await deposit('99999999'))).error.data).toMatch(
      /holds .* USDC, less than 99999999/,
    );
    const wrongAsset = await c.request('private/request_vault_deposit', await deposit('1', `0x${'1'.repeat(40)}`));
    expect(wrongAsset.error.data).toMatch(/is not vault .*'s deposit asset/);
    const forged = { ...(await deposit('1')), signature: (await deposit('2')).signature };
    const refused = await c.request('private/request_vault_deposit', forged);
    expect(refused.error.data).toMatch(/signature is not/);
  });

  it("lets a wallet create a vault and settle its shareholders' requests at a price within its slippage", async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    const curator = newWallet();
    const holder = newWallet();
    const cc = await Client.connect(sb.wsUrl);
    const hc = await Client.connect(sb.wsUrl);
    const [csub] = await cc.login(curator);
    const [hsub] = await hc.login(holder);
    const usdcAsset = (await wsRead(cc, 'public/get_vaults', {})).vaults[0].protocol.config.deposit_spot_asset;
    const params = {
      subaccount_id: csub!,
      manager_id: 1,
      deposit_spot_asset: usdcAsset,
      initial_deposit: '1000',
      initial_share_price_usd: '2',
      management_fee_bps: 0,
      performance_fee_bps: 1000,
      max_slippage_bps: 100,
      cooldown_sec: 0,
      max_fee_usd: '10',
      benchmark_asset: null,
    };
    await wsRead(cc, 'private/create_vault', await signed(curator, 'private/create_vault', params));
    const [id] = (await wsRead(cc, 'private/get_curated_vaults', { wallet: curator.address })).subaccount_ids;
    const vault = await wsRead(cc, 'public/get_vault', { subaccount_id: id });
    expect(vault).toMatchObject({ curator: curator.address, nav_usd: '1000', simulated_share_price_usd: '2' });
    expect(vault.protocol).toMatchObject({ total_shares: '500', config: { performance_fee_bps: 1000 } });
    const benchmark = await cc.request(
      'private/create_vault',
      await signed(curator, 'private/create_vault', { ...params, benchmark_asset: usdcAsset }),
    );
    expect(benchmark.error.data).toMatch(/benchmark_asset: not modelled/);

    expect((await hc.request('private/update_vault_info', { subaccount_id: id, name: 'x' })).error.code).toBe(14003);
    await bothReads(sb, cc, 'private/update_vault_info', { subaccount_id: id, name: 'Mine', mtm_cap: '5000' }, curator);
    expect(await wsRead(cc, 'public/get_vault', { subaccount_id: id })).toMatchObject({
      name: 'Mine',
      mtm_cap: '5000',
    });

    const ack = await wsRead(
      hc,
      'private/request_vault_deposit',
      await signed(holder, 'private/request_vault_deposit', {
        subaccount_id: hsub!,
        vault_subaccount_id: id,
        deposit_spot_asset: usdcAsset,
        amount: '100',
      }),
    );
    // Not a simulated curator's vault: nothing settles it but its curator.
    await control(sb, 'advance', { ms: MINUTE });
    const live = await wsRead(cc, 'private/get_live_mint_requests', { subaccount_id: id, limit: 10 });
    expect(live.requests.map((r: any) => r.id)).toEqual([ack.request_id]);
    const dataHash = keccak256(Uint8Array.from(live.requests[0].signed_action.action.data));
    const mint = (price: string, hash = dataHash) =>
      signed(
        curator,
        'private/mint_vault_shares',
        { subaccount_id: id, request_id: ack.request_id, share_price: price, deposit_hash: hash },
        { expiry: Math.floor(Date.now() / 1000) + 86_400 },
      );
    expect((await cc.request('private/mint_vault_shares', await mint('2.1'))).error.data).toMatch(
      /more than 100 bps from the share price 2/,
    );
    expect((await cc.request('private/mint_vault_shares', await mint('2', `0x${'0'.repeat(64)}`))).error.data).toMatch(
      /deposit_hash .* is not the request's/,
    );
    expect((await hc.request('private/mint_vault_shares', await mint('2'))).error).toBeDefined();
    await wsRead(cc, 'private/mint_vault_shares', await mint('2'));
    expect((await wsRead(hc, 'private/get_vault_shares', { wallet: holder.address })).vaults).toMatchObject([
      { shares: '50', vault: { nav_usd: '1100' } },
    ]);

    const withdraw = await wsRead(
      hc,
      'private/request_vault_withdraw',
      await signed(
        holder,
        'private/request_vault_withdraw',
        { subaccount_id: hsub!, vault_subaccount_id: id, shares_to_burn: '50' },
        { expiry: Math.floor(Date.now() / 1000) + 86_400 },
      ),
    );
    const burns = await wsRead(cc, 'private/get_live_burn_requests', { subaccount_id: id, limit: 10 });
    await wsRead(
      cc,
      'private/burn_vault_shares',
      await signed(
        curator,
        'private/burn_vault_shares',
        {
          subaccount_id: id,
          request_id: withdraw.request_id,
          share_price: '2',
          withdraw_hash: keccak256(Uint8Array.from(burns.requests[0].signed_action.action.data)),
        },
        { expiry: Math.floor(Date.now() / 1000) + 86_400 },
      ),
    );
    expect((await wsRead(hc, 'private/get_vault_shares', { wallet: holder.address })).vaults).toEqual([]);
    expect((await wsRead(cc, 'public/get_vault', { subaccount_id: id })).nav_usd).toBe('1000');

    // The curator rejects one deposit and mints another, then force-burns the holder out.
    const deposit = async (amount: string) =>
      (
        await wsRead(
          hc,
          'private/request_vault_deposit',
          await signed(holder, 'private/request_vault_deposit', {
            subaccount_id: hsub!,
            vault_subaccount_id: id,
            deposit_spot_asset: usdcAsset,
            amount,
          }),
        )
      ).request_id;
    const rejected = await deposit('10');
    expect(await wsRead(cc, 'private/reject_deposit_request', { request_id: rejected, reason: 'not today' })).toEqual({
      request_id: rejected,
    });
    expect((await wsRead(hc, 'private/get_live_vault_requests', { wallet: holder.address })).total).toBe(0);
    const kept = await deposit('20');
    const [pending] = (await wsRead(cc, 'private/get_live_mint_requests', { subaccount_id: id, limit: 1 })).requests;
    await wsRead(
      cc,
      'private/mint_vault_shares',
      await signed(
        curator,
        'private/mint_vault_shares',
        {
          subaccount_id: id,
          request_id: kept,
          share_price: '2',
          deposit_hash: keccak256(Uint8Array.from(pending.signed_action.action.data)),
        },
        { expiry: Math.floor(Date.now() / 1000) + 86_400 },
      ),
    );
    expect((await hc.request('private/force_burn', { subaccount_id: id, holder: holder.address })).error.code).toBe(
      14003,
    );
    await wsRead(cc, 'private/force_burn', { subaccount_id: id, holder: holder.address });
    expect((await wsRead(hc, 'private/get_vault_shares', { wallet: holder.address })).vaults).toEqual([]);
    const history = await wsRead(hc, 'private/get_vault_request_history', { wallet: holder.address });
    expect(history.actions.slice(0, 4).map((a: any) => [a.event_type, a.status, a.error_reason])).toEqual([
      ['force_burn', 'burned', ''],
      ['deposit', 'minted', ''],
      ['deposit', 'requested', ''],
      ['deposit', 'rejected', 'not today'],
    ]);
  });
});

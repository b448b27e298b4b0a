/**
 * The account record, deposit addresses and deposits on their way, the on-chain reads and the signing
 * debug methods (issue 31, item 3), each over a real WebSocket or HTTP with real signatures, each result
 * valid against the spec. The chain's part of a deposit stands in as the control plane's `deposit`.
 */
import { describe, expect, it } from 'vitest';
import { actionDigest, actionHash, actionOf, defaultActionLayout } from '@exchange-api/auth';
import { Client, control, newWallet, post, quietMarket, signed, start } from './helpers';
import { bothReads, httpRead, valid, wsRead } from './reads-helpers';
import { withdrawal } from './margin-helpers';

const options = { ...quietMarket, control: true };

describe('account and chain reads', () => {
  it('private/get_account: subaccounts, fees, rates, cancel on disconnect and whitelisted recipients', async () => {
    const sb = await start({ ...options, limits: { ...options.limits, non_matching: { points: 50, windowMs: 5000 } } });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const subs = await c.login(w);
    await c.call('private/set_cancel_on_disconnect', { enabled: true, wallet: w.address });
    const [account, overHttp] = await bothReads(sb, c, 'private/get_account', { wallet: w.address }, w);
    expect(overHttp).toEqual(account);
    expect(account).toMatchObject({
      wallet: w.address,
      subaccount_ids: subs,
      cancel_on_disconnect: true,
      websocket_non_matching_tps: 10,
      websocket_matching_tps: 20,
      whitelisted_recipients: [],
      fee_info: { perp_taker_fee: '0.0003', perp_maker_fee: '0.0001' },
    });
    expect((await c.request('private/get_account', { wallet: newWallet().address })).error.code).toBe(14003);
  });

  it('a deposit to a registered address waits for confirmation on the clock, then credits and is listed', async () => {
    const sb = await start(options);
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const reg = await httpRead(sb, 'public/register_deposit_address', { wallet: w.address, deposit_type: 'standard' });
    expect(reg).toMatchObject({ wallet: w.address, subaccount_id: sub, deposit_type: 'standard' });
    const again = await httpRead(sb, 'public/register_deposit_address', {
      wallet: w.address,
      deposit_type: 'standard',
    });
    expect(again.deposit_address).toBe(reg.deposit_address);
    const seen = await control(sb, 'deposit', { deposit_address: reg.deposit_address, asset: 'USDC', amount: '250' });
    expect(seen.json).toMatchObject({ status: 'pending', subaccount_id: sub, amount: '250' });
    const pending = await httpRead(sb, 'public/get_pending_deposits', { wallet: w.address });
    expect(pending.pending_deposits).toEqual([seen.json]);
    const before = await wsRead(c, 'private/get_deposit_history', { subaccount_id: sub });
    expect(before.deposits).toEqual([]);
    await control(sb, 'advance', { ms: 60_000 });
    expect((await httpRead(sb, 'public/get_pending_deposits', { wallet: w.address })).pending_deposits).toEqual([]);
    const [deposit] = (await wsRead(c, 'private/get_deposit_history', { subaccount_id: sub })).deposits;
    expect(deposit).toMatchObject({ amount: '250', asset: 'USDC', subaccount_id: sub });

    const tx = await httpRead(sb, 'public/get_transaction', { op_uuid: deposit.batch_uuid });
    expect(tx).toMatchObject({ status: 'Settled', transaction_hash: deposit.tx_hash });
    expect(JSON.parse(tx.data)).toMatchObject({ amount: '250', subaccount_id: sub });
    const missing = await httpRead(sb, 'public/get_transaction', { op_uuid: 'nope' });
    expect(missing).toMatchObject({ status: null, error_log: expect.stringMatching(/no operation nope/) });
    await c.call('private/withdraw', await withdrawal(w, w.address, sub!, '10'));
    const actions = await httpRead(sb, 'public/get_onchain_action_history', { wallet: w.address });
    expect(actions.actions.map((a: any) => a.action_type_label)).toEqual(['withdrawal', 'deposit']);
    expect(actions.actions[1]).toMatchObject({ op_uuid: deposit.batch_uuid, status: 'settled', acc: w.address });
    const unregistered = await control(sb, 'deposit', {
      deposit_address: newWallet().address,
      asset: 'USDC',
      amount: '1',
    });
    expect(unregistered).toMatchObject({ status: 400, json: { error: expect.stringMatching(/not registered/) } });
  });

  it(
    'private/order_debug reports what the server computes ' +
      'and places nothing; a wrong signer is shown, not refused',
    async () => {
      const sb = await start(options);
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const order = {
        subaccount_id: sub!,
        instrument_name: 'TEST-PERP',
        direction: 'buy',
        amount: '1',
        limit_price: '99',
        max_fee: '1',
      };
      const p = await signed(w, 'private/order', order);
      const debug = await wsRead(c, 'private/order_debug', p);
      expect(debug).toMatchObject({ recovered_signer: w.address, expected_signer: w.address, owner: w.address });
      const deployment = defaultActionLayout.deployment;
      const action = actionOf('private/order', p as never, {
        owner: w.address,
        signer: w.address,
        deployment,
        instrument: {
          base_asset_address: debug.input_data.data.asset_address,
          base_asset_sub_id: debug.input_data.data.asset_sub_id,
        },
      });
      expect(debug.action_hash).toBe(actionHash(action));
      expect(debug.typed_data_hash).toBe(actionDigest(debug.domain_separator, debug.action_hash));
      expect(debug.input_data.data).toMatchObject({
        is_bid: true,
        limit_price: '99000000000000000000',
        recipient_id: sub,
      });
      const forged = await signed(newWallet(), 'private/order', order);
      const shown = await wsRead(c, 'private/order_debug', { ...forged, signer: w.address });
      expect(shown.recovered_signer).not.toBe(w.address);
      expect((await wsRead(c, 'private/get_open_orders', { subaccount_id: sub })).orders).toEqual([]);
    },
  );

  it('the public debug methods need no login and name an unknown subaccount', async () => {
    const sb = await start(options);
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const params = {
      subaccount_id: sub,
      asset_name: 'USDC',
      amount_in_underlying: '5',
      max_fee_usd: '0',
      force_batch: false,
      nonce: 7,
      signer: w.address,
      signature_expiry_sec: Math.floor(Date.now() / 1000) + 600,
    };
    const r = await post(sb, '/v3/public/withdraw_debug', params);
    expect(r.json.error).toBeUndefined();
    valid('public/withdraw_debug', r.json.result);
    expect(r.json.result).toMatchObject({ owner: w.address, encoded_data: expect.stringMatching(/^0x[0-9a-f]+$/) });
    // A subaccount the sandbox does not know: the signer is the owner, as the clients sign by default.
    const unknown = await post(sb, '/v3/public/withdraw_debug', { ...params, subaccount_id: 123 });
    expect(unknown.json.result.owner).toBe(w.address);
    const noSigner = await post(sb, '/v3/public/withdraw_debug', { ...params, signer: 'nope' });
    expect(noSigner.json.error.code).toBe(14013);
    const legs = [{ instrument_name: 'TEST-PERP', direction: 'buy', price: '100', amount: '1' }];
    const quote = { ...params, direction: 'sell', legs, max_fee: '1', rfq_id: 'r', signature: `0x${'11'.repeat(65)}` };
    const sent = await post(sb, '/v3/public/send_quote_debug', quote);
    valid('public/send_quote_debug', sent.json.result);
    const executed = await post(sb, '/v3/public/execute_quote_debug', { ...quote, quote_id: 'q' });
    valid('public/execute_quote_debug', executed.json.result);
    expect(executed.json.result.encoded_data.slice(2, 66)).toBe(executed.json.result.legs_hash.slice(2));
  });
});

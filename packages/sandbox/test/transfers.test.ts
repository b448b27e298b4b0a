import { describe, expect, it } from 'vitest';
import type { Signer } from 'ethers';
import { loginHeaders, newNonce, signAction, signLogin } from '@exchange-api/auth';
import { validators, type ValidateFunction } from '@exchange-api/validators';
import { cashAssetOf } from '../src/market/funds';
import { Client, control, newWallet, post, quietMarket, signed, start } from './helpers';

const options = { ...quietMarket, control: true };
const USDC = cashAssetOf('USDC');
const table = { ...validators.results, ...validators.assumedResults } as Record<string, ValidateFunction>;
const valid = (method: string, result: unknown) =>
  expect(table[method]!(result), `${method}: ${JSON.stringify(table[method]!.errors)}`).toBe(true);
const inSec = (s: number) => Math.floor(Date.now() / 1000) + s;
const STARTING = 1_000_000;
/** A whole-number nonce (the transfer and withdrawal params type it as a JSON number), never reused. */
let lastNonce = Date.now() * 1000;
const nextNonce = () => ++lastNonce;

/** A transfer_spot request as derive-ts sends it, signed by `by` for `owner`'s subaccount. */
async function transfer(by: Signer, owner: string, from: number, to: number, amount: string, extra = {}) {
  return signAction(
    by,
    'private/transfer_spot',
    {
      subaccount_id: from,
      to_subaccount_id: to,
      asset_name: 'USDC',
      amount,
      sub_id: 0,
      new_subaccount_manager: 0,
      max_fee_usd: '0',
      nonce: nextNonce(),
      signature_expiry_sec: inSec(600),
      ...extra,
    } as never,
    { owner, asset: USDC },
  );
}

/** A withdraw request as derive-ts sends it. */
async function withdrawal(by: Signer, owner: string, sub: number, amount: string, extra = {}) {
  return signAction(
    by,
    'private/withdraw',
    {
      subaccount_id: sub,
      asset_name: 'USDC',
      amount_in_underlying: amount,
      max_fee_usd: '0',
      force_batch: false,
      nonce: nextNonce(),
      signature_expiry_sec: inSec(600),
      ...extra,
    } as never,
    { owner, asset: USDC },
  );
}

async function account() {
  const sb = await start(options);
  const w = newWallet();
  const c = await Client.connect(sb.wsUrl);
  const subs: number[] = await c.login(w);
  const usdc = async (sub: number) => {
    const p = await c.call('private/get_subaccount', { subaccount_id: sub });
    return Number(p.collaterals.find((x: { asset_name: string }) => x.asset_name === 'USDC')?.amount ?? 0);
  };
  return { sb, w, c, subs, usdc };
}

describe('money between own subaccounts, in by deposit and out by withdrawal, debited and credited at once', () => {
  it('transfer_spot moves USDC between own subaccounts, pushes both balances, and both histories show it', async () => {
    const a = await account();
    const [s0, s1] = a.subs as [number, number];
    await a.c.call('subscribe', { channels: [`${s0}.balances`, `${s1}.balances`] });
    const done = await a.c.request('private/transfer_spot', await transfer(a.w, a.w.address, s0, s1, '100.5'));
    valid('private/transfer_spot', done.result);
    expect(await a.usdc(s0)).toBe(STARTING - 100.5);
    expect(await a.usdc(s1)).toBe(STARTING + 100.5);
    expect((await a.c.nextPush(`${s1}.balances`))[0]).toMatchObject({
      name: 'USDC',
      update_type: 'transfer',
      new_balance: '1000100.5',
    });
    const out = await a.c.call('private/get_erc20_transfer_history', { subaccount_id: s0 });
    valid('private/get_erc20_transfer_history', out);
    expect(out.transfers).toEqual([
      expect.objectContaining({ from_subaccount_id: s0, to_subaccount_id: s1, amount: '100.5', is_outgoing: true }),
    ]);
    const into = await a.c.call('private/get_erc20_transfer_history', { subaccount_id: s1 });
    expect(into.transfers[0].is_outgoing).toBe(false);
  });

  it('a transfer is refused by name when it cannot be made; nothing moves', async () => {
    const a = await account();
    const [s0, s1] = a.subs as [number, number];
    const tooMuch = await a.c.request('private/transfer_spot', await transfer(a.w, a.w.address, s0, s1, '2000000'));
    expect(tooMuch.error).toMatchObject({ code: 11026, data: expect.stringMatching(/is more than subaccount/) });
    const stranger = newWallet();
    const c2 = await Client.connect(a.sb.wsUrl);
    const [theirs] = await c2.login(stranger);
    const elsewhere = await a.c.request('private/transfer_spot', await transfer(a.w, a.w.address, s0, theirs!, '1'));
    expect(elsewhere.error).toMatchObject({
      code: 14003,
      data: expect.stringMatching(/not wallet .* own subaccounts/),
    });
    const forged = await a.c.request('private/transfer_spot', {
      ...((await transfer(a.w, a.w.address, s0, s1, '1')) as Record<string, unknown>),
      amount: '900',
    });
    expect(forged.error.code).toBe(14004);
    const unknown = await a.c.request(
      'private/transfer_spot',
      await transfer(a.w, a.w.address, s0, s1, '1', { asset_name: 'DOGE' }),
    );
    expect(unknown.error).toMatchObject({ code: 12000, data: expect.stringMatching(/^\/asset_name: "DOGE"/) });
    // A trade-only key may not move money (the transfer scope is its own).
    const key = newWallet();
    await a.c.call(
      'private/set_session_key',
      await signAction(a.w, 'private/set_session_key', {
        wallet: a.w.address,
        public_session_key: key.address,
        expiry_sec: inSec(3600),
        protocol_scopes: ['trade:all'],
        offchain_scopes: ['account_info'],
        nonce: newNonce(),
        signature_expiry_sec: inSec(600),
      } as never),
    );
    const byKey = await a.c.request('private/transfer_spot', await transfer(key, a.w.address, s0, s1, '1'));
    expect(byKey.error).toMatchObject({ code: 14004, data: expect.stringMatching(/lacks the transfer scope/) });
    expect(await a.usdc(s0)).toBe(STARTING);
    expect(await a.usdc(s1)).toBe(STARTING);
    expect((await a.c.call('private/get_erc20_transfer_history', {})).transfers).toEqual([]);
  });

  it('a transfer to subaccount 0 opens a new subaccount of the wallet and funds it', async () => {
    const a = await account();
    const made = await a.c.call(
      'private/transfer_spot',
      await transfer(a.w, a.w.address, a.subs[0]!, 0, '10', { new_subaccount_manager: 1 }),
    );
    expect(made.operation_id).toBeGreaterThan(0);
    const { subaccount_ids } = await a.c.call('private/get_subaccounts', { wallet: a.w.address });
    expect(subaccount_ids).toHaveLength(3);
    const fresh = subaccount_ids.find((s: number) => !a.subs.includes(s));
    expect(await a.usdc(fresh)).toBe(10);
    await a.c.call('private/change_subaccount_label', { subaccount_id: fresh, label: 'hedges' });
    expect((await a.c.call('private/get_subaccount', { subaccount_id: fresh })).label).toBe('hedges');
  });

  it('a withdrawal is debited at once and listed; one that would leave the margin short is refused', async () => {
    const a = await account();
    const s0 = a.subs[0]!;
    await a.c.call('subscribe', { channels: [`${s0}.balances`] });
    const done = await a.c.request('private/withdraw', await withdrawal(a.w, a.w.address, s0, '250'));
    valid('private/withdraw', done.result);
    expect(await a.usdc(s0)).toBe(STARTING - 250);
    expect((await a.c.nextPush(`${s0}.balances`))[0]).toMatchObject({ update_type: 'asset_withdrawal' });
    const listed = await a.c.call('private/get_withdrawal_history', { subaccount_id: s0 });
    valid('private/get_withdrawal_history', listed);
    expect(listed.withdrawals).toEqual([
      expect.objectContaining({ amount: '250', recipient: a.w.address, erc20_address: USDC.address }),
    ]);
    // A resting buy of 2000 at 90 needs 10 % of 2000 × 100 = 20000 of initial margin.
    const resting = await a.c.call(
      'private/order',
      await signed(a.w, 'private/order', {
        instrument_name: 'TEST-PERP',
        direction: 'buy',
        order_type: 'limit',
        limit_price: '90',
        amount: '2000',
        max_fee: '1',
        subaccount_id: s0,
      }),
    );
    expect(resting.order.order_status).toBe('open');
    const short = await a.c.request('private/withdraw', await withdrawal(a.w, a.w.address, s0, '990000'));
    expect(short.error).toMatchObject({
      code: 11026,
      data: expect.stringMatching(/would leave it short: insufficient margin/),
    });
    expect(await a.usdc(s0)).toBe(STARTING - 250);
    const tooMuch = await a.c.request('private/withdraw', await withdrawal(a.w, a.w.address, s0, '5000000'));
    expect(tooMuch.error.data).toMatch(/is more than subaccount/);
  });

  it(
    'a deposit (the control plane standing in for the chain) credits, opens an ' + 'unseen account, and is listed',
    async () => {
      const sb = await start(options);
      const w = newWallet();
      const dep = await control(sb, 'deposit', { wallet: w.address, asset: 'USDC', amount: '250' });
      expect(dep).toMatchObject({ status: 200, json: { new_subaccount: true, amount: '250', asset: 'USDC' } });
      const c = await Client.connect(sb.wsUrl);
      const subs = await c.login(w);
      expect(subs).toContain(dep.json.subaccount_id);
      const listed = await c.call('private/get_deposit_history', { wallet: w.address });
      valid('private/get_deposit_history', listed);
      expect(listed.deposits).toEqual([
        expect.objectContaining({ subaccount_id: dep.json.subaccount_id, amount: '250' }),
      ]);
      const again = await control(sb, 'deposit', {
        wallet: w.address,
        asset: 'USDC',
        amount: '1',
        subaccount_id: subs[1],
      });
      expect(again.json).toMatchObject({ new_subaccount: false, subaccount_id: subs[1] });
      expect((await control(sb, 'deposit', { wallet: w.address, asset: 'DOGE', amount: '1' })).json.error).toMatch(
        /DOGE/,
      );
      expect((await control(sb, 'deposit', { wallet: 'nope', asset: 'USDC', amount: '1' })).status).toBe(400);
    },
  );

  it(
    'an external transfer to subaccount 0 opens a subaccount ' + 'of the recipient; nonces as derive-ts sends them',
    async () => {
      const a = await account();
      const b = newWallet();
      // derive-ts sends its nanosecond nonces (beyond 2^53) as decimal strings on every signed action.
      const nonce = () => String(BigInt(nextNonce()) * 1000n);
      const whitelist = await signAction(a.w, 'private/update_whitelisted_recipients', {
        wallet: a.w.address,
        add: [b.address],
        remove: [],
        nonce: nonce(),
        signature_expiry_sec: inSec(600),
      } as never);
      await a.c.call('private/update_whitelisted_recipients', whitelist);
      const external = (manager: number) =>
        signAction(
          a.w,
          'private/transfer_spot_external',
          {
            subaccount_id: a.subs[0],
            to_subaccount_id: 0,
            recipient_address: b.address,
            asset_name: 'USDC',
            amount: '10',
            sub_id: 0,
            new_subaccount_manager: manager,
            max_fee_usd: '5',
            nonce: nonce(),
            signature_expiry_sec: inSec(600),
          } as never,
          { owner: a.w.address, asset: USDC },
        );
      const unmanaged = await a.c.request('private/transfer_spot_external', await external(0));
      expect(unmanaged.error).toMatchObject({ code: 11026, data: expect.stringMatching(/new_subaccount_manager/) });
      valid('private/transfer_spot_external', await a.c.call('private/transfer_spot_external', await external(1)));
      expect(await a.usdc(a.subs[0]!)).toBe(STARTING - 10);
      const cb = await Client.connect(a.sb.wsUrl);
      const theirs: number[] = await cb.login(b);
      expect(theirs).toHaveLength(3);
      const opened = await cb.call('private/get_subaccount', { subaccount_id: theirs[2] });
      expect(opened.collaterals).toEqual([expect.objectContaining({ asset_name: 'USDC', amount: '10' })]);
      const done = await a.c.request(
        'private/withdraw',
        await withdrawal(a.w, a.w.address, a.subs[0]!, '1', { nonce: nonce() }),
      );
      expect(done.result.operation_id).toBeGreaterThan(0);
    },
  );

  it('external transfers and session-key payouts go only to whitelisted wallets', async () => {
    const a = await account();
    const b = newWallet();
    const cb = await Client.connect(a.sb.wsUrl);
    const [theirs] = await cb.login(b);
    const external = async () =>
      signAction(
        a.w,
        'private/transfer_spot_external',
        {
          subaccount_id: a.subs[0],
          to_subaccount_id: theirs,
          recipient_address: b.address,
          asset_name: 'USDC',
          amount: '10',
          sub_id: 0,
          new_subaccount_manager: 0,
          max_fee_usd: '0',
          nonce: nextNonce(),
          signature_expiry_sec: inSec(600),
        } as never,
        { owner: a.w.address, asset: USDC },
      );
    const early = await a.c.request('private/transfer_spot_external', await external());
    expect(early.error).toMatchObject({ code: 11026, data: expect.stringMatching(/not on wallet .* whitelisted/) });
    const listed = await a.c.call(
      'private/update_whitelisted_recipients',
      await signAction(a.w, 'private/update_whitelisted_recipients', {
        wallet: a.w.address,
        add: [b.address],
        remove: [],
        nonce: nextNonce(),
        signature_expiry_sec: inSec(600),
      } as never),
    );
    valid('private/update_whitelisted_recipients', listed);
    expect(listed.whitelisted_recipients).toEqual([b.address]);
    const sent = await a.c.request('private/transfer_spot_external', await external());
    valid('private/transfer_spot_external', sent.result);
    expect(await a.usdc(a.subs[0]!)).toBe(STARTING - 10);
    const got = await cb.call('private/get_subaccount', { subaccount_id: theirs });
    expect(got.collaterals.find((x: { asset_name: string }) => x.asset_name === 'USDC').amount).toBe('1000010');
    const seen = await cb.call('private/get_erc20_transfer_history', {});
    expect(seen.transfers).toEqual([expect.objectContaining({ from_wallet: a.w.address, is_outgoing: false })]);
    // A withdraw-scoped key pays the wallet or a whitelisted wallet, no one else.
    const key = newWallet();
    await a.c.call(
      'private/set_session_key',
      await signAction(a.w, 'private/set_session_key', {
        wallet: a.w.address,
        public_session_key: key.address,
        expiry_sec: inSec(3600),
        protocol_scopes: ['withdraw'],
        offchain_scopes: ['account_info'],
        nonce: newNonce(),
        signature_expiry_sec: inSec(600),
      } as never),
    );
    const elsewhere = await a.c.request(
      'private/withdraw',
      await withdrawal(key, a.w.address, a.subs[0]!, '1', { recipient: newWallet().address }),
    );
    expect(elsewhere.error).toMatchObject({ code: 11026, data: expect.stringMatching(/whitelisted recipients/) });
    const toB = await a.c.request(
      'private/withdraw',
      await withdrawal(key, a.w.address, a.subs[0]!, '1', { recipient: b.address }),
    );
    expect(toB.result.operation_id).toBeGreaterThan(0);
  });

  it('over HTTP: a transfer and a withdrawal with the login in the headers', async () => {
    const sb = await start(options);
    const w = newWallet();
    const headers = async () => loginHeaders(await signLogin(w));
    const subs = (await post(sb, '/v3/private/get_subaccounts', { wallet: w.address }, await headers())).json.result
      .subaccount_ids;
    const t = await post(
      sb,
      '/v3/private/transfer_spot',
      await transfer(w, w.address, subs[0], subs[1], '5'),
      await headers(),
    );
    expect(t.json.result.operation_id).toBeGreaterThan(0);
    const x = await post(sb, '/v3/private/withdraw', await withdrawal(w, w.address, subs[1], '5'), await headers());
    expect(x.json.result.operation_id).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import type { Signer, Wallet, HDNodeWallet } from 'ethers';
import { loginHeaders, newNonce, signAction, signLogin } from '@exchange-api/auth';
import { validators, type ValidateFunction } from '@exchange-api/validators';
import { Client, control, newWallet, post, quietMarket, signed, start } from './helpers';

const options = { ...quietMarket, control: true };
const buyBelow = {
  instrument_name: 'TEST-PERP',
  order_type: 'limit',
  max_fee: '1',
  amount: '1',
  direction: 'buy',
  limit_price: '90',
};
const table = { ...validators.results, ...validators.assumedResults } as Record<string, ValidateFunction>;
const valid = (method: string, result: unknown) =>
  expect(table[method]!(result), `${method}: ${JSON.stringify(table[method]!.errors)}`).toBe(true);
const inSec = (s: number) => Math.floor(Date.now() / 1000) + s;
type Key = Wallet | HDNodeWallet;

/** A set_session_key request as derive-ts sends it, signed by `by` (the wallet, or a key of it). */
async function registration(by: Signer, wallet: string, key: string, fields: Record<string, unknown> = {}) {
  return signAction(by, 'private/set_session_key', {
    wallet,
    public_session_key: key,
    expiry_sec: inSec(3600),
    protocol_scopes: ['trade:all'],
    offchain_scopes: ['account_info'],
    subaccount_ids: null,
    nonce: newNonce(),
    signature_expiry_sec: inSec(600),
    ...fields,
  } as never);
}

async function owner() {
  const sb = await start(options);
  const w = newWallet();
  const c = await Client.connect(sb.wsUrl);
  const subs: number[] = await c.login(w);
  const register = async (key: Key, fields: Record<string, unknown> = {}, by: Signer = w) =>
    c.request('private/set_session_key', await registration(by, w.address, key.address, fields));
  /** A connection logged in with the key, and an order signed by it for the wallet. */
  const asKey = async (key: Key) => {
    const k = await Client.connect(sb.wsUrl);
    const login = await k.request('public/login', await signLogin(key, { wallet: w.address }));
    const order = async (sub = subs[0]!) =>
      k.request(
        'private/order',
        await signed(key, 'private/order', { ...buyBelow, subaccount_id: sub }, { owner: w.address }),
      );
    return { k, login, order };
  };
  return { sb, w, c, subs, register, asKey };
}

describe('session keys registered, listed and edited through the API, their limits held on every request', () => {
  it('a trade:all key registered by the wallet logs in, trades and is listed', async () => {
    const o = await owner();
    const key = newWallet();
    const reg = await o.register(key, { label: 'bot', ip_whitelist: [] });
    valid('private/set_session_key', reg.result);
    expect(reg.result).toMatchObject({
      public_session_key: key.address,
      protocol_scopes: ['trade:all'],
      offchain_scopes: ['account_info'],
      subaccount_ids: o.subs,
      label: 'bot',
    });
    const listed = await o.c.call('private/session_keys', { wallet: o.w.address });
    valid('private/session_keys', listed);
    expect(listed.public_session_keys.map((k: { public_session_key: string }) => k.public_session_key)).toEqual([
      key.address,
    ]);
    const wallets = await o.c.call('public/get_wallets_from_session_key', { public_session_key: key.address });
    expect(wallets).toEqual({ wallets: [o.w.address] });
    const k = await o.asKey(key);
    expect(k.login.result).toEqual(o.subs);
    expect((await k.order()).result.order.order_status).toBe('open');
    // Its signature on the wallet's own connection is held to the same scope: it may trade, not withdraw.
    expect(
      (
        await o.c.request(
          'private/order',
          await signed(key, 'private/order', { ...buyBelow, subaccount_id: o.subs[0]! }, { owner: o.w.address }),
        )
      ).result.order.order_status,
    ).toBe('open');
  });

  it('a read-only key reads but its orders are refused, by its login and by its signature', async () => {
    const o = await owner();
    const key = newWallet();
    expect((await o.register(key, { protocol_scopes: [] })).result.protocol_scopes).toEqual([]);
    const k = await o.asKey(key);
    expect(await k.k.call('private/get_subaccount', { subaccount_id: o.subs[0] })).toMatchObject({
      subaccount_id: o.subs[0],
    });
    expect((await k.order()).error).toMatchObject({
      code: 14003,
      data: expect.stringMatching(/lacks the trade scope/),
    });
    const bySig = await o.c.request(
      'private/order',
      await signed(key, 'private/order', { ...buyBelow, subaccount_id: o.subs[0]! }, { owner: o.w.address }),
    );
    expect(bySig.error).toMatchObject({ code: 14004, data: expect.stringMatching(/lacks the trade scope/) });
    // Nor may it register keys.
    const child = await o.c.request(
      'private/set_session_key',
      await registration(key, o.w.address, newWallet().address),
    );
    expect(child.error).toMatchObject({ code: 14004, data: expect.stringMatching(/lacks the set_session_key scope/) });
  });

  it("a key limited to one subaccount signs for that one only; a key's child is no wider than the key", async () => {
    const o = await owner();
    const key = newWallet();
    await o.register(key, {
      subaccount_ids: [o.subs[0]],
      protocol_scopes: ['trade:all', 'set_session_key'],
      expiry_sec: inSec(7200),
    });
    const k = await o.asKey(key);
    expect(k.login.result).toEqual([o.subs[0]]);
    expect((await k.order()).result.order.order_status).toBe('open');
    const other = await o.c.request(
      'private/order',
      await signed(key, 'private/order', { ...buyBelow, subaccount_id: o.subs[1]! }, { owner: o.w.address }),
    );
    expect(other.error).toMatchObject({
      code: 14004,
      data: expect.stringMatching(`may not act for subaccount ${o.subs[1]}`),
    });
    const wider = await o.register(newWallet(), { protocol_scopes: ['withdraw'], subaccount_ids: [o.subs[0]] }, key);
    expect(wider.error).toMatchObject({
      code: 14031,
      data: expect.stringMatching(/may not grant scopes withdraw beyond its own/),
    });
    const allSubs = await o.register(newWallet(), {}, key);
    expect(allSubs.error).toMatchObject({ code: 14031, data: expect.stringMatching(/subaccounts beyond/) });
    const fine = await o.register(newWallet(), { subaccount_ids: [o.subs[0]] }, key);
    expect(fine.result.subaccount_ids).toEqual([o.subs[0]]);
  });

  it('an IP whitelist edited in takes effect on the next request of a key already logged in', async () => {
    const o = await owner();
    const key = newWallet();
    await o.register(key);
    const k = await o.asKey(key);
    expect((await k.order()).result).toBeTruthy();
    const edited = await o.c.call('private/edit_session_key', {
      wallet: o.w.address,
      public_session_key: key.address,
      ip_whitelist: ['203.0.113.7'],
      label: 'moved',
    });
    valid('private/edit_session_key', edited);
    expect(edited).toMatchObject({ ip_whitelist: ['203.0.113.7'], label: 'moved', protocol_scopes: ['trade:all'] });
    const refused = await k.k.request('private/get_subaccount', { subaccount_id: o.subs[0] });
    expect(refused.error).toMatchObject({
      code: 14003,
      data: expect.stringMatching(/not on session key .* whitelist/),
    });
    expect((await k.order()).error.code).toBe(14003);
    // The key itself may not widen its own whitelist back: only the wallet or an admin key may.
    const selfEdit = await k.k.request('private/edit_session_key', {
      wallet: o.w.address,
      public_session_key: key.address,
      ip_whitelist: [],
    });
    expect(selfEdit.error.code).toBe(14003);
    await o.c.call('private/edit_session_key', {
      wallet: o.w.address,
      public_session_key: key.address,
      ip_whitelist: [],
    });
    expect((await k.order()).result.order.order_status).toBe('open');
  });

  it('registered again with a nearer expiry, a key stops working when the clock passes it', async () => {
    const o = await owner();
    const key = newWallet();
    await o.register(key);
    const k = await o.asKey(key);
    expect((await k.order()).result).toBeTruthy();
    const tooSoon = await o.register(key, { expiry_sec: inSec(60) });
    expect(tooSoon.error).toMatchObject({
      code: 14009,
      data: expect.stringMatching(/^\/expiry_sec: .* at least 600 s/),
    });
    // One value for both: computed twice, a second could pass between them (a loaded CI run saw ...079 vs ...080).
    const nearer = inSec(700);
    expect((await o.register(key, { expiry_sec: nearer })).result.expiry_sec).toBe(nearer);
    expect((await control(o.sb, 'advance', { ms: 800_000 })).status).toBe(200);
    const after = await k.k.request('private/get_subaccount', { subaccount_id: o.subs[0] });
    expect(after.error).toMatchObject({ code: 14003, data: expect.stringMatching(/expired/) });
    expect((await o.c.call('private/session_keys', { wallet: o.w.address })).public_session_keys).toEqual([]);
    expect(await o.c.call('public/get_wallets_from_session_key', { public_session_key: key.address })).toEqual({
      wallets: [],
    });
  });

  it('a registration the sandbox cannot honour is refused by name, and nothing is registered', async () => {
    const o = await owner();
    const key = newWallet();
    const narrow = await o.register(key, { protocol_scopes: ['trade:orderbook:spot'] });
    expect(narrow.error).toMatchObject({
      code: 14031,
      data: expect.stringMatching(/^\/protocol_scopes\/0: "trade:orderbook:spot" is not modelled/),
    });
    expect((await o.register(key, { subaccount_ids: [1] })).error).toMatchObject({ code: 14003 });
    const stranger = await o.register(key, {}, newWallet());
    expect(stranger.error.code).toBe(14004);
    const otherWallet = await o.c.request(
      'private/set_session_key',
      await registration(o.w, newWallet().address, key.address),
    );
    expect(otherWallet.error.code).toBe(14003);
    expect((await o.c.call('private/session_keys', { wallet: o.w.address })).public_session_keys).toEqual([]);
    expect((await o.asKey(key)).login.error.code).toBe(14001);
  });

  it('over HTTP: registered and listed with the login in the headers', async () => {
    const sb = await start(options);
    const w = newWallet();
    const key = newWallet();
    const headers = async () => loginHeaders(await signLogin(w));
    const reg = await post(
      sb,
      '/v3/private/set_session_key',
      await registration(w, w.address, key.address),
      await headers(),
    );
    expect(reg.json.result.public_session_key).toBe(key.address);
    const listed = await post(sb, '/v3/private/session_keys', { wallet: w.address }, await headers());
    expect(listed.json.result.public_session_keys).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { loginTable } from '@exchange-api/types';
import { loginHeaders, signLogin } from '@exchange-api/auth';
import { validators } from '@exchange-api/validators';
import { derivedSubaccounts } from '../src/index';
import { Client, control, newWallet, post, start } from './helpers';

describe('login', () => {
  it('accepts a fresh wallet signature and creates two stable subaccounts for a new wallet', async () => {
    const sb = await start();
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const ids = await c.login(w);
    expect(validators.results['public/login'](ids)).toBe(true);
    expect(ids).toEqual(derivedSubaccounts(w.address));
    expect(ids).toHaveLength(2);
    // Stable across sandboxes (runs).
    const sb2 = await start({ seed: 99 });
    const c2 = await Client.connect(sb2.wsUrl);
    expect(await c2.login(w)).toEqual(ids);
  });

  it('uses configured wallets', async () => {
    const w = newWallet();
    const sb = await start({ wallets: [{ address: w.address, subaccounts: [11, 12, 13] }] });
    const c = await Client.connect(sb.wsUrl);
    expect(await c.login(w)).toEqual([11, 12, 13]);
  });

  it('refuses stale and future wallet timestamps (14002), with a configurable window', async () => {
    // Windows far wider than any delay between signing and the sandbox's check on a loaded machine;
    // the refused timestamps lie far outside them.
    const sb = await start({ login: { pastMs: 60_000, futureMs: 30_000 } });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const stale = await c.request('public/login', await signLogin(w, { nowMs: Date.now() - 300_000 }));
    expect(stale.error.code).toBe(14002);
    const future = await c.request('public/login', await signLogin(w, { nowMs: Date.now() + 300_000 }));
    expect(future.error.code).toBe(14002);
    const fine = await c.request('public/login', await signLogin(w, { nowMs: Date.now() - 500 }));
    expect(fine.result).toHaveLength(2);
  });

  it("refuses a wrong signature and another wallet's signature (14001)", async () => {
    const sb = await start();
    const w = newWallet();
    const other = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const proof = await signLogin(w);
    const wrongMessage = { ...proof, signature: await w.signMessage(String(Number(proof.timestamp) + 1)) };
    expect((await c.request('public/login', wrongMessage)).error.code).toBe(14001);
    const garbage = { ...proof, signature: '0x' + '00'.repeat(65) };
    expect((await c.request('public/login', garbage)).error.code).toBe(14001);
    const foreign = await signLogin(other, { wallet: w.address });
    const r = await c.request('public/login', foreign);
    expect(r.error.code).toBe(14001);
    expect(r.error.data).toContain(other.address);
    expect((await c.request('public/login', { wallet: w.address })).error.code).toBe(14000);
    expect((await c.request('public/login', { ...proof, wallet: 'nope' })).error.code).toBe(-32602);
  });

  it('reads the three values from params or headers interchangeably', async () => {
    const sb = await start();
    const w = newWallet();
    const proof = await signLogin(w);
    const a = await Client.connect(sb.wsUrl);
    expect((await a.request('public/login', {}, { headers: loginHeaders(proof) })).result).toHaveLength(2);
    const b = await Client.connect(sb.wsUrl);
    const h = loginTable.headers;
    const mixed = await b.request(
      'public/login',
      { wallet: proof.wallet },
      { headers: { [h.timestamp.toLowerCase()]: proof.timestamp, [h.signature]: proof.signature } },
    );
    expect(mixed.result).toHaveLength(2);
    // A header of the wrong type is named, not reported as missing.
    const typed = await b.request(
      'public/login',
      { timestamp: proof.timestamp, signature: proof.signature },
      { headers: { [h.wallet]: 42 } },
    );
    expect(typed.error).toMatchObject({ code: -32602, data: `header ${h.wallet} must be a string (got number 42)` });
  });

  it('session keys: no freshness, expiry, IP whitelist, subaccount list, scopes', async () => {
    const w = newWallet();
    const k1 = newWallet();
    const k2 = newWallet();
    const k3 = newWallet();
    const k4 = newWallet();
    const k5 = newWallet();
    const sb = await start({
      wallets: [{ address: w.address, subaccounts: [21, 22, 23] }],
      sessionKeys: [
        { address: k1.address, wallet: w.address },
        { address: k2.address, wallet: w.address, expiresAtMs: Date.now() - 1 },
        { address: k3.address, wallet: w.address, ipWhitelist: ['10.1.2.3'] },
        { address: k4.address, wallet: w.address, ipWhitelist: ['127.0.0.1'], subaccounts: [22] },
        { address: k5.address, wallet: w.address, scopes: ['read'] },
      ],
    });
    const c = await Client.connect(sb.wsUrl);
    const old = await signLogin(k1, { wallet: w.address, nowMs: Date.now() - 3_600_000 });
    expect((await c.request('public/login', old)).result).toEqual([21, 22, 23]);
    const expired = await c.request('public/login', await signLogin(k2, { wallet: w.address }));
    expect(expired.error.code).toBe(14001);
    expect(expired.error.data).toMatch(/expired/);
    expect((await c.request('public/login', await signLogin(k3, { wallet: w.address }))).error.code).toBe(14003);
    expect((await c.request('public/login', await signLogin(k4, { wallet: w.address }))).result).toEqual([22]);
    // A key of one wallet does not log in for another.
    expect((await c.request('public/login', await signLogin(k1, { wallet: newWallet().address }))).error.code).toBe(
      14001,
    );
    // The read-only key may watch its channels but not trade.
    const d = await Client.connect(sb.wsUrl);
    await d.call('public/login', await signLogin(k5, { wallet: w.address }));
    expect((await d.call('subscribe', { channels: ['21.orders'] })).status['21.orders']).toBe('ok');
    const order = await d.request('private/cancel_all', {
      subaccount_id: 21,
      nonce: '1',
      signer: k5.address,
      signature: '0x' + '11'.repeat(65),
      signature_expiry_sec: 9e9,
    });
    expect(order.error.code).toBe(14003);
  });

  it('HTTP private requests carry the login headers', async () => {
    const sb = await start();
    const w = newWallet();
    const ok = await post(sb, '/v3/private/get_subaccounts', { wallet: w.address }, loginHeaders(await signLogin(w)));
    expect(ok.status).toBe(200);
    expect(ok.json.result).toEqual({ subaccount_ids: derivedSubaccounts(w.address), wallet: w.address });
    expect(validators.results['private/get_subaccounts'](ok.json.result)).toBe(true);
    // The values may come in the body instead.
    const proof = await signLogin(w);
    const inBody = await post(sb, '/v3/private/get_subaccounts', {
      wallet: w.address,
      timestamp: proof.timestamp,
      signature: proof.signature,
    });
    expect(inBody.status).toBe(200);
    const stale = await post(
      sb,
      '/v3/private/get_subaccounts',
      { wallet: w.address },
      loginHeaders(await signLogin(w, { nowMs: Date.now() - 120_000 })),
    );
    expect([stale.status, stale.json.error.code]).toEqual([401, 14002]);
    const other = newWallet();
    const foreign = await post(
      sb,
      '/v3/private/get_subaccounts',
      { wallet: other.address },
      loginHeaders(await signLogin(w)),
    );
    // Over HTTP the headers carry the login and win over the body (login-header-names: a signed order's
    // body carries its own signer and signature), so another wallet named in the body is another
    // wallet's data: refused as such.
    expect([foreign.status, foreign.json.error.code]).toEqual([403, 14003]);
    expect(foreign.json.error.data).toMatch(/is not the logged-in wallet/);
  });

  it(
    "private/get_subaccounts is served on an open WebSocket too, for the connection's " +
      'login (assumption get-subaccounts-ws)',
    async () => {
      const sb = await start();
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      expect((await c.request('private/get_subaccounts', { wallet: w.address })).error.code).toBe(14000);
      const ids = await c.login(w);
      const r = await c.call('private/get_subaccounts', { wallet: w.address });
      expect(r).toEqual({ subaccount_ids: ids, wallet: w.address });
      expect(validators.results['private/get_subaccounts'](r)).toBe(true);
      expect((await c.request('private/get_subaccounts', { wallet: newWallet().address })).error.code).toBe(14003);
      expect((await c.request('private/get_subaccounts', {})).error.code).toBe(-32602);
    },
  );
});

describe('private access', () => {
  it("needs login, and only the caller's own subaccounts and wallet", async () => {
    const sb = await start();
    const w = newWallet();
    const other = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const before = await c.call('subscribe', { channels: [`${w.address}.rfqs`] });
    expect(before.status[`${w.address}.rfqs`]).toBe('Authentication required');
    expect((await c.request('private/cancel_all', {})).error.code).toBe(14000);
    const [mine] = await c.login(w);
    const [theirs] = derivedSubaccounts(other.address);
    const r = await c.call('subscribe', {
      channels: [
        `${mine}.orders`,
        `${mine}.balances`,
        `${mine}.trades`,
        `${mine}.quotes`,
        `${mine}.best.quotes`,
        `${w.address}.rfqs`,
        `${theirs}.orders`,
        `${other.address}.rfqs`,
      ],
    });
    expect(Object.values(r.status).slice(0, 6)).toEqual(Array(6).fill('ok'));
    expect(r.status[`${theirs}.orders`]).toBe('Access denied');
    expect(r.status[`${other.address}.rfqs`]).toBe('Access denied');
  });

  it(
    'takes a wallet or subaccount id in its one canonical spelling: letter cases ' + 'are not as many subscriptions',
    async () => {
      const sb = await start();
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const canonical = `${w.address}.rfqs`;
      // Every other spelling of the same wallet: each letter of the checksummed address in the other case.
      const variants = [...w.address.slice(2)].flatMap((ch, i) => {
        const flipped = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
        return flipped === ch ? [] : [`0x${w.address.slice(2, 2 + i)}${flipped}${w.address.slice(3 + i)}.rfqs`];
      });
      // As many as the address has letters: a random wallet's 40 hex digits hold about 15 (a run drew 10,
      // and the former bound of more than 10 failed); none at all is a chance of 1 in 10^8.
      expect(variants.length).toBeGreaterThan(0);
      const lower = `${w.address.toLowerCase()}.rfqs`;
      const r = await c.call('subscribe', {
        channels: [canonical, lower, ...variants, `0${sub}.orders`, `${sub}.orders`],
      });
      expect(r.status[canonical]).toBe('ok');
      expect(r.status[lower]).toBe(
        `Invalid channel: write the wallet in its checksummed form, ${w.address} (got ${w.address.toLowerCase()})`,
      );
      for (const v of variants)
        expect(r.status[v], v).toMatch(/^Invalid channel: write the wallet in its checksummed form/);
      expect(r.status[`0${sub}.orders`]).toBe(`Invalid channel: write subaccount id 0${sub} as ${sub}`);
      expect(r.status[`${sub}.orders`]).toBe('ok');
      // One subscription per wallet, so one push per cadence, whatever was asked.
      expect(r.current_subscriptions).toEqual([canonical, `${sub}.orders`]);
    },
  );

  it('re-verifies the stored login on the heartbeat and drops private channels when it no longer holds', async () => {
    const w = newWallet();
    const key = newWallet();
    const sb = await start({
      control: true,
      login: { reverifyIntervalMs: 200 },
      sessionKeys: [{ address: key.address, wallet: w.address, expiresAtMs: Date.now() + 60_000 }],
    });
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(key, w.address);
    await c.call('subscribe', { channels: [`${sub}.orders`, 'trades.ETH-PERP'] });
    // A heartbeat that began after this point: a ping that comes after a round trip's answer on the
    // same socket was sent after it, and the beat re-verifies the connection right after pinging it.
    const beatAfter = async () => {
      await c.roundTrip();
      await c.nextPing();
    };
    await beatAfter();
    expect((await control(sb, 'connections')).json[0].wallet).toBe(w.address);
    await control(sb, 'advance', { ms: 120_000 });
    await beatAfter();
    const conns = (await control(sb, 'connections')).json;
    expect(conns[0].wallet).toBeNull();
    expect(conns[0].subscriptions).toEqual(['trades.ETH-PERP']);
  });
});

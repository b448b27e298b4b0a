/** Login (fresh timestamps, again after reconnects, only once it succeeded) and action signatures. */
import { describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { recoverLoginSigner, recoverActionSigner } from '@exchange-api/auth';
import { AuthError, type SignerLike } from '../src/index';
import { until } from './peer';
import { instrument, rateLimits, useClientHarness } from './harness';

const t = useClientHarness();

describe('login and signatures', () => {
  it('logs in with a fresh personal_sign timestamp and again after a reconnect', async () => {
    const wallet = Wallet.createRandom();
    const logins: { wallet?: string; timestamp?: string; signature?: string }[] = [];
    t.peer.answer = (req) => {
      if (req.method === 'public/login') {
        logins.push(req.params);
        return recoverLoginSigner(req.params) === wallet.address
          ? { result: [7, 8] }
          : { error: { code: 14001, message: 'Invalid signature' } };
      }
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await t.make({ signer: wallet }).connect();
    expect(await t.client.login()).toEqual([7, 8]);
    await new Promise((r) => setTimeout(r, 5));
    t.peer.drop();
    await until(() => t.client.state === 'reconnecting');
    await until(() => t.client.state === 'open' && logins.length === 2);
    expect(logins[0]!.wallet).toBe(wallet.address);
    expect(Number(logins[1]!.timestamp)).toBeGreaterThan(Number(logins[0]!.timestamp));
    expect(Math.abs(Number(logins[1]!.timestamp) - Date.now())).toBeLessThan(5000);
  });

  it('any object with the Signer methods signs: login and an action, no ethers class needed', async () => {
    const wallet = Wallet.createRandom();
    // A plain object (what a hardware wallet or a KMS adapter would be), not an ethers Signer.
    const signer: SignerLike = {
      getAddress: async () => wallet.address,
      signMessage: (message) => wallet.signMessage(message),
      signTypedData: (domain, types, value) => wallet.signTypedData(domain, types, value),
    };
    let signedOrder: any;
    t.peer.answer = (req) => {
      if (req.method === 'public/login')
        return recoverLoginSigner(req.params) === wallet.address
          ? { result: [3] }
          : { error: { code: 14001, message: 'Invalid signature' } };
      if (req.method === 'cancel_all') return ((signedOrder = req.params), { result: { cancelled_orders: 0 } });
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await t.make({ signer, validate: 'off' }).connect();
    expect(await t.client.login()).toEqual([3]);
    await t.client.cancelAll({ subaccount_id: 3 });
    expect(recoverActionSigner('cancel_all', signedOrder)).toBe(wallet.address);
  });

  it('signs order flow with the assumed EIP-712 layout through the action signer', async () => {
    const wallet = Wallet.createRandom();
    let signed: any;
    t.peer.answer = (req) => {
      if (req.method === 'order') {
        signed = req.params;
        return { result: { order: {}, trades: [] } };
      }
      if (req.method === 'public/get_all_live_instruments') return { result: [instrument('ETH-PERP', 'perp')] };
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await t.make({ signer: wallet, validate: 'off' }).connect();
    await t.client.order({
      subaccount_id: 7,
      instrument_name: 'ETH-PERP',
      direction: 'buy',
      order_type: 'limit',
      amount: '1',
      limit_price: '3000',
      max_fee: '10',
    });
    expect(signed.signer).toBe(wallet.address);
    expect(recoverActionSigner('order', signed)).toBe(wallet.address);
    expect(signed.signature_expiry_sec).toBeGreaterThan(Date.now() / 1000);
  });

  it('a custom action signer replaces the default', async () => {
    let seen: any;
    t.peer.answer = (req) =>
      req.method === 'cancel_all' ? ((seen = req.params), { result: { cancelled_orders: 0 } }) : undefined;
    await t
      .make({
        actionSigner: async (method, params) => ({
          ...params,
          signer: '0x' + '2'.repeat(40),
          signature: `custom:${method}`,
        }),
      })
      .connect();
    const r = await t.client.cancelAll({ subaccount_id: 3 });
    expect(r.cancelled_orders).toBe(0);
    expect(seen.signature).toBe('custom:cancel_all');
    expect(typeof seen.nonce).toBe('string');
  });
});

describe('login is remembered only once it succeeded', () => {
  it('a failed login is not repeated after a reconnect', async () => {
    let logins = 0;
    t.peer.answer = (req) => {
      if (req.method === 'public/login') return (logins++, { error: { code: 14001, message: 'Invalid signature' } });
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await t.make({ signer: Wallet.createRandom() }).connect();
    expect(await t.client.login().catch((e) => e)).toBeInstanceOf(AuthError);
    t.peer.drop();
    await until(() => t.client.state === 'reconnecting');
    await until(() => t.client.state === 'open');
    await new Promise((r) => setTimeout(r, 50));
    expect(logins).toBe(1);
    expect(t.errors.filter((e) => e instanceof AuthError)).toEqual([]);
  });
});

/** Login (fresh timestamps, again after reconnects, only once it succeeded) and action signatures. */
import { describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { defaultActionLayout, recoverLoginSigner, verifyAction } from '@exchange-api/auth';
import { AuthError, type SignerLike } from '../src/index';
import { until } from './peer';
import { instrument, rateLimits, useClientHarness } from './harness';

const t = useClientHarness();

/** What public/get_instrument answers: the asset an order's signature commits to. */
const asset = instrument('ETH-PERP', 'perp');
const order = {
  subaccount_id: 7,
  instrument_name: 'ETH-PERP',
  direction: 'buy' as const,
  order_type: 'limit' as const,
  amount: '1',
  limit_price: '3000',
  max_fee: '10',
};
/** What a server verifies an order with: the owner, the instrument, the spec's deployment. */
const deployed = (owner: string) => ({ owner, instrument: asset, deployments: [defaultActionLayout.deployment] });

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
    // The second login is signed afresh: its timestamp falls after the drop and before it arrived.
    const dropped = Date.now();
    t.peer.drop();
    await until(() => t.client.state === 'reconnecting');
    await until(() => t.client.state === 'open' && logins.length === 2);
    const arrived = Date.now();
    expect(logins[0]!.wallet).toBe(wallet.address);
    expect(Number(logins[1]!.timestamp)).toBeGreaterThan(Number(logins[0]!.timestamp));
    expect(Number(logins[1]!.timestamp)).toBeGreaterThanOrEqual(dropped);
    expect(Number(logins[1]!.timestamp)).toBeLessThanOrEqual(arrived);
  });

  it('any object with the Signer methods signs: login and an order, no ethers class needed', async () => {
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
      if (req.method === 'public/get_instrument') return { result: asset };
      if (req.method === 'private/order') return ((signedOrder = req.params), { result: { order: {}, trades: [] } });
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await t.make({ signer, validate: 'off' }).connect();
    expect(await t.client.login()).toEqual([3]);
    await t.client.order({ ...order, subaccount_id: 3 });
    expect(verifyAction('private/order', signedOrder, deployed(wallet.address))).not.toBeNull();
  });

  it('signs an order as the public clients do: the instrument looked up once, the wallet the owner', async () => {
    const wallet = Wallet.createRandom();
    const signed: any[] = [];
    let lookups = 0;
    t.peer.answer = (req) => {
      if (req.method === 'public/get_instrument') return (lookups++, { result: asset });
      if (req.method === 'private/order') return (signed.push(req.params), { result: { order: {}, trades: [] } });
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await t.make({ signer: wallet, validate: 'off' }).connect();
    await t.client.order(order);
    await t.client.order({ ...order, direction: 'sell' });
    expect(lookups).toBe(1);
    for (const p of signed) {
      expect(p.signer).toBe(wallet.address);
      expect(p.nonce).toMatch(/^[0-9]{19,}$/);
      expect(p.signature_expiry_sec).toBeGreaterThan(Date.now() / 1000);
      expect(verifyAction('private/order', p, deployed(wallet.address))?.name).toBe('spec');
    }
    expect(BigInt(signed[1].nonce) > BigInt(signed[0].nonce)).toBe(true);
  });

  it('a session key signs for the wallet it is given: the owner is the wallet, the signer the key', async () => {
    const wallet = Wallet.createRandom();
    const key = Wallet.createRandom();
    let signed: any;
    t.peer.answer = (req) => {
      if (req.method === 'public/get_instrument') return { result: asset };
      if (req.method === 'private/order') return ((signed = req.params), { result: { order: {}, trades: [] } });
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await t.make({ signer: key, wallet: wallet.address, validate: 'off', limiter: false }).connect();
    await t.client.order(order);
    expect(signed.signer).toBe(key.address);
    expect(verifyAction('private/order', signed, deployed(wallet.address))).not.toBeNull();
    expect(verifyAction('private/order', signed, deployed(key.address))).toBeNull();
  });

  it('sends the cancels as they are: the login authorises them, no action signature', async () => {
    const seen: any[] = [];
    t.peer.answer = (req) => {
      if (req.method === 'private/cancel_all') return (seen.push(req.params), { result: 'ok' });
      if (req.method === 'private/cancel') return (seen.push(req.params), { result: {} });
      // The limiter learns the instrument's type before a cancel (unanswered, it waits out its timeout).
      if (req.method === 'public/get_instrument') return { result: asset };
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await t.make({ signer: Wallet.createRandom(), validate: 'off' }).connect();
    expect(await t.client.cancelAll({ subaccount_id: 3 })).toBe('ok');
    await t.client.cancel({ subaccount_id: 3, instrument_name: 'ETH-PERP', order_id: 'o-1' });
    expect(seen).toEqual([{ subaccount_id: 3 }, { subaccount_id: 3, instrument_name: 'ETH-PERP', order_id: 'o-1' }]);
  });

  it('a custom action signer replaces the default', async () => {
    let seen: any;
    t.peer.answer = (req) =>
      req.method === 'private/order' ? ((seen = req.params), { result: { order: {}, trades: [] } }) : undefined;
    await t
      .make({
        validate: 'off',
        limiter: false,
        actionSigner: async (method, params) => ({
          ...params,
          signer: '0x' + '2'.repeat(40),
          signature: `custom:${method}`,
        }),
      })
      .connect();
    await t.client.order(order);
    expect(seen.signature).toBe('custom:private/order');
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

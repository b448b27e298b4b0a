import { describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import {
  signLogin,
  recoverLoginSigner,
  loginHeaders,
  proofFromSources,
  freshness,
  LoginProofError,
  signAction,
  verifyAction,
  newNonce,
  defaultActionLayout,
  deploymentsOf,
  ActionDataError,
  toE18,
} from '../src/index';

const wallet = Wallet.createRandom();
const sessionKey = Wallet.createRandom();

describe('login proof', () => {
  it('a wallet signs the millisecond timestamp and the signature recovers to it', async () => {
    const proof = await signLogin(wallet, { nowMs: 1767225600123 });
    expect(proof).toMatchObject({ wallet: wallet.address, timestamp: '1767225600123' });
    expect(recoverLoginSigner(proof)).toBe(wallet.address);
  });

  it('a session key signs for its wallet: the proof names the wallet, the signature recovers to the key', async () => {
    const proof = await signLogin(sessionKey, { wallet: wallet.address });
    expect(proof.wallet).toBe(wallet.address);
    expect(recoverLoginSigner(proof)).toBe(sessionKey.address);
  });

  it('names the bad value of a malformed proof', () => {
    expect(() => recoverLoginSigner({ timestamp: '12a', signature: '0x' + '1'.repeat(130) })).toThrow(LoginProofError);
    try {
      recoverLoginSigner({ timestamp: '1', signature: '0xdead' });
    } catch (e) {
      expect((e as LoginProofError).field).toBe('signature');
    }
  });

  it('reads each value from params or headers interchangeably, headers case-insensitively', async () => {
    const proof = await signLogin(wallet);
    const headers = loginHeaders(proof);
    expect(Object.keys(headers)).toEqual(['X-ServiceWallet', 'X-ServiceTimestamp', 'X-ServiceSignature']);
    const lowered = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(proofFromSources({}, lowered)).toEqual(proof);
    expect(
      proofFromSources(
        { wallet: proof.wallet },
        { 'X-ServiceTimestamp': proof.timestamp, 'X-ServiceSignature': proof.signature },
      ),
    ).toEqual(proof);
    expect(proofFromSources(null, null)).toEqual({});
  });

  it("reads the clients' header names too (ccxt's X-Lyra*, derive-ts's X-Derive*), the document's first", async () => {
    const proof = await signLogin(wallet);
    const lyra = {
      'X-LyraWallet': proof.wallet,
      'X-LyraTimestamp': proof.timestamp,
      'X-LyraSignature': proof.signature,
    };
    expect(proofFromSources({}, lyra)).toEqual(proof);
    const derive = {
      'x-derivewallet': proof.wallet,
      'x-derivetimestamp': proof.timestamp,
      'x-derivesignature': proof.signature,
    };
    expect(proofFromSources({}, derive)).toEqual(proof);
    expect(proofFromSources({}, { ...derive, 'X-ServiceWallet': sessionKey.address }).wallet).toBe(sessionKey.address);
    expect(() => proofFromSources({}, { 'X-LyraTimestamp': { t: 1 } })).toThrow(
      /header X-LyraTimestamp must be a string/,
    );
  });

  it("over HTTP the headers win: a signed order's params carry its action signature under the same name", async () => {
    const proof = await signLogin(wallet);
    const headers = {
      'X-LyraWallet': proof.wallet,
      'X-LyraTimestamp': proof.timestamp,
      'X-LyraSignature': proof.signature,
    };
    const order = { signer: sessionKey.address, signature: '0x' + '2'.repeat(130), nonce: 1 };
    expect(proofFromSources(order, headers, 'headers')).toEqual(proof);
    expect(proofFromSources(order, headers).signature).toBe(order.signature);
    expect(proofFromSources({ wallet: proof.wallet }, {}, 'headers')).toEqual({ wallet: proof.wallet });
  });

  it('refuses a value that is present but not a string, naming it and where it came from', () => {
    expect(() => proofFromSources({}, { 'X-ServiceWallet': 123 })).toThrow(
      /header X-ServiceWallet must be a string \(got number 123\)/,
    );
    expect(() => proofFromSources({ signature: { r: 1 } }, {})).toThrow(/params\.signature must be a string/);
    expect(proofFromSources({ timestamp: 1767225600000 }, {})).toEqual({ timestamp: '1767225600000' });
  });

  it('holds a timestamp to the freshness window', () => {
    expect(freshness(1000, 1000 + 29_000)).toBe('fresh');
    expect(freshness(1000, 1000 + 31_000)).toBe('stale');
    expect(freshness(1000 + 6_000, 1000)).toBe('future');
  });
});

describe('action signature', () => {
  const instrument = { base_asset_address: '0x5cC1b2Cae1C9D5bbF50b7dA3d1B9E2b0a2D3c8e1', base_asset_sub_id: '0' };
  const order = {
    subaccount_id: 1042,
    nonce: newNonce(),
    signature_expiry_sec: 1767229200,
    instrument_name: 'ETH-PERP',
    direction: 'buy',
    amount: '1.5',
    limit_price: '3000',
    max_fee: '10',
  };

  it('signs and verifies under the spec deployment, and any signed field changed breaks it', async () => {
    const signed = await signAction(wallet, 'private/order', order, { instrument });
    expect(signed.signer).toBe(wallet.address);
    const ctx = { owner: wallet.address, instrument, deployments: [defaultActionLayout.deployment] };
    expect(verifyAction('private/order', signed, ctx)?.name).toBe('spec');
    expect(verifyAction('private/order', { ...signed, amount: '2' }, ctx)).toBeNull();
    expect(verifyAction('private/order', { ...signed, direction: 'sell' }, ctx)).toBeNull();
    expect(verifyAction('private/order', signed, { ...ctx, owner: sessionKey.address })).toBeNull();
    expect(verifyAction('private/order', signed, { ...ctx, deployments: deploymentsOf('mainnet') })).toBeNull();
  });

  it('a session key signs for its wallet: owner the wallet, signer the key', async () => {
    const signed = await signAction(sessionKey, 'private/order', order, { instrument, owner: wallet.address });
    expect(signed.signer).toBe(sessionKey.address);
    const ctx = { owner: wallet.address, instrument, deployments: [defaultActionLayout.deployment] };
    expect(verifyAction('private/order', signed, ctx)).not.toBeNull();
  });

  it('refuses to sign what has no action, and names a field it cannot encode', async () => {
    await expect(signAction(wallet, 'private/cancel', order, { instrument })).rejects.toThrow(
      /private\/cancel carries no action signature/,
    );
    await expect(signAction(wallet, 'private/order', order)).rejects.toThrow(/instrument_name: the instrument/);
    await expect(
      signAction(wallet, 'private/order', { ...order, amount: '0.0000000000001' }, { instrument }),
    ).rejects.toThrow(/amount: has more than 12 fractional digits/);
    await expect(signAction(wallet, 'private/order', { ...order, max_fee: 'ten' }, { instrument })).rejects.toThrow(
      ActionDataError,
    );
  });

  it('scales decimals to 10^18 exactly, JSON numbers in exponent form too', () => {
    expect(toE18('1000.0', 'amount')).toBe(1000n * 10n ** 18n);
    expect(toE18(0.01, 'amount')).toBe(10n ** 16n);
    expect(toE18(1e-7, 'amount')).toBe(10n ** 11n);
    expect(toE18(1e21, 'amount')).toBe(10n ** 39n);
    expect(toE18('-12.5', 'limit_price')).toBe(-125n * 10n ** 17n);
    expect(() => toE18('1.2.3', 'limit_price')).toThrow(/limit_price: must be a decimal/);
    expect(() => toE18(Number.NaN, 'max_fee')).toThrow(/max_fee: must be a finite number/);
  });

  it('gives strictly increasing nanosecond nonces', () => {
    const a = BigInt(newNonce(5));
    const b = BigInt(newNonce(5));
    expect(b > a).toBe(true);
    expect(newNonce(1767225600000).length).toBeGreaterThanOrEqual(19);
  });
});

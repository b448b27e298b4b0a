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
  recoverActionSigner,
  canonicalJson,
  actionParamsHash,
  newNonce,
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
  const params = {
    subaccount_id: 1042,
    nonce: newNonce(),
    signature_expiry_sec: 1767229200,
    instrument_name: 'ETH-PERP',
    amount: '1.5',
  };

  it('signs and recovers, and any change to the params breaks it', async () => {
    const signed = await signAction(wallet, 'order', params);
    expect(signed.signer).toBe(wallet.address);
    expect(recoverActionSigner('order', signed)).toBe(wallet.address);
    expect(recoverActionSigner('order', { ...signed, amount: '2' })).not.toBe(wallet.address);
    expect(recoverActionSigner('cancel', signed)).not.toBe(wallet.address);
  });

  it('hashes a canonical JSON, independent of key order and of the signature fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(actionParamsHash({ a: 1, b: 2 })).toBe(actionParamsHash({ b: 2, a: 1, signer: '0x1', signature: '0x2' }));
  });

  it('gives strictly increasing nonces', () => {
    const a = BigInt(newNonce(5));
    const b = BigInt(newNonce(5));
    expect(b > a).toBe(true);
  });
});

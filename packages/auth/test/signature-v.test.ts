import { describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { recoverLoginSigner, signLogin } from '../src/login';
import { actionOf, recoverActionSigner, signActionStruct } from '../src/action';
import { defaultActionLayout } from '../src/action-layout';
import { SignatureVError } from '../src/signature-v';

// The same signature with its recovery byte spelled as ethers also accepts: v - 27, and EIP-155's 0x25.
const respelt = (signature: string) => {
  const v = parseInt(signature.slice(-2), 16);
  return [v - 27, v - 27 + 37].map((other) => signature.slice(0, -2) + other.toString(16).padStart(2, '0'));
};

describe('a signature recovers only with v 27 or 28, as ecrecover takes it', () => {
  it('login proofs', async () => {
    const w = Wallet.createRandom();
    const proof = await signLogin(w);
    expect(recoverLoginSigner(proof)).toBe(w.address);
    for (const signature of respelt(proof.signature)) {
      expect(() => recoverLoginSigner({ ...proof, signature })).toThrow(/signature v must be 27 \(0x1b\) or 28/);
    }
  });

  it('action signatures', async () => {
    const w = Wallet.createRandom();
    const layout = defaultActionLayout;
    const action = actionOf(
      'private/order',
      {
        subaccount_id: 7,
        nonce: '1',
        signature_expiry_sec: 2_000_000_000,
        instrument_name: 'ETH-PERP',
        direction: 'buy',
        amount: '1',
        limit_price: '100',
        max_fee: '1',
      } as never,
      {
        owner: w.address,
        signer: w.address,
        deployment: layout.deployment,
        instrument: { base_asset_address: w.address, base_asset_sub_id: '0' },
      },
    );
    const signature = await signActionStruct(w, action, layout);
    expect(recoverActionSigner(action, signature, layout.deployment.separator, layout)).toBe(w.address);
    for (const bad of respelt(signature)) {
      expect(() => recoverActionSigner(action, bad, layout.deployment.separator, layout)).toThrow(SignatureVError);
    }
  });
});

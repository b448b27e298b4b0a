/**
 * The recovery byte of a 65-byte signature. ethers recovers from v 0, 1, 27, 28 and EIP-155 values
 * alike, but on-chain ecrecover takes 27 or 28 only: a signature the venue's contracts would refuse
 * must not pass here, or a sandbox and a runner would accept what the venue cannot settle.
 */
export class SignatureVError extends Error {
  readonly code = 'SIGNATURE_V_INVALID';
  constructor(readonly v: number) {
    super(
      `signature v must be 27 (0x1b) or 28 (0x1c), as ecrecover takes it (got ${v}` +
        `, 0x${v.toString(16).padStart(2, '0')})`,
    );
    this.name = 'SignatureVError';
  }
}

/** Throw a SignatureVError unless the last byte of the 0x-prefixed 65-byte hex signature is 27 or 28. */
export function assertEcrecoverV(signature: string): void {
  const v = parseInt(signature.slice(-2), 16);
  if (v !== 27 && v !== 28) throw new SignatureVError(v);
}

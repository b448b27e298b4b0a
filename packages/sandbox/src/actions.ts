/**
 * The order-flow request's own EIP-712 signature (the action-signature assumption): whose subaccount,
 * whether it has expired, who signed, whether that signer may act for the wallet, and whether the
 * (signer, nonce) pair was seen before. Signatures are recovered by @exchange-api/auth.
 */
import { normalizeAddress, recoverActionSigner } from '@exchange-api/auth';
import type { Accounts, Session } from './accounts';
import type { Clock } from './clock';
import { RpcFailure } from './rpc';

/** The action fields every order-flow request carries (AssumedActionFields of the spec). */
export interface ActionFields {
  subaccount_id: number;
  nonce: string;
  signer: string;
  signature: string;
  signature_expiry_sec: number;
}

/** (signer, nonce) pairs already accepted, each kept until its signature expires. */
export class NonceBook {
  private readonly used = new Map<string, number>();

  /** Whether a signer already used this nonce. */
  has(signer: string, nonce: string): boolean {
    return this.used.has(`${signer}:${nonce}`);
  }

  /** Record a nonce as used until `expiresAtMs`. */
  use(signer: string, nonce: string, expiresAtMs: number): void {
    this.used.set(`${signer}:${nonce}`, expiresAtMs);
  }

  /** Forget nonces whose signatures expired before `nowMs` (they can no longer be replayed). */
  forgetExpired(nowMs: number): void {
    for (const [k, expiry] of this.used) if (expiry < nowMs) this.used.delete(k);
  }

  get size(): number {
    return this.used.size;
  }
}

/** Checks an order-flow request's action signature and spends its nonce. */
export class ActionVerifier {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: Accounts,
    readonly nonces: NonceBook,
  ) {}

  /** Throw the error the table names when the signature does not hold; else record its nonce. */
  verify(session: Session, method: string, p: ActionFields & Record<string, unknown>): void {
    const denied = (data: string) => RpcFailure.of('AUTH_INVALID_ACTION_SIGNATURE', data);
    if (!session.subaccounts.includes(p.subaccount_id))
      throw RpcFailure.of(
        'AUTH_ACCESS_DENIED',
        `subaccount ${p.subaccount_id} is not one of the caller's (${session.subaccounts.join(', ')})`,
      );
    const now = this.clock.now();
    if (p.signature_expiry_sec * 1000 <= now)
      throw denied(
        `signature_expiry_sec ${p.signature_expiry_sec} has passed (server time ${Math.floor(now / 1000)} s)`,
      );
    let recovered: string;
    try {
      recovered = recoverActionSigner(method, p);
    } catch (err) {
      throw denied(`signature does not recover: ${(err as Error).message.slice(0, 120)}`);
    }
    const signer = normalizeAddress(p.signer);
    if (recovered !== signer) throw denied(`signature recovers to ${recovered}, not the signer ${p.signer}`);
    if (!this.accounts.signerAllowed(session.wallet, recovered))
      throw denied(`signer ${recovered} is neither the wallet ${session.wallet} nor one of its unexpired session keys`);
    if (this.nonces.has(recovered, p.nonce)) throw denied(`nonce ${p.nonce} was already used by ${recovered}`);
    this.nonces.use(recovered, p.nonce, p.signature_expiry_sec * 1000);
  }
}

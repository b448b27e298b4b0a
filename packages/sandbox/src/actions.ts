/**
 * A signed request's own EIP-712 action signature, as the public clients make it (the
 * action-signature assumption): whose subaccount, whether it has expired, whether the signer may act
 * for the wallet, whether the (signer, nonce) pair was seen before, and whether the signature is the
 * signer's over this request for the logged-in wallet under one of the accepted deployments. The
 * signatures are checked by @exchange-api/auth.
 */
import {
  ActionDataError,
  canonicalNonce,
  normalizeAddress,
  verifyAction,
  type ActionInstrument,
  type VerifyingDeployment,
} from '@exchange-api/auth';
import type { Accounts, Scope, Session } from './accounts';
import type { Clock } from './clock';
import { RpcFailure } from './rpc';

/** The action fields every signed request carries (AssumedActionFields of the spec). */
export interface ActionFields {
  subaccount_id: number;
  nonce: string | number;
  signer: string;
  signature: string;
  signature_expiry_sec: number;
}

/**
 * Where used (signer, nonce) pairs are kept: this process's NonceBook, or a fleet's (redis/nonces.ts).
 * `claim` records a pair unless it is already there, and says whether it recorded it. The nonce given is
 * always canonical (canonicalNonce): one number, one key, however the request spelled it.
 */
export interface Nonces {
  has(signer: string, nonce: string): boolean | Promise<boolean>;
  claim(signer: string, nonce: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** (signer, nonce) pairs already accepted, each kept until its signature expires. */
export class NonceBook implements Nonces {
  private readonly used = new Map<string, number>();

  /** Whether a signer already used this nonce. */
  has(signer: string, nonce: string): boolean {
    return this.used.has(`${signer}:${nonce}`);
  }

  /** Record a nonce as used until `expiresAtMs`. */
  use(signer: string, nonce: string, expiresAtMs: number): void {
    this.used.set(`${signer}:${nonce}`, expiresAtMs);
  }

  /** Record unless already used; whether it was recorded. */
  claim(signer: string, nonce: string, expiresAtMs: number): boolean {
    if (this.has(signer, nonce)) return false;
    this.use(signer, nonce, expiresAtMs);
    return true;
  }

  /** Forget nonces whose signatures expired before `nowMs` (they can no longer be replayed). */
  forgetExpired(nowMs: number): void {
    for (const [k, expiry] of this.used) if (expiry < nowMs) this.used.delete(k);
  }

  get size(): number {
    return this.used.size;
  }
}

/** The nonce as the number it signs (see canonicalNonce), or why it is none. */
function nonceKey(nonce: unknown): string | ActionDataError {
  try {
    return canonicalNonce(nonce);
  } catch (err) {
    if (err instanceof ActionDataError) return err;
    throw err;
  }
}

/** The nonce as an order records it and cancel_by_nonce matches it: the number, else the text as sent. */
export function nonceText(nonce: unknown): string {
  const key = nonceKey(nonce);
  return typeof key === 'string' ? key : String(nonce);
}

/**
 * What a signed method beyond the order flow tells the verifier: the scope its signer needs (default
 * `trade`), whether it acts for the wallet rather than one subaccount (set_session_key: signed for
 * subaccount 0), and the spot asset a transfer or withdrawal names.
 */
export interface ActionOptions {
  scope?: Scope;
  walletLevel?: boolean;
  asset?: { address: string; decimals?: number };
  /** The assets of a quote's legs by instrument name (the rfq module), all listed: checked before. */
  instruments?: Readonly<Record<string, ActionInstrument>>;
}

/** Where the verifier learns an order's asset (base_asset_address, base_asset_sub_id), by instrument name. */
export type AssetLookup = (instrument: string) => ActionInstrument | undefined;

/** Checks a signed request's action signature and spends its nonce. */
export class ActionVerifier {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: Accounts,
    readonly nonces: Nonces,
    /** The deployments whose signatures are accepted (separator and module addresses). */
    readonly deployments: readonly VerifyingDeployment[],
    private readonly assetOf: AssetLookup,
  ) {}

  /**
   * Throw the error the table names when the signature does not hold; else record its nonce. The
   * nonce is claimed last and atomically, so of two members verifying one nonce at once one refuses it.
   */
  async verify(
    session: Session,
    method: string,
    p: ActionFields & Record<string, unknown>,
    ip: string,
    opts: ActionOptions = {},
  ): Promise<void> {
    const denied = (data: string) => RpcFailure.of('AUTH_INVALID_ACTION_SIGNATURE', data);
    if (opts.walletLevel) {
      if (normalizeAddress(String(p.wallet)) !== session.wallet)
        throw RpcFailure.of(
          'AUTH_ACCESS_DENIED',
          `wallet ${String(p.wallet)} is not the logged-in wallet ${session.wallet}`,
        );
    } else if (!session.subaccounts.includes(p.subaccount_id))
      throw RpcFailure.of(
        'AUTH_ACCESS_DENIED',
        `subaccount ${p.subaccount_id} is not one of the caller's (${session.subaccounts.join(', ')})`,
      );
    const now = this.clock.now();
    if (p.signature_expiry_sec * 1000 <= now)
      throw denied(
        `signature_expiry_sec ${p.signature_expiry_sec} has passed (server time ${Math.floor(now / 1000)} s)`,
      );
    const signer = normalizeAddress(p.signer)!;
    const nonce = nonceKey(p.nonce);
    if (nonce instanceof ActionDataError) throw denied(nonce.message);
    const refusal = this.accounts.signerDenial(session.wallet, signer, {
      subaccount: opts.walletLevel ? null : p.subaccount_id,
      ip,
      scope: opts.scope ?? 'trade',
    });
    if (refusal) throw denied(refusal);
    const used = () => denied(`nonce ${nonce} was already used by ${signer}`);
    if (await this.nonces.has(signer, nonce)) throw used();
    const instrument = typeof p.instrument_name === 'string' ? this.assetOf(p.instrument_name) : undefined;
    let made;
    try {
      made = verifyAction(method, p, {
        owner: session.wallet,
        instrument,
        asset: opts.asset,
        instruments: opts.instruments,
        deployments: this.deployments,
      });
    } catch (err) {
      // An instrument the market does not list: the order checks refuse it and say so (11000), nothing is spent.
      if (err instanceof ActionDataError && !instrument && !opts.asset && !opts.walletLevel && !opts.instruments)
        return;
      throw denied(`signature does not recover: ${(err as Error).message.slice(0, 120)}`);
    }
    if (!made)
      throw denied(
        `signature is not ${signer}'s for this ${method} of wallet ${session.wallet}` +
          ` under any accepted deployment (${this.deployments.map((d) => d.name).join('; ')})`,
      );
    if (!(await this.nonces.claim(signer, nonce, p.signature_expiry_sec * 1000))) throw used();
  }
}

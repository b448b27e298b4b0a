/**
 * Login proofs and action signatures. @exchange-api/auth (and with it ethers) is imported lazily,
 * only when something is signed, so that a client reading public data never loads them.
 */
import type { ActionInstrument, LoginProof } from '@exchange-api/auth';
import { UsageError } from './errors';
import type { ActionFieldsInput, ClientOptions, SignerLike } from './types';

type AuthModule = typeof import('@exchange-api/auth');
// auth's functions take an ethers Signer and use only the methods SignerLike names.
type AuthSigner = Parameters<AuthModule['signLogin']>[0];

/** Signs logins, HTTP login headers and actions with the client's signer (or its custom action signer). */
export class Signing {
  private auth: Promise<AuthModule> | null = null;

  constructor(
    private readonly options: Pick<
      ClientOptions,
      'signer' | 'wallet' | 'actionSigner' | 'actionLayout' | 'signatureExpirySec'
    >,
  ) {}

  /** The signer, or a UsageError naming what needed it. */
  requireSigner(what: string): SignerLike {
    if (!this.options.signer) throw new UsageError(`${what} needs options.signer`);
    return this.options.signer;
  }

  /** The wallet to act for: the given one, else the signer's own address. */
  async wallet(what: string): Promise<string> {
    return this.options.wallet ?? (await this.requireSigner(what).getAddress());
  }

  /** A fresh login proof (EIP-191 over a millisecond timestamp). */
  async loginProof(): Promise<LoginProof> {
    const signer = this.requireSigner('login');
    const auth = await this.loadAuth();
    return auth.signLogin(signer as AuthSigner, { wallet: this.options.wallet });
  }

  /** The three login headers of an HTTP private request, signed afresh (the timestamp is the anti-replay token). */
  async loginHeaders(method: string): Promise<Record<string, string>> {
    const signer = this.requireSigner(method);
    const auth = await this.loadAuth();
    return auth.loginHeaders(await auth.signLogin(signer as AuthSigner, { wallet: this.options.wallet }));
  }

  /**
   * A signed request ready to send: nonce (strictly increasing nanoseconds) and expiry filled in when
   * absent, then signed by the custom action signer, or as the public clients sign (the spec's layout,
   * or `actionLayout`) for the wallet, with the instrument `instrument` gives when the module needs one.
   */
  async signAction(
    method: string,
    params: Record<string, unknown> & { nonce?: string; signature_expiry_sec?: number },
    module: string,
    instrument: () => Promise<ActionInstrument>,
  ): Promise<Record<string, unknown>> {
    const custom = this.options.actionSigner;
    if (!custom) this.requireSigner(method);
    const auth = custom && params.nonce !== undefined ? null : await this.loadAuth();
    const full = {
      ...params,
      nonce: params.nonce ?? auth!.newNonce(),
      signature_expiry_sec:
        params.signature_expiry_sec ?? Math.floor(Date.now() / 1000) + (this.options.signatureExpirySec ?? 600),
    } as Record<string, unknown> & ActionFieldsInput;
    if (custom) return custom(method, full);
    return auth!.signAction(this.requireSigner(method) as AuthSigner, method, full, {
      owner: await this.wallet(method),
      instrument: module === 'trade' ? await instrument() : undefined,
      layout: this.options.actionLayout,
    });
  }

  private loadAuth(): Promise<AuthModule> {
    return (this.auth ??= import('@exchange-api/auth'));
  }
}

/**
 * Wallets, their subaccounts and balances, session keys, and the check of a login proof. Login
 * signatures go through @exchange-api/auth (EIP-191 with ethers); nothing is re-implemented here.
 */
import { keccak256, toUtf8Bytes } from 'ethers';
import { freshness, normalizeAddress, recoverLoginSigner, LoginProofError, type LoginProof } from '@exchange-api/auth';
import { loginTable } from '@exchange-api/types';
import type { ResolvedOptions, SessionKeyConfig } from './options';
import { RpcFailure } from './rpc';
import type { Clock } from './clock';
import { fixed } from './fixed';
import type { SharedRecords } from './state/shared-records';
import { LocalRecords } from './state/local-records';

/** What a verified login grants. */
export interface Session {
  wallet: string;
  /** The address that signed: the wallet or a session key. */
  signer: string;
  sessionKey: SessionKeyConfig | null;
  subaccounts: number[];
  proof: LoginProof;
}

/**
 * What a session key may do: `read` (private reads and channels), `trade` (orders; it reads too),
 * `transfer`, `withdraw`, `set_session_key`; `*` is everything. A key with no scopes has them all (a
 * configured key); `none` is a key registered with no scope at all (it can only log in).
 */
export type Scope = 'read' | 'trade' | 'transfer' | 'withdraw' | 'set_session_key' | 'admin';

/** A session key as the sandbox keeps it: configured, or registered through private/set_session_key. */
export type KeyRecord = SessionKeyConfig & {
  address: string;
  wallet: string;
  label?: string;
  protocolScopes?: string[];
  offchainScopes?: string[];
  registeredSec?: number;
};

/** The kinds of shared records kept here (state/ports.ts, SharedRecords). */
const SESSION_KEYS = 'session-keys';
const CANCEL_ON_DISCONNECT = 'cancel-on-disconnect';
const LABELS = 'subaccount-labels';

/** Balances start here for every subaccount (asset name → amount). */
const STARTING_BALANCES: Record<string, string> = { USDC: '1000000' };

/**
 * Two stable subaccount ids for a wallet with no configured ones: derived from its address. Attempt 0
 * is the wallet's own pair; when another wallet holds one of them (a configured wallet, or a hash that
 * met another's), the next attempts derive further pairs, in a fixed order, until one is free.
 */
export function derivedSubaccounts(wallet: string, attempt = 0): number[] {
  const seed = attempt === 0 ? wallet.toLowerCase() : `${wallet.toLowerCase()}#${attempt}`;
  const hash = keccak256(toUtf8Bytes(seed));
  const base = (parseInt(hash.slice(2, 10), 16) % 90_000_000) + 10_000_000;
  return [base * 10 + 1, base * 10 + 2];
}

/** Bounds the search for a free derived pair; a space of 90 million pairs is never this full. */
const DERIVE_ATTEMPTS = 64;

/** The account ledger and login checks. */
export class Accounts {
  private readonly subaccountsByWallet = new Map<string, number[]>();
  private readonly walletBySubaccount = new Map<number, string>();
  /** subaccount → asset → amount, exact (fixed, 10^-12 units: see fixed.ts). */
  readonly balances = new Map<number, Map<string, bigint>>();
  private readonly sessionKeys: KeyRecord[];
  /** The wallets the configuration names; with knownWalletsOnly, the only ones that may log in. */
  private readonly configuredWallets: Set<string>;
  /** The wallets that turned cancel on disconnect on (handlers/cancel-on-disconnect.ts; get_account reports it). */
  private readonly cancelling = new Set<string>();
  /** Told of every wallet given its subaccounts (a fleet records the wallets that logged in). */
  registered: ((wallet: string, subaccounts: number[]) => void) | null = null;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly clock: Clock,
    /** Where keys registered through the API and cancel-on-disconnect settings are every member's. */
    readonly shared: SharedRecords = new LocalRecords(),
  ) {
    for (const w of options.wallets) this.register(normalizeAddress(w.address)!, w.subaccounts);
    this.sessionKeys = options.sessionKeys.map((k) => ({
      ...k,
      address: normalizeAddress(k.address)!,
      wallet: normalizeAddress(k.wallet)!,
    }));
    this.configuredWallets = new Set([
      ...options.wallets.map((w) => normalizeAddress(w.address)!),
      ...this.sessionKeys.map((k) => k.wallet),
    ]);
    shared.on(SESSION_KEYS, (_key, record) => this.storeKey(record as KeyRecord));
    shared.on(
      CANCEL_ON_DISCONNECT,
      (wallet, on) => void (on ? this.cancelling.add(wallet) : this.cancelling.delete(wallet)),
    );
    shared.on(LABELS, (id, label) => void this.labels.set(Number(id), String(label ?? '')));
  }

  /** Whether the wallet turned cancel on disconnect on. */
  cancelsOnDisconnect(wallet: string): boolean {
    return this.cancelling.has(wallet);
  }

  /** Turn cancel on disconnect on or off for the wallet (on every member). */
  setCancelOnDisconnect(wallet: string, on: boolean): void {
    if (on) this.cancelling.add(wallet);
    else this.cancelling.delete(wallet);
    this.shared.put(CANCEL_ON_DISCONNECT, wallet, on || null);
  }

  /** Give a wallet its subaccounts, each starting with these balances (asset → decimal string). */
  register(wallet: string, subaccounts: number[], starting: Record<string, string> = STARTING_BALANCES): void {
    const own: number[] = [];
    for (const id of subaccounts) {
      const holder = this.walletBySubaccount.get(id);
      if (holder && holder !== wallet) continue; // taken by another wallet: never share a subaccount
      this.walletBySubaccount.set(id, wallet);
      if (!this.balances.has(id))
        this.balances.set(id, new Map(Object.entries(starting).map(([k, v]) => [k, fixed(v)])));
      own.push(id);
    }
    this.subaccountsByWallet.set(wallet, own);
    this.registered?.(wallet, own);
  }

  /** The wallet's subaccounts, created on first use for wallets not in config. */
  subaccountsOf(wallet: string): number[] {
    let subs = this.subaccountsByWallet.get(wallet);
    if (!subs) {
      this.register(wallet, this.freeDerived(wallet));
      subs = this.subaccountsByWallet.get(wallet)!;
    }
    return subs;
  }

  /** The first derived pair of the wallet that no other wallet holds (a wallet never gets none). */
  private freeDerived(wallet: string): number[] {
    for (let attempt = 0; attempt < DERIVE_ATTEMPTS; attempt++) {
      const ids = derivedSubaccounts(wallet, attempt);
      if (ids.every((id) => (this.walletBySubaccount.get(id) ?? wallet) === wallet)) return ids;
    }
    throw new Error(`no free subaccount ids for ${wallet} after ${DERIVE_ATTEMPTS} attempts`);
  }

  /** Subaccount labels (private/change_subaccount_label); none is the empty string. */
  private readonly labels = new Map<number, string>();

  labelOf(subaccount: number): string {
    return this.labels.get(subaccount) ?? '';
  }

  /** Label a subaccount (on every member: a read through any shows it). */
  setLabel(subaccount: number, label: string): void {
    this.labels.set(subaccount, label);
    this.shared.put(LABELS, String(subaccount), label);
  }

  /** Whether the wallet has its subaccounts already (logged in, configured, or credited). */
  knows(wallet: string): boolean {
    return this.subaccountsByWallet.has(wallet);
  }

  /** The wallet owning a subaccount, if any. */
  walletOf(subaccount: number): string | undefined {
    return this.walletBySubaccount.get(subaccount);
  }

  /** A registered session key of the wallet with this address (expired ones included). */
  sessionKey(wallet: string, address: string): SessionKeyConfig | undefined {
    return this.sessionKeys.find((k) => k.wallet === wallet && k.address === address);
  }

  /** Every key of the wallet (expired ones included), as kept: a change to one is seen by its sessions. */
  keysOf(wallet: string): KeyRecord[] {
    return this.sessionKeys.filter((k) => k.wallet === wallet);
  }

  /** The wallets a key address is registered for and unexpired. */
  walletsOfKey(address: string): string[] {
    return this.sessionKeys.filter((k) => k.address === address && !this.expired(k)).map((k) => k.wallet);
  }

  /**
   * Register a key, or change the one of this wallet and address in place (so that sessions it logged
   * in see the change on their next request).
   */
  putKey(record: KeyRecord): KeyRecord {
    const kept = this.storeKey(record);
    this.keepKey(kept);
    return kept;
  }

  /** A key changed in place (an edit): every member gets it. */
  keepKey(record: KeyRecord): void {
    this.shared.put(SESSION_KEYS, `${record.wallet} ${record.address}`, record);
  }

  /** Register or change a key here only (putKey, or a change another member shared). */
  private storeKey(record: KeyRecord): KeyRecord {
    const had = this.sessionKeys.find((k) => k.wallet === record.wallet && k.address === record.address);
    if (!had) {
      this.sessionKeys.push(record);
      return record;
    }
    for (const k of Object.keys(had) as (keyof KeyRecord)[]) if (!(k in record)) delete had[k];
    return Object.assign(had, record);
  }

  /** Open one more subaccount for the wallet (a transfer to a new subaccount); returns its id. */
  openSubaccount(wallet: string): number {
    const subs = this.subaccountsOf(wallet);
    let id = Math.max(...subs, 0) + 1;
    while (this.walletBySubaccount.has(id)) id++;
    this.walletBySubaccount.set(id, wallet);
    this.balances.set(id, new Map());
    subs.push(id);
    this.registered?.(wallet, subs);
    return id;
  }

  /**
   * Why a session key may not act now from `ip`, or null: it expired, or the IP is not on its
   * whitelist. Checked on every request, not only at login: an edit or an expiry counts at once.
   */
  keyRefusal(key: SessionKeyConfig, signer: string, ip: string): string | null {
    if (this.expired(key)) return `session key ${signer} expired at ${key.expiresAtMs}`;
    if (offWhitelist(key, ip)) return `IP ${stripV6(ip)} is not on session key ${signer}'s whitelist`;
    return null;
  }

  /** Whether the key is past its expiry on the sandbox clock. */
  expired(key: SessionKeyConfig): boolean {
    return key.expiresAtMs !== undefined && key.expiresAtMs <= this.clock.now();
  }

  /**
   * Verify a login proof for a request from `ip`. Wallet signers are held to the freshness window;
   * session keys are not, but must be registered, unexpired and allow the IP. `checkFreshness` is off
   * for the heartbeat's re-verification of a stored proof. With knownWalletsOnly, a wallet the
   * configuration does not name is refused (AUTH_ACCESS_DENIED) once its signature holds.
   */
  verify(proof: Partial<LoginProof>, ip: string, checkFreshness = true): Session {
    for (const field of ['wallet', 'timestamp', 'signature'] as const) {
      if (proof[field] === undefined)
        throw RpcFailure.of(
          'AUTH_REQUIRED',
          `login value ${field} missing (params.${field} or header ${headerName(field)})`,
        );
    }
    const wallet = normalizeAddress(proof.wallet);
    if (!wallet)
      throw RpcFailure.of(
        'RPC_INVALID_PARAMS',
        `/wallet: pattern ^0x[0-9a-fA-F]{40}$ (got ${JSON.stringify(proof.wallet).slice(0, 60)})`,
      );
    let signer: string;
    try {
      signer = recoverLoginSigner({ timestamp: proof.timestamp!, signature: proof.signature! });
    } catch (err) {
      if (err instanceof LoginProofError && err.field === 'timestamp')
        throw RpcFailure.of('RPC_INVALID_PARAMS', `/timestamp: ${err.message}`);
      throw RpcFailure.of('AUTH_INVALID_SIGNATURE', err instanceof Error ? err.message : 'signature does not recover');
    }
    const full: LoginProof = { wallet, timestamp: proof.timestamp!, signature: proof.signature! };
    // Checked before any account is opened: an unknown wallet leaves nothing behind.
    if (this.options.knownWalletsOnly && !this.configuredWallets.has(wallet)) {
      throw RpcFailure.of(
        'AUTH_ACCESS_DENIED',
        `wallet ${wallet} is not configured in this sandbox, which knows only its ` +
          `configured wallets (knownWalletsOnly)`,
      );
    }
    return signer === wallet ? this.walletSession(full, checkFreshness) : this.keySession(full, signer, ip);
  }

  private walletSession(proof: LoginProof, checkFreshness: boolean): Session {
    if (checkFreshness) {
      const now = this.clock.now();
      const where = freshness(Number(proof.timestamp), now, this.options.login);
      if (where !== 'fresh') {
        const window = `${this.options.login.pastMs} ms before to ${this.options.login.futureMs} ms after`;
        throw RpcFailure.of(
          'AUTH_TIMESTAMP_WINDOW',
          `timestamp ${proof.timestamp} is ${where === 'stale' ? 'too old' : 'in the future'}` +
            `: the server accepts ${window} its clock (${now})`,
        );
      }
    }
    return {
      wallet: proof.wallet,
      signer: proof.wallet,
      sessionKey: null,
      subaccounts: [...this.subaccountsOf(proof.wallet)],
      proof,
    };
  }

  private keySession(proof: LoginProof, signer: string, ip: string): Session {
    const { wallet } = proof;
    const key = this.sessionKey(wallet, signer);
    if (!key)
      throw RpcFailure.of(
        'AUTH_INVALID_SIGNATURE',
        `signer ${signer} is neither the wallet ${wallet} nor one of its registered session keys`,
      );
    if (this.expired(key))
      throw RpcFailure.of('AUTH_INVALID_SIGNATURE', `session key ${signer} expired at ${key.expiresAtMs}`);
    if (offWhitelist(key, ip)) {
      throw RpcFailure.of('AUTH_ACCESS_DENIED', `IP ${stripV6(ip)} is not on session key ${signer}'s whitelist`);
    }
    const all = this.subaccountsOf(wallet);
    const subaccounts =
      key.subaccounts && key.subaccounts.length > 0 ? all.filter((s) => key.subaccounts!.includes(s)) : [...all];
    return { wallet, signer, sessionKey: key, subaccounts, proof };
  }

  /** Whether a session may do this: `read` covers private channels and reads, `trade` order flow. */
  allows(session: Session, scope: Scope): boolean {
    return keyAllows(session.sessionKey, scope);
  }

  /**
   * Why an action signer may not sign this action for the wallet, or null when it may: the wallet, or
   * an unexpired session key of it whose own limits allow it (the trade scope, the action's subaccount,
   * the request's IP). The key that signs is held to its limits whoever logged in: a wallet's login
   * does not lend its authority to a read-only key's signature.
   */
  signerDenial(
    wallet: string,
    signer: string,
    action: { subaccount: number | null; ip: string; scope?: Scope },
  ): string | null {
    if (signer === wallet) return null;
    const key = this.sessionKey(wallet, signer);
    if (!key || this.expired(key))
      return `signer ${signer} is neither the wallet ${wallet} nor one of its unexpired session keys`;
    const scope = action.scope ?? 'trade';
    if (!keyAllows(key, scope))
      return `session key ${signer} lacks the ${scope} scope (it has ${(key.scopes ?? []).join(', ') || 'none'})`;
    if (
      action.subaccount !== null &&
      key.subaccounts &&
      key.subaccounts.length > 0 &&
      !key.subaccounts.includes(action.subaccount)
    )
      return (
        `session key ${signer} may not act for subaccount ${action.subaccount} (only ` +
        `${key.subaccounts.join(', ')})`
      );
    const ip = action.ip;
    if (offWhitelist(key, ip)) return `IP ${stripV6(ip)} is not on session key ${signer}'s whitelist`;
    return null;
  }

  /** A balance (0 when the subaccount holds none of the asset). */
  balance(subaccount: number, asset: string): bigint {
    return this.balances.get(subaccount)?.get(asset) ?? 0n;
  }

  /** Change a balance by an exact amount; returns the update record. */
  adjust(subaccount: number, asset: string, delta: bigint): { name: string; previous: bigint; next: bigint } {
    let book = this.balances.get(subaccount);
    if (!book) {
      book = new Map();
      this.balances.set(subaccount, book);
    }
    const previous = book.get(asset) ?? 0n;
    const next = previous + delta;
    book.set(asset, next);
    return { name: asset, previous, next };
  }
}

/** Whether a key (null: the wallet itself) has a scope; no scopes at all is a configured key's full authority. */
export function keyAllows(key: SessionKeyConfig | null, scope: Scope): boolean {
  const scopes = key?.scopes;
  if (!scopes || scopes.length === 0) return true;
  return scopes.includes('*') || scopes.includes(scope) || (scope === 'read' && scopes.includes('trade'));
}

function headerName(field: 'wallet' | 'timestamp' | 'signature'): string {
  return loginTable.headers[field];
}

/** Whether a key with an IP whitelist is used from an IP off it. */
function offWhitelist(key: SessionKeyConfig, ip: string): boolean {
  const list = key.ipWhitelist ?? [];
  return list.length > 0 && !list.includes(ip) && !list.includes(stripV6(ip));
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so whitelists can list plain IPv4 addresses. */
export function stripV6(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

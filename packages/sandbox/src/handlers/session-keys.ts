/**
 * Session keys through the API: registered (private/set_session_key, signed by the wallet or by a key
 * holding the set_session_key scope, for a child no wider than itself), listed (private/session_keys,
 * public/get_wallets_from_session_key) and edited (private/edit_session_key: label, IP whitelist and
 * off-chain scopes; the signed scopes, subaccounts and expiry are changed by registering again). A key
 * is revoked as on the venue, by registering it again with a nearer expiry (at least five minutes on).
 *
 * The venue's protocol scopes map onto what the sandbox enforces on every request and every signed
 * action (accounts.ts, Scope); a scope the sandbox does not model is refused by name, never granted
 * or dropped in silence.
 */
import { normalizeAddress } from '@exchange-api/auth';
import type { KeyRecord, Scope } from '../accounts';
import type { HandlerParts } from '../handler-parts';
import { ownWallet } from '../handlers-reads';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure } from '../rpc';

/** The protocol scopes the sandbox models, and what each grants. */
const PROTOCOL_SCOPES: Readonly<Record<string, Scope | '*'>> = {
  admin: '*',
  'trade:all': 'trade',
  withdraw: 'withdraw',
  'transfer:all': 'transfer',
  set_session_key: 'set_session_key',
};
/** The off-chain scopes the sandbox models. */
const OFFCHAIN_SCOPES: Readonly<Record<string, Scope>> = { account_info: 'read' };
/** A registration must leave the key valid this long (the venue's 14009: more than ten minutes). */
const MIN_VALIDITY_SEC = 600;
/** What a configured key with no expiry shows as expiry_sec: the last second of year 9999. */
const NEVER_SEC = 253_402_300_799;

const scopeRefused = (data: string) => RpcFailure.of('SESSION_KEY_SCOPE', data);
const notAnAddress = (data: string) => RpcFailure.of('INVALID_ADDRESS', data);

type SetParams = {
  wallet: string;
  public_session_key: string;
  expiry_sec: number;
  protocol_scopes: string[];
  offchain_scopes: string[];
  subaccount_ids?: number[] | null;
  ip_whitelist?: string[] | null;
  label?: string | null;
  nonce: string;
  signer: string;
  signature: string;
  signature_expiry_sec: number;
};
type EditParams = {
  wallet: string;
  public_session_key: string;
  label?: string | null;
  ip_whitelist?: string[] | null;
  offchain_scopes?: string[] | null;
};

/** The scopes a registration grants, or -32602 naming one the sandbox does not model. */
function grantedScopes(protocol: readonly string[], offchain: readonly string[]): string[] {
  const out = new Set<string>();
  for (const [field, list, table] of [
    ['protocol_scopes', protocol, PROTOCOL_SCOPES],
    ['offchain_scopes', offchain, OFFCHAIN_SCOPES],
  ] as const)
    list.forEach((s, i) => {
      const granted = (table as Record<string, string>)[s];
      if (!granted)
        throw scopeRefused(
          `/${field}/${i}: ${JSON.stringify(s).slice(0, 40)} is not modelled by the sandbox ` +
            `(it models ${Object.keys(table).join(', ')})`,
        );
      out.add(granted);
    });
  return out.has('*') ? ['*'] : [...out];
}

/** The protocol and off-chain scopes a key shows: its own when registered, else those its config grants. */
function shownScopes(k: KeyRecord): { protocol: string[]; offchain: string[] } {
  if (k.protocolScopes) return { protocol: k.protocolScopes, offchain: k.offchainScopes ?? [] };
  const scopes = k.scopes ?? [];
  if (scopes.length === 0 || scopes.includes('*')) return { protocol: ['admin'], offchain: ['account_info'] };
  const protocol = Object.entries(PROTOCOL_SCOPES)
    .filter(([, v]) => v !== '*' && scopes.includes(v))
    .map(([k]) => k);
  return { protocol, offchain: scopes.some((s) => s === 'read' || s === 'trade') ? ['account_info'] : [] };
}

/** A key as private/session_keys shows it. */
function view(k: KeyRecord, all: number[]) {
  const { protocol, offchain } = shownScopes(k);
  return {
    expiry_sec: k.expiresAtMs === undefined ? NEVER_SEC : Math.floor(k.expiresAtMs / 1000),
    ip_whitelist: k.ipWhitelist ?? [],
    label: k.label ?? '',
    offchain_scopes: offchain,
    protocol_scopes: protocol,
    public_session_key: k.address,
    registered_sec: k.registeredSec ?? 0,
    subaccount_ids: k.subaccounts && k.subaccounts.length > 0 ? [...k.subaccounts] : [...all],
  };
}

/** Whether `child` asks for no more than `parent` has (a key registering another). */
function narrowerThan(parent: KeyRecord, child: { scopes: string[]; subaccounts: number[]; expiresAtMs: number }) {
  const p = parent.scopes ?? [];
  const wide = p.length === 0 || p.includes('*');
  const extra = wide ? [] : child.scopes.filter((s) => !p.includes(s) && !(s === 'read' && p.includes('trade')));
  if (extra.length > 0) return `scopes ${extra.join(', ')} beyond its own`;
  const ps = parent.subaccounts ?? [];
  if (ps.length > 0 && (child.subaccounts.length === 0 || child.subaccounts.some((s) => !ps.includes(s))))
    return `subaccounts beyond its own (${ps.join(', ')})`;
  if (parent.expiresAtMs !== undefined && child.expiresAtMs > parent.expiresAtMs)
    return `an expiry after its own (${Math.floor(parent.expiresAtMs / 1000)})`;
  return null;
}

/** The reads: a wallet's live keys, and the wallets a key serves. */
function keyReads({ accounts }: HandlerParts): Record<string, Handler> {
  return {
    'private/session_keys': (ctx, p: { wallet: string }) => {
      const { wallet } = ownWallet(ctx, p.wallet);
      const all = accounts.subaccountsOf(wallet);
      return {
        public_session_keys: accounts
          .keysOf(wallet)
          .filter((k) => !accounts.expired(k))
          .map((k) => view(k, all)),
      };
    },
    'public/get_wallets_from_session_key': (_ctx, p: { public_session_key: string }) => {
      const address = normalizeAddress(p.public_session_key);
      return { wallets: address ? accounts.walletsOfKey(address) : [] };
    },
  };
}

/** Registration (and revocation by re-registering with a nearer expiry), signed by the wallet or a key. */
function keyRegistration({ accounts, actions, clock }: HandlerParts): Record<string, Handler> {
  return {
    'private/set_session_key': async (ctx, p: SetParams) => {
      const session = ownWallet(ctx, p.wallet);
      const wallet = session.wallet;
      const address = normalizeAddress(p.public_session_key);
      if (!address)
        throw notAnAddress(`/public_session_key: not an address (got ${String(p.public_session_key).slice(0, 60)})`);
      if (address === wallet) throw scopeRefused('/public_session_key: the wallet itself is no session key');
      const scopes = grantedScopes(p.protocol_scopes, p.offchain_scopes);
      const own = accounts.subaccountsOf(wallet);
      const subaccounts = p.subaccount_ids ?? [];
      const foreign = subaccounts.filter((s) => !own.includes(s));
      if (foreign.length > 0)
        throw RpcFailure.of('AUTH_ACCESS_DENIED', `subaccounts ${foreign.join(', ')} are not wallet ${wallet}'s`);
      const nowSec = Math.floor(clock.now() / 1000);
      if (p.expiry_sec < nowSec + MIN_VALIDITY_SEC)
        throw RpcFailure.of(
          'SESSION_KEY_EXPIRY_TOO_SOON',
          `/expiry_sec: ${p.expiry_sec} must be at least ${MIN_VALIDITY_SEC} s after the server time (${nowSec})`,
        );
      const child = { scopes: scopes.length > 0 ? scopes : ['none'], subaccounts, expiresAtMs: p.expiry_sec * 1000 };
      // The signature first: whoever signed must hold set_session_key (or be the wallet) before its child is judged.
      await actions.verify(session, 'private/set_session_key', p as never, ctx.ip, {
        scope: 'set_session_key',
        walletLevel: true,
      });
      const signer = normalizeAddress(p.signer);
      const parent = signer && signer !== wallet ? accounts.sessionKey(wallet, signer) : undefined;
      const wider = parent && narrowerThan(parent as KeyRecord, child);
      if (wider) throw scopeRefused(`session key ${signer} may not grant ${wider}`);
      const record = accounts.putKey({
        address,
        wallet,
        expiresAtMs: child.expiresAtMs,
        scopes: child.scopes,
        subaccounts,
        ipWhitelist: p.ip_whitelist ?? [],
        label: p.label ?? '',
        protocolScopes: [...p.protocol_scopes],
        offchainScopes: [...p.offchain_scopes],
        registeredSec: nowSec,
      });
      const { registered_sec: _registered, ...result } = view(record, own);
      return result;
    },
  };
}

/** Edits of what is not signed: label, IP whitelist and off-chain scopes. */
function keyEdits({ accounts }: HandlerParts): Record<string, Handler> {
  const keyOf = (ctx: CallContext, wallet: string, address: string): KeyRecord => {
    const addr = normalizeAddress(address);
    const k = addr ? accounts.keysOf(wallet).find((x) => x.address === addr) : undefined;
    if (!addr) throw notAnAddress(`/public_session_key: not an address (got ${address.slice(0, 60)})`);
    if (!k)
      throw RpcFailure.of(
        'SESSION_KEY_NOT_FOUND',
        `/public_session_key: ${addr} is no session key of wallet ${wallet}`,
      );
    return k;
  };
  return {
    'private/edit_session_key': (ctx, p: EditParams) => {
      const session = ownWallet(ctx, p.wallet);
      const k = keyOf(ctx, session.wallet, p.public_session_key);
      const guarded = p.ip_whitelist != null || p.offchain_scopes != null;
      const scopes = session.sessionKey?.scopes ?? [];
      const admin = session.sessionKey === null || scopes.length === 0 || scopes.includes('*');
      if (guarded && !admin)
        throw RpcFailure.of(
          'AUTH_ACCESS_DENIED',
          `ip_whitelist and offchain_scopes are edited by the wallet or an admin key, ` +
            `not session key ${session.signer}`,
        );
      if (p.offchain_scopes != null) {
        const read = grantedScopes([], p.offchain_scopes);
        const current = k.scopes && k.scopes.length > 0 ? k.scopes : ['*'];
        const rest = current.filter((s) => s !== 'read' && s !== 'none');
        k.offchainScopes = [...p.offchain_scopes];
        k.protocolScopes ??= shownScopes(k).protocol;
        k.scopes = rest.includes('*') ? ['*'] : [...rest, ...read].length > 0 ? [...rest, ...read] : ['none'];
      }
      if (p.ip_whitelist != null) k.ipWhitelist = [...p.ip_whitelist];
      if (p.label != null) k.label = p.label;
      accounts.keepKey(k);
      return view(k, accounts.subaccountsOf(session.wallet));
    },
  };
}

/** The session-key handlers, keyed by method name. */
export function sessionKeyHandlers(parts: HandlerParts): Record<string, Handler> {
  return { ...keyRegistration(parts), ...keyReads(parts), ...keyEdits(parts) };
}

/**
 * The login proof: the current time in milliseconds as a decimal string, signed with EIP-191
 * personal_sign by the wallet or one of its session keys. Header names and the freshness window come
 * from the generated login table.
 */
import { verifyMessage, getAddress, type Signer } from 'ethers';
import { loginTable } from '@exchange-api/types';
import { assertEcrecoverV } from './signature-v';

/** The three values of a login: on WebSocket as params of public/login, on HTTP as headers. */
export interface LoginProof {
  wallet: string;
  timestamp: string;
  signature: string;
}

/** A proof that cannot be checked: a value missing or malformed. Names which value. */
export class LoginProofError extends Error {
  readonly code = 'LOGIN_PROOF_INVALID';
  constructor(
    readonly field: 'wallet' | 'timestamp' | 'signature',
    message: string,
  ) {
    super(message);
    this.name = 'LoginProofError';
  }
}

/**
 * Sign a fresh login proof. `wallet` defaults to the signer's own address (the wallet signs); pass the
 * wallet when the signer is one of its session keys.
 */
export async function signLogin(
  signer: Signer,
  options: { wallet?: string; nowMs?: number } = {},
): Promise<LoginProof> {
  const timestamp = String(Math.floor(options.nowMs ?? Date.now()));
  const signature = await signer.signMessage(timestamp);
  const wallet = options.wallet ?? (await signer.getAddress());
  return { wallet, timestamp, signature };
}

/** The address that signed the proof's timestamp. */
export function recoverLoginSigner(proof: Pick<LoginProof, 'timestamp' | 'signature'>): string {
  if (!/^[0-9]+$/.test(proof.timestamp))
    throw new LoginProofError(
      'timestamp',
      `timestamp must be milliseconds as a decimal string (got ${JSON.stringify(proof.timestamp)})`,
    );
  if (!/^0x[0-9a-fA-F]{130}$/.test(proof.signature))
    throw new LoginProofError('signature', 'signature must be a 65-byte hex string with 0x prefix');
  try {
    assertEcrecoverV(proof.signature);
    return verifyMessage(proof.timestamp, proof.signature);
  } catch (err) {
    throw new LoginProofError('signature', `signature does not recover: ${(err as Error).message}`);
  }
}

/** The proof as the three HTTP headers. */
export function loginHeaders(proof: LoginProof): Record<string, string> {
  const h = loginTable.headers;
  return { [h.wallet]: proof.wallet, [h.timestamp]: proof.timestamp, [h.signature]: proof.signature };
}

/**
 * The header names a value may come under: the document's first, then the names the public clients send
 * (ccxt's X-Lyra*, derive-ts's and derive-py's X-Derive*; the login-header-names assumption).
 */
function headerNames(field: 'wallet' | 'timestamp' | 'signature'): string[] {
  const alternates: ReadonlyArray<Record<typeof field, string>> = loginTable.alternateHeaders ?? [];
  return [loginTable.headers[field], ...alternates.map((h) => h[field])];
}

/** The first of `names` the headers carry, and its name. */
function fromHeaders(lower: Map<string, unknown>, names: string[]): [unknown, string] {
  for (const name of names) {
    const v = lower.get(name.toLowerCase());
    if (v !== undefined && v !== null) return [Array.isArray(v) ? v[0] : v, name];
  }
  return [undefined, names[0]!];
}

/**
 * Read each of the three values from the request params or from headers, interchangeably: a value in
 * params wins, unless `prefer` is `headers` (an HTTP request, where the login travels in the headers and
 * a signed order's params carry its action `signer` and `signature`). Among headers the document's
 * names win over the clients'. Header names match case-insensitively, as HTTP does. A value that is
 * present but not a string (a timestamp may also be a number) is refused with a LoginProofError naming
 * it and where it came from, rather than dropped and later reported as missing.
 */
export function proofFromSources(
  params: unknown,
  headers: unknown,
  prefer: 'params' | 'headers' = 'params',
): Partial<LoginProof> {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const lower = new Map<string, unknown>();
  if (typeof headers === 'object' && headers !== null)
    for (const [k, v] of Object.entries(headers)) lower.set(k.toLowerCase(), v);
  const out: Partial<LoginProof> = {};
  for (const field of ['wallet', 'timestamp', 'signature'] as const) {
    const [header, name] = fromHeaders(lower, headerNames(field));
    const inParams = p[field] !== undefined && p[field] !== null;
    const [v, where] =
      inParams && (prefer === 'params' || header === undefined)
        ? [p[field], `params.${field}`]
        : [header, `header ${name}`];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string') out[field] = v;
    else if (typeof v === 'number' && field === 'timestamp' && Number.isInteger(v)) out[field] = String(v);
    else {
      const got = typeof v === 'object' ? JSON.stringify(v).slice(0, 40) : `${typeof v} ${String(v).slice(0, 40)}`;
      throw new LoginProofError(field, `${where} must be a string (got ${got})`);
    }
  }
  return out;
}

/** The login freshness window of the spec (loginTable.freshness); throws, naming it, when the spec has none. */
export function freshnessWindow(): { pastMs: number; futureMs: number } {
  const window: { pastMs: number; futureMs: number } | undefined = loginTable.freshness;
  if (!window)
    throw new Error('loginTable has no freshness window (x-login.freshness in the spec): pass one explicitly');
  return window;
}

/** Where a wallet-signed timestamp falls against the freshness window (by default the spec's). */
export function freshness(
  timestampMs: number,
  nowMs: number,
  window: { pastMs: number; futureMs: number } = freshnessWindow(),
): 'fresh' | 'stale' | 'future' {
  if (timestampMs < nowMs - window.pastMs) return 'stale';
  if (timestampMs > nowMs + window.futureMs) return 'future';
  return 'fresh';
}

/** Checksummed form of an address, or null when it is not one. */
export function normalizeAddress(a: unknown): string | null {
  if (typeof a !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(a)) return null;
  try {
    return getAddress(a.toLowerCase());
  } catch {
    return null;
  }
}

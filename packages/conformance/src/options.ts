/**
 * The options of a run as given (RunOptions) and as resolved (wallets from keys, defaults), and what a check needs of
 * them.
 */
import { Wallet } from 'ethers';
import type { Check } from './context';
import type { Env, Resolved } from './run-state';
import type { CheckResult, Endpoint, Need } from './model';

/** Options of one run (the command line maps onto these). */
export interface RunOptions {
  /** WebSocket URL of the server (ending in /v3/ws for a standard deployment). */
  ws: string;
  /** HTTP base URL (requests go to `<http>/v3/...`). */
  http?: string | null;
  /**
   * Further endpoints of the same deployment (the command line's `--ws URL1,URL2`): the deployment checks
   * need two or more endpoints in all; every other check runs against `ws`/`http` alone.
   */
  otherEndpoints?: readonly { ws: string; http?: string | null }[];
  /** Hex private key of the wallet used for login checks (and order flow when allowed). */
  key?: string | null;
  /** Hex private key of a session key registered for `wallet`. */
  sessionKey?: string | null;
  wallet?: string | null;
  /** Only checks whose id matches one of these patterns (`*` wildcard; a bare prefix matches its area). */
  only?: string[];
  /** Leave out checks whose id matches one of these patterns. */
  skip?: string[];
  /** Allow checks that place and cancel orders. Off by default: the runner never trades without it. */
  allowOrderFlow?: boolean;
  /** How long to collect pushes on the public channels (ms; default 4500). */
  sampleWindowMs?: number;
  /** Time limit of one check (ms; default 25000); a check past it is inconclusive. */
  checkTimeoutMs?: number;
  /** The checks to choose from (default: the registry). */
  checks?: readonly Check[];
  /** Called as checks start and finish, for progress output. */
  onProgress?: (event: ProgressEvent) => void;
}

/** Progress of a run. */
export type ProgressEvent =
  | { type: 'discovered'; env: Env; checks: number }
  | { type: 'key-refused'; reason: string }
  | { type: 'start'; check: Check; index: number; total: number }
  | { type: 'done'; result: CheckResult; index: number; total: number };

/** Why a deployment check is skipped with one endpoint. */
export const NEEDS_ENDPOINTS = 'needs two or more endpoints: --ws URL1,URL2 (and --http URL1,URL2)';

/** Reasons a need is not met, by need. */
export function unmet(need: Need, o: Resolved): string | null {
  switch (need) {
    case 'key':
      return o.key ? null : 'needs a wallet key: pass --key <hex> or set EXCHANGE_API_KEY';
    case 'http':
      return o.http ? null : 'needs --http <url>';
    case 'order-flow':
      return o.allowOrderFlow ? null : 'needs --allow-order-flow (the runner never places orders without it)';
    case 'session-key':
      return o.sessionKey && o.sessionWallet
        ? null
        : 'needs --session-key <hex> and --wallet <address> of a session key the server knows';
    case 'endpoints':
      return o.endpoints.length >= 2 ? null : NEEDS_ENDPOINTS;
  }
}

function walletOf(hex: string, what: string): Wallet {
  try {
    return new Wallet(hex.startsWith('0x') ? hex : `0x${hex}`);
  } catch {
    throw new TypeError(`${what} is not a valid hex private key`);
  }
}

/** Throws a TypeError naming the flag unless the value is a URL with one of the schemes. */
function checkUrl(flag: string, value: string, schemes: string[], expected: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${flag} ${JSON.stringify(value)} is not a URL`);
  }
  if (!schemes.includes(url.protocol.slice(0, -1)))
    throw new TypeError(`${flag} must be ${expected} URL (got ${value})`);
}

/** Every endpoint, the first from `ws`/`http`; each URL checked; throws a TypeError naming a URL given twice. */
function endpointsOf(options: RunOptions): Endpoint[] {
  const all = [{ ws: options.ws, http: options.http ?? null }, ...(options.otherEndpoints ?? [])].map((e) => ({
    ws: e.ws,
    http: e.http ?? null,
  }));
  for (const e of all) {
    checkUrl('--ws', e.ws, ['ws', 'wss'], 'a ws:// or wss://');
    if (e.http) checkUrl('--http', e.http, ['http', 'https'], 'an http:// or https://');
  }
  const twice = all.find((e, i) => all.findIndex((x) => x.ws === e.ws) !== i);
  if (twice) throw new TypeError(`--ws names ${twice.ws} twice: each endpoint of the deployment once`);
  return all;
}

/** Resolve options: wallets from keys, defaults. Throws TypeError on bad values. */
export function resolveOptions(options: RunOptions): Resolved {
  const endpoints = endpointsOf(options);
  if (!!options.sessionKey !== !!options.wallet) throw new TypeError('--session-key and --wallet go together');
  if (options.wallet && !/^0x[0-9a-fA-F]{40}$/.test(options.wallet))
    throw new TypeError(`--wallet must be a 0x address (got ${options.wallet})`);
  for (const [name, v] of [
    ['sampleWindowMs', options.sampleWindowMs],
    ['checkTimeoutMs', options.checkTimeoutMs],
  ] as const) {
    if (v !== undefined && (!Number.isSafeInteger(v) || v <= 0))
      throw new TypeError(`${name} must be a whole number of milliseconds above 0 (got ${v})`);
  }
  return {
    ws: options.ws,
    http: options.http ?? null,
    endpoints,
    key: options.key ? walletOf(options.key, '--key') : null,
    sessionKey: options.sessionKey ? walletOf(options.sessionKey, '--session-key') : null,
    sessionWallet: options.wallet ?? null,
    allowOrderFlow: options.allowOrderFlow ?? false,
    sampleWindowMs: options.sampleWindowMs ?? 4500,
    checkTimeoutMs: options.checkTimeoutMs ?? 25_000,
  };
}

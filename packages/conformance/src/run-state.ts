/** What one run knows before and while its checks run: the resolved options, the server's environment, shared state. */
import type { Wallet } from 'ethers';
import type { ConnectionGuard, Pacer } from './guard';
import type { Instrument } from './instruments';
import type { Endpoint } from './model';

export type { Instrument } from './instruments';

/** What the runner learned from the server before the checks ran. */
export interface Env {
  instruments: Instrument[];
  perp: Instrument | undefined;
  option: Instrument | undefined;
  currency: string | undefined;
  /** Per-IP concurrent connection budget, and where it came from. */
  connectionBudget: number;
  connectionBudgetSource: 'server' | 'reference';
  /** The unauthenticated (per-IP) request budget the runner paces itself under. */
  anonBudget: { points: number; windowMs: number; source: 'server' | 'reference' };
  /** The first getRateLimits result over WebSocket, as received. */
  rateLimits: unknown;
}

/** Options after resolution: URLs, wallets, switches. */
export interface Resolved {
  ws: string;
  http: string | null;
  /** Every endpoint of the deployment, the first being `ws`/`http` (one entry unless several were given). */
  endpoints: Endpoint[];
  key: Wallet | null;
  sessionKey: Wallet | null;
  sessionWallet: string | null;
  allowOrderFlow: boolean;
  sampleWindowMs: number;
  checkTimeoutMs: number;
}

/** State shared by every check of one run. */
export interface RunState {
  t0: number;
  options: Resolved;
  guard: ConnectionGuard;
  pacer: Pacer;
  env: Env;
  /** Shared probes by name (see probes.ts): each runs once per run. */
  memo: Map<string, Promise<unknown>>;
  /** Why a check that needs the runner's login is not run: its wallet was refused (key-admission.ts). */
  keyRefused?: string;
}

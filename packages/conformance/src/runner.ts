/** runConformance: discover the server, run the selected checks in order, and build the report. */
import { Wallet } from 'ethers';
import { apiInfo, assumptionTable, limitOf, methodTable, publicBudget } from '@exchange-api/types';
import { Ctx, Stop, type Check, type Env, type Instrument, type Resolved, type RunState } from './context';
import { ConnectionGuard, Pacer } from './guard';
import { WsConn } from './connection';
import { Transcript } from './transcript';
import { registry } from './checks';
import { areaOf, matches } from './select';
import type { CheckResult, Counts, Need, Report, Status } from './model';

/** Options of one run (the command line maps onto these). */
export interface RunOptions {
  /** WebSocket URL of the server (ending in /v3/ws for a standard deployment). */
  ws: string;
  /** HTTP base URL (requests go to `<http>/v3/...`). */
  http?: string | null;
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
  | { type: 'start'; check: Check; index: number; total: number }
  | { type: 'done'; result: CheckResult; index: number; total: number };

/** The server could not be reached (exit code 2 on the command line). */
export class UnreachableError extends Error {
  readonly code = 'UNREACHABLE';
}

/** Reasons a need is not met, by need. */
function unmet(need: Need, o: Resolved): string | null {
  switch (need) {
    case 'key':
      return o.key ? null : 'needs a wallet key: pass --key <hex> or set EXCHANGE_API_KEY';
    case 'http':
      return o.http ? null : 'needs --http <url>';
    case 'order-flow':
      return o.allowOrderFlow ? null : 'needs --allow-order-flow (the runner never places orders without it)';
    case 'session-key':
      return o.sessionKey && o.sessionWallet ? null : 'needs --session-key <hex> and --wallet <address> of a session key the server knows';
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
  if (!schemes.includes(url.protocol.slice(0, -1))) throw new TypeError(`${flag} must be ${expected} URL (got ${value})`);
}

/** Resolve options: wallets from keys, defaults. Throws TypeError on bad values. */
export function resolveOptions(options: RunOptions): Resolved {
  checkUrl('--ws', options.ws, ['ws', 'wss'], 'a ws:// or wss://');
  if (options.http) checkUrl('--http', options.http, ['http', 'https'], 'an http:// or https://');
  if (!!options.sessionKey !== !!options.wallet) throw new TypeError('--session-key and --wallet go together');
  if (options.wallet && !/^0x[0-9a-fA-F]{40}$/.test(options.wallet)) throw new TypeError(`--wallet must be a 0x address (got ${options.wallet})`);
  return {
    ws: options.ws,
    http: options.http ?? null,
    key: options.key ? walletOf(options.key, '--key') : null,
    sessionKey: options.sessionKey ? walletOf(options.sessionKey, '--session-key') : null,
    sessionWallet: options.wallet ?? null,
    allowOrderFlow: options.allowOrderFlow ?? false,
    sampleWindowMs: options.sampleWindowMs ?? 4500,
    checkTimeoutMs: options.checkTimeoutMs ?? 25_000,
  };
}


/** Ask the server for its budgets and instruments on one short-lived connection. */
async function discover(o: Resolved, t0: number): Promise<{ env: Env; transcript: Transcript }> {
  const transcript = new Transcript(t0);
  let conn: WsConn;
  try {
    conn = await WsConn.open(o.ws, transcript, 'discovery');
  } catch (err) {
    throw new UnreachableError((err as Error).message);
  }
  // The reference values stand until the server reports its own; a spec without them cannot be paced.
  const connRef = limitOf('connections', 'connections');
  if (!publicBudget) throw new Error('limitTable has no per-IP request budget (a window limit with scope ip): the runner paces unauthenticated requests under it');
  const pubRef = limitOf(publicBudget, 'window');
  const env: Env = {
    instruments: [],
    perp: undefined,
    option: undefined,
    currency: undefined,
    connectionBudget: connRef.max,
    connectionBudgetSource: 'reference',
    anonBudget: { points: pubRef.points, windowMs: pubRef.windowMs, source: 'reference' },
    rateLimits: null,
  };
  try {
    const limits = await conn.request(methodTable.find((m) => m.id === 'publicGetRateLimits')!.name, {});
    const result = limits?.response.result as Record<string, { remainingPoints?: unknown; consumedPoints?: unknown; msBeforeNext?: unknown; isFirstInDuration?: unknown }> | undefined;
    env.rateLimits = result ?? null;
    const c = result?.remaining_connections;
    if (c && typeof c.remainingPoints === 'number' && typeof c.consumedPoints === 'number') {
      env.connectionBudget = c.remainingPoints + c.consumedPoints;
      env.connectionBudgetSource = 'server';
    }
    const nm = result?.remaining_non_matching;
    if (nm && typeof nm.remainingPoints === 'number' && typeof nm.consumedPoints === 'number') {
      const windowMs = nm.isFirstInDuration === true && typeof nm.msBeforeNext === 'number' && nm.msBeforeNext > 0 ? nm.msBeforeNext : env.anonBudget.windowMs;
      env.anonBudget = { points: nm.remainingPoints + nm.consumedPoints, windowMs, source: 'server' };
    }
    const live = methodTable.find((m) => m.id === 'publicGetAllLiveInstruments');
    if (live) {
      const got = await conn.request(live.name, {});
      const list = got?.response.result;
      if (Array.isArray(list)) {
        env.instruments = list.filter((i): i is Instrument => typeof i === 'object' && i !== null && typeof (i as Instrument).instrument_name === 'string' && (i as { is_active?: unknown }).is_active !== false);
      }
    }
  } finally {
    await conn.close();
  }
  env.perp = env.instruments.find((i) => i.instrument_type === 'perp') ?? env.instruments[0];
  env.option = env.instruments.find((i) => i.instrument_type === 'option');
  env.currency = env.perp?.base_currency;
  return { env, transcript };
}

function count(results: readonly CheckResult[]): Counts {
  const by = (s: Status) => results.filter((r) => r.status === s).length;
  return { total: results.length, passed: by('pass'), failed: by('fail'), skipped: by('skip'), inconclusive: by('inconclusive') };
}

/** Run the conformance checks against a server and return the report. Throws UnreachableError when it cannot connect. */
export async function runConformance(options: RunOptions): Promise<Report> {
  const o = resolveOptions(options);
  const t0 = Date.now();
  const { env } = await discover(o, t0);
  // Keep a margin under the per-IP request budget: other clients on this IP may be using it too.
  const pacer = new Pacer(Math.max(1, Math.floor(env.anonBudget.points * 0.8) - 1), env.anonBudget.windowMs);
  pacer.take(); // the discovery's getRateLimits
  const run: RunState = { t0, options: o, guard: new ConnectionGuard(Math.max(1, env.connectionBudget)), pacer, env, memo: new Map() };
  const selected = (options.checks ?? registry).filter((c) => (!options.only?.length || matches(c.id, options.only)) && !(options.skip?.length && matches(c.id, options.skip)));
  options.onProgress?.({ type: 'discovered', env, checks: selected.length });

  const results: CheckResult[] = [];
  for (const [index, check] of selected.entries()) {
    options.onProgress?.({ type: 'start', check, index, total: selected.length });
    const result = await runOne(run, check);
    results.push(result);
    options.onProgress?.({ type: 'done', result, index, total: selected.length });
  }
  // Probes may still hold a connection (started for checks that were then skipped).
  await Promise.allSettled([...run.memo.values()]);

  const areas = [...new Set(results.map((r) => r.area))].map((area) => ({ area, ...count(results.filter((r) => r.area === area)) }));
  const summary = count(results);
  return {
    format: 'exchange-api-conformance-report',
    formatVersion: 1,
    spec: { title: apiInfo.title, version: apiInfo.version },
    target: { ws: o.ws, http: o.http },
    startedAt: new Date(t0).toISOString(),
    durationMs: Date.now() - t0,
    exitCode: summary.failed > 0 ? 1 : 0,
    summary,
    areas,
    assumptions: assumptionTable.map((a) => ({
      id: a.id,
      title: a.title,
      choice: a.choice,
      observations: results.flatMap((r) => r.observations.filter((ob) => ob.assumption === a.id).map((ob) => ({ check: r.id, text: ob.text, ...(ob.conforms !== undefined ? { conforms: ob.conforms } : {}) }))),
    })),
    checks: results,
  };
}

/** How long a check stopped by its time limit may take to unwind before the next one starts anyway. */
const SETTLE_MS = 5000;

async function runOne(run: RunState, check: Check): Promise<CheckResult> {
  const start = Date.now();
  const base = { id: check.id, area: areaOf(check.id), title: check.title, section: check.section, level: check.level, needs: [...check.needs] };
  const missing = check.needs.map((n) => unmet(n, run.options)).filter((r): r is string => r !== null);
  if (missing.length > 0) return { ...base, status: 'skip', reason: missing.join('; '), durationMs: 0, findings: [], observations: [], transcript: [] };
  const controller = new AbortController();
  const ctx = new Ctx(run, check.id, controller.signal);
  let status: Status = 'pass';
  let reason: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const body = Promise.resolve().then(() => check.run(ctx));
  body.catch(() => undefined); // settled below in every case; never an unhandled rejection
  try {
    const outcome = await Promise.race([
      body.then(() => 'done' as const),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), run.options.checkTimeoutMs);
      }),
    ]);
    if (outcome === 'timeout') {
      const stop = new Stop('inconclusive', `did not finish within ${run.options.checkTimeoutMs} ms`);
      status = stop.status;
      reason = stop.reason;
      // Stop it: its helpers refuse to connect, send or sleep from now on and its connections close.
      // Then wait for it to unwind, so nothing of it is still running when the next check starts.
      controller.abort(stop);
      let grace: NodeJS.Timeout | undefined;
      const settled = await Promise.race([body.then(() => true, () => true), new Promise<false>((r) => (grace = setTimeout(() => r(false), SETTLE_MS)))]);
      clearTimeout(grace);
      if (!settled) ctx.note(`still unwinding ${SETTLE_MS} ms after the stop; it can open no connection any more`);
    }
  } catch (err) {
    if (err instanceof Stop) {
      status = err.status;
      reason = err.reason;
    } else {
      status = 'inconclusive';
      reason = `the check stopped on an error of its own: ${(err as Error).stack ?? String(err)}`;
    }
  } finally {
    clearTimeout(timer);
    await ctx.closeAll();
  }
  if (ctx.findings.length > 0) {
    status = 'fail';
    reason ??= ctx.findings[0]!.message;
  } else if (status === 'fail') status = 'inconclusive';
  return { ...base, status, ...(reason !== undefined ? { reason } : {}), durationMs: Date.now() - start, findings: ctx.findings, observations: ctx.observations, transcript: ctx.transcript.finish() };
}

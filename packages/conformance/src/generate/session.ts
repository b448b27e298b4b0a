/**
 * The connections of a generated run and how calls are made on them: an anonymous WebSocket for public
 * methods, a logged-in one for private methods (the --key wallet, else a fresh random wallet where the
 * server lets one log in), HTTP POST with the login headers. Calls are paced under the budgets (the
 * per-IP one before login, the class's per-wallet one after): the server's own where its getRateLimits
 * says (pacing.ts), else the spec's; a rate-limit answer is waited out as its hint says and the call sent again.
 */
import { Wallet } from 'ethers';
import { loginHeaders, signLogin } from '@exchange-api/auth';
import { isNotification, isResponse, WsConn, type RpcResponse } from '../connection';
import { Pacer } from '../guard';
import { Transcript } from '../transcript';
import type { Outcome } from './verdict';
import { ipBudgetFrom, rateLimitsMethod, walletBudgetsFrom, type PaceBudget } from './pacing';
import type { GenLimit, GenMethod, GenSpec } from './spec';

/** What one call sent and got. */
export interface Exchange {
  outcome: Outcome;
  id?: string;
  sent: string;
  received: string[];
  /** Rate-limit answers waited out before this one. */
  retries: number;
}

const CALL_TIMEOUT_MS = 5000;
const MAX_RETRIES = 3;
let ids = 0;

/** The login method of a spec (public/login), when it has one. */
export function loginMethod(spec: GenSpec): GenMethod | undefined {
  return spec.methods.find((m) => m.name === 'public/login');
}

/** The connections, the login and the pacers of one generated run. */
export class Session {
  private conns = new Map<'anon' | 'login', WsConn>();
  private readonly pacers = new Map<string, Pacer>();
  /** Budgets as the server reported them, by limit id. */
  private readonly refined = new Map<string, PaceBudget>();
  wallet: Wallet | null = null;
  subaccounts: number[] = [];
  /** Why private methods cannot be called (null when they can). */
  noLogin: string | null = null;

  constructor(
    readonly spec: GenSpec,
    readonly ws: string,
    readonly http: string | null,
    readonly key: Wallet | null,
    readonly transcript: Transcript,
  ) {}

  /** Open the anonymous connection and log in the other (throws when the server cannot be reached). */
  async open(): Promise<void> {
    await this.conn('anon');
    if (!loginMethod(this.spec)) this.noLogin = 'the spec has no login method (public/login)';
    else await this.conn('login').catch((err: Error) => (this.noLogin = err.message));
  }

  /** The connection of a kind, opened (and logged in) again when it was lost. */
  async conn(kind: 'anon' | 'login'): Promise<WsConn> {
    const known = this.conns.get(kind);
    if (known && known.isOpen) return known;
    const conn = await WsConn.open(this.ws, this.transcript, `generate-${kind}`, CALL_TIMEOUT_MS);
    this.conns.set(kind, conn);
    if (kind === 'login') await this.login(conn);
    return conn;
  }

  /**
   * A connection of its own (logged in with the run's wallet when `login`), for probes that must not share one; the
   * caller closes it.
   */
  async fresh(login: boolean, name: string): Promise<WsConn> {
    const conn = await WsConn.open(this.ws, this.transcript, name, CALL_TIMEOUT_MS);
    if (login) await this.login(conn).catch(async (err: Error) => (await conn.close(), Promise.reject(err)));
    return conn;
  }

  private async login(conn: WsConn): Promise<void> {
    this.wallet ??= this.key ?? (Wallet.createRandom() as unknown as Wallet);
    const got = await conn.request('public/login', await signLogin(this.wallet), { timeoutMs: CALL_TIMEOUT_MS });
    const result = got?.response.result;
    if (!Array.isArray(result) || !result.every((x) => Number.isInteger(x)))
      throw new Error(
        `login refused: ${got ? JSON.stringify(got.response.error ?? got.response.result) : 'no answer'}`,
      );
    this.subaccounts = result as number[];
  }

  /** The limit a call is paced under: the per-IP one without a login, the class's per-wallet one with it. */
  private limitOf(m: GenMethod, authed: boolean): GenLimit | undefined {
    const ip = this.spec.limits.find((l) => l.scope === 'ip');
    if (!authed) return ip;
    const budget = this.spec.classBudgets[m.rateLimitClass ?? this.spec.defaultClass ?? ''] ?? 'non_matching';
    const byId = (id: string) => this.spec.limits.find((l) => l.id === id);
    return byId(budget) ?? byId(m.name.split('/').pop()!) ?? byId('non_matching') ?? ip;
  }

  /**
   * How many calls per window a pacer lets through: the budget (the server's where it said, else the
   * spec's) less a margin; the whole of a fresh random wallet's budget, which is the runner's alone, but
   * only 80 % of a per-IP budget or of the --key wallet's, which other clients may share.
   */
  private sizeOf(limit: GenLimit | undefined, authed: boolean): { points: number; windowMs: number } {
    const b = limit ? (this.refined.get(limit.id) ?? limit) : null;
    if (!b) return { points: 20, windowMs: 1000 };
    const share = authed && !this.key ? 1 : 0.8;
    return { points: Math.max(1, Math.floor(b.points * share) - 1), windowMs: b.windowMs };
  }

  private pacer(m: GenMethod, authed: boolean): Pacer {
    const limit = this.limitOf(m, authed);
    const key = authed ? `wallet:${limit?.id ?? 'any'}` : 'ip';
    let p = this.pacers.get(key);
    if (!p) {
      const { points, windowMs } = this.sizeOf(limit, authed);
      p = new Pacer(points, windowMs);
      this.pacers.set(key, p);
    }
    return p;
  }

  private refine(b: PaceBudget, authed: boolean): void {
    this.refined.set(b.id, b);
    const limit = this.spec.limits.find((l) => l.id === b.id);
    const p = this.pacers.get(authed ? `wallet:${b.id}` : 'ip');
    if (p) Object.assign(p, this.sizeOf(limit, authed));
  }

  /**
   * Ask the server for its budgets (getRateLimits, where the spec has it) on both connections and pace
   * under what it says instead of the spec's reference values. Without an answer the spec's stand.
   */
  async readBudgets(): Promise<void> {
    const m = rateLimitsMethod(this.spec);
    if (!m) return;
    const resultOf = (ex: Exchange) =>
      ex.outcome.kind === 'response' ? (ex.outcome.json as RpcResponse | undefined)?.result : undefined;
    const anon = await this.callOn(await this.conn('anon'), m, '{}', false);
    const ip = ipBudgetFrom(this.spec, resultOf(anon));
    if (ip) this.refine(ip, false);
    if (this.noLogin) return;
    const mine = await this.callOn(await this.conn('login'), m, '{}', true);
    for (const b of walletBudgetsFrom(this.spec, resultOf(mine))) this.refine(b, true);
  }

  /** The window budgets the run paces under: the server's where it said, else the spec's. */
  pacing(): PaceBudget[] {
    return this.spec.limits.map(
      (l) => this.refined.get(l.id) ?? { id: l.id, points: l.points, windowMs: l.windowMs, source: 'spec' as const },
    );
  }

  /** Whether a call travels with the login: private methods, and public ones over the logged-in WebSocket. */
  private withLogin(m: GenMethod, transport: 'ws' | 'http'): boolean {
    if (m.auth === 'login') return true;
    return transport === 'ws' && !this.noLogin && m !== loginMethod(this.spec);
  }

  /** Send one call (params as JSON text) and wait for its answer, waiting out rate-limit answers. */
  async call(m: GenMethod, transport: 'ws' | 'http', paramsText: string): Promise<Exchange> {
    for (let retries = 0; ; retries++) {
      const authed = this.withLogin(m, transport);
      await this.pacer(m, authed).take();
      const ex =
        transport === 'ws' ? await this.wsCall(m, paramsText, authed) : await this.httpCall(m, paramsText, authed);
      ex.retries = retries;
      const wait = this.rateLimitWait(ex.outcome);
      if (wait === null || retries >= MAX_RETRIES) return ex;
      this.transcript.record('-', 'event', `rate limited on ${m.name}; waiting ${wait} ms as the hint says`);
      await new Promise((r) => setTimeout(r, Math.min(wait, 10_000) + 50));
    }
  }

  /** The hinted wait of a rate-limit answer, or null when the answer is not one. */
  rateLimitWait(o: Outcome): number | null {
    const body = o.kind === 'response' || o.kind === 'http' ? (o.json as RpcResponse | undefined) : undefined;
    const code = body?.error?.code;
    if (!this.spec.errors.some((e) => e.code === code && e.kind === 'rate-limit')) return null;
    const ms = /([0-9]+)\s*ms/.exec(String(body?.error?.data ?? ''))?.[1];
    return ms ? Number(ms) : 1000;
  }

  /**
   * Send one call on a given connection, paced (the per-IP budget unless `authed`), waiting out rate-limit
   * answers. A signed request is sent again with what `again` gives (signed anew, a fresh nonce): a server
   * may have spent the nonce of the request it refused for its rate, and the same frame would then be
   * refused as a replay, a failure of the runner's making.
   */
  async callOn(
    conn: WsConn,
    m: GenMethod,
    paramsText: string,
    authed: boolean,
    again?: () => Promise<string>,
  ): Promise<Exchange> {
    for (let retries = 0; ; retries++) {
      await this.pacer(m, authed).take();
      const id = `gen-${++ids}`;
      const params = retries > 0 && again ? await again() : paramsText;
      const sent =
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(m.name)}` + `,"params":${params}}`;
      const ex: Exchange = { ...(await sendFrame(conn, sent, id)), id, sent, retries };
      const wait = this.rateLimitWait(ex.outcome);
      if (wait === null || retries >= MAX_RETRIES) return ex;
      await new Promise((r) => setTimeout(r, Math.min(wait, 10_000) + 50));
    }
  }

  private async wsCall(m: GenMethod, paramsText: string, authed: boolean): Promise<Exchange> {
    const conn = await this.conn(authed ? 'login' : 'anon');
    const id = `gen-${++ids}`;
    const sent =
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(m.name)}` + `,"params":${paramsText}}`;
    return { ...(await sendFrame(conn, sent, id)), id, sent, retries: 0 };
  }

  private async httpCall(m: GenMethod, paramsText: string, authed: boolean): Promise<Exchange> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authed && this.wallet) Object.assign(headers, loginHeaders(await signLogin(this.wallet)));
    const url = new URL(
      (m.httpPath ?? `/${m.name}`).replace(/^\//, ''),
      this.http!.endsWith('/') ? this.http! : `${this.http}/`,
    );
    return {
      ...(await post(url.toString(), paramsText, headers)),
      sent: `POST ${url.pathname} ${paramsText}`,
      retries: 0,
    };
  }

  /** Close every connection. */
  async close(): Promise<void> {
    await Promise.all([...this.conns.values()].map((c) => c.close()));
  }
}

/** Send a frame on a connection and wait for the response echoing `id`: the outcome and the frames that came. */
export async function sendFrame(
  conn: WsConn,
  text: string,
  id: string,
): Promise<{ outcome: Outcome; received: string[] }> {
  const from = conn.frames.length;
  conn.send(text);
  const frame = await conn.waitFor(
    (f) => isResponse(f.json) && (f.json as RpcResponse).id === id,
    CALL_TIMEOUT_MS,
    from,
  );
  const others = conn.frames.slice(from).filter((f) => !isNotification(f.json));
  const received = others.map((f) => f.text);
  if (frame) return { outcome: { kind: 'response', json: frame.json, text: frame.text }, received };
  const stray = others.find((f) => f.json === undefined || !isResponse(f.json));
  if (stray) return { outcome: { kind: 'response', json: stray.json, text: stray.text }, received };
  if (conn.closeInfo) {
    const what = `the connection closed (code ${conn.closeInfo.code}) without an answer`;
    return { outcome: { kind: 'closed', code: conn.closeInfo.code, what }, received: [...received, `(${what})`] };
  }
  const what = others.length
    ? `${others.length} response(s) not echoing the id`
    : `nothing within ${CALL_TIMEOUT_MS} ms`;
  return { outcome: { kind: 'silence', what }, received };
}

/** POST a body; the outcome (silence on a timeout) and the body that came. */
export async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ outcome: Outcome; received: string[] }> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { outcome: { kind: 'http', status: res.status, json, text }, received: [`HTTP ${res.status} ${text}`] };
  } catch (err) {
    if ((err as Error).name === 'TimeoutError')
      return { outcome: { kind: 'silence', what: `no HTTP response within ${CALL_TIMEOUT_MS} ms` }, received: [] };
    return { outcome: { kind: 'http-error', what: (err as Error).message }, received: [] };
  }
}

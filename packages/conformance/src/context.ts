/** What a check (or a shared probe) works with: recorded connections and HTTP calls, findings, outcomes. */
import type { Wallet } from 'ethers';
import { signLogin, type LoginProof } from '@exchange-api/auth';
import { errorOfKind, parseRetryHint } from '@exchange-api/types';
import { WsConn, type RpcResponse } from './connection';
import { Transcript } from './transcript';
import type { ConnectionGuard, Pacer } from './guard';
import type { Finding, Need, Observation, Level, Status } from './model';

/** An instrument as the runner uses it (from public/get_all_live_instruments, an assumed result shape). */
export interface Instrument {
  instrument_name: string;
  instrument_type: string;
  base_currency: string;
  tick_size?: string;
  amount_step?: string;
}

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
  memo: Map<string, Promise<unknown>>;
}

/** A check: its id (area.name), the section of the document it enforces, its level and needs, and its body. */
export interface Check {
  id: string;
  title: string;
  section: string;
  level: Level;
  needs: Need[];
  run(ctx: Ctx): Promise<void>;
}

/** Thrown to end a check early with an outcome. */
export class Stop extends Error {
  constructor(
    readonly status: Status,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The rate-limit hint in milliseconds, or null when the data is not a hint of the documented form. */
export function retryAfterMs(data: unknown): number | null {
  return typeof data === 'string' ? parseRetryHint(data) : null;
}

const rateLimitCode = errorOfKind('rate-limit').code;

/** The outcome of a check stopped by its time limit (what every helper throws once the signal is aborted). */
function stopped(signal: AbortSignal): Stop {
  return signal.reason instanceof Stop ? signal.reason : new Stop('inconclusive', 'the check was stopped');
}

/** One recorded HTTP exchange. */
export interface HttpExchange {
  status: number;
  text: string;
  json: unknown;
}

/**
 * The context of one check or probe. Its `signal` is aborted when the check runs out of time: from then
 * on the helpers open no connection, send nothing, sleep no more (they throw the timeout's Stop), the
 * connections it opened are closed, and findings it records no longer count.
 */
export class Ctx {
  readonly findings: Finding[] = [];
  readonly observations: Observation[] = [];
  readonly transcript: Transcript;
  readonly signal: AbortSignal;
  private readonly conns: WsConn[] = [];
  private connCount = 0;

  constructor(
    readonly run: RunState,
    readonly name: string,
    signal: AbortSignal = new AbortController().signal,
  ) {
    this.transcript = new Transcript(run.t0);
    this.signal = signal;
    signal.addEventListener(
      'abort',
      () => {
        this.note(`stopped: ${stopped(signal).reason}; closing its connections`);
        void this.closeAll();
      },
      { once: true },
    );
  }

  /** Throw the timeout's Stop when the check has been stopped. */
  throwIfStopped(): void {
    if (this.signal.aborted) throw stopped(this.signal);
  }

  get options(): Resolved {
    return this.run.options;
  }
  get env(): Env {
    return this.run.env;
  }

  /** Record a failure and go on (the check fails at the end). */
  fail(f: { pointer?: string; rule: string; expected: string; got: string; message: string }): void {
    if (this.signal.aborted) {
      // What a stopped check sees (its connections closed under it) is not evidence about the server.
      this.note(`after the stop, not counted: ${f.message}`);
      return;
    }
    this.findings.push({ pointer: f.pointer ?? '', rule: f.rule, expected: f.expected, got: f.got, message: f.message });
  }

  /** Record a failure and end the check now. */
  abort(f: { pointer?: string; rule: string; expected: string; got: string; message: string }): never {
    this.fail(f);
    throw new Stop('fail', f.message);
  }

  skip(reason: string): never {
    throw new Stop('skip', reason);
  }

  inconclusive(reason: string): never {
    throw new Stop('inconclusive', reason);
  }

  observe(o: Observation): void {
    this.observations.push(o);
  }

  note(text: string): void {
    this.transcript.record('-', 'event', text);
  }

  /** Wait; throws the timeout's Stop at once when the check is stopped meanwhile. */
  sleep(ms: number): Promise<void> {
    this.throwIfStopped();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(stopped(this.signal));
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * A shared, memoised probe (one per run): its own transcript, its connections closed when it ends. It
   * runs on behalf of the check that starts it and is stopped with it; a later check reading a stopped
   * probe ends inconclusive.
   */
  shared<T>(name: string, body: (p: Ctx) => Promise<T>): Promise<T & { transcript: Transcript }> {
    let p = this.run.memo.get(name) as Promise<T & { transcript: Transcript }> | undefined;
    if (!p) {
      const probe = new Ctx(this.run, `probe:${name}`, this.signal);
      const starter = this.name;
      p = (async () => {
        try {
          const value = await body(probe);
          probe.throwIfStopped();
          return Object.assign(value as object, { transcript: probe.transcript }) as T & { transcript: Transcript };
        } catch (err) {
          if (probe.signal.aborted) throw new Stop('inconclusive', `the shared probe ${name} was stopped when ${starter} ran out of time`);
          throw err;
        } finally {
          await probe.closeAll();
        }
      })();
      this.run.memo.set(name, p);
    }
    return p;
  }

  /** Open a WebSocket within the connection budget; closed when the check ends (or is stopped). */
  async connect(label?: string): Promise<WsConn> {
    this.throwIfStopped();
    await this.run.guard.acquire();
    if (this.signal.aborted) {
      this.run.guard.release();
      throw stopped(this.signal);
    }
    const name = label ?? `${this.name.replace(/^probe:/, '')}#${++this.connCount}`;
    let conn: WsConn;
    try {
      conn = await WsConn.open(this.options.ws, this.transcript, name, 5000, this.signal);
    } catch (err) {
      this.run.guard.release();
      this.throwIfStopped();
      this.abort({ rule: 'connect', expected: 'the WebSocket opens', got: (err as Error).message, message: `could not open a WebSocket: ${(err as Error).message}` });
    }
    this.conns.push(conn);
    void conn.closed.then(() => this.run.guard.release());
    if (this.signal.aborted) {
      await conn.close();
      throw stopped(this.signal);
    }
    return conn;
  }

  /** Open a WebSocket outside the budget guard (only the connection-limit check may). */
  async connectUnguarded(label: string): Promise<WsConn> {
    this.throwIfStopped();
    const conn = await WsConn.open(this.options.ws, this.transcript, label, 5000, this.signal).catch((err: Error) => {
      this.throwIfStopped();
      throw err;
    });
    this.conns.push(conn);
    if (this.signal.aborted) {
      await conn.close();
      throw stopped(this.signal);
    }
    return conn;
  }

  /** Close every connection this context opened. */
  async closeAll(): Promise<void> {
    await Promise.all(this.conns.map((c) => c.close()));
  }

  /**
   * Send a request and return its response; ends the check as failed when none comes. Unless `raw`,
   * unauthenticated requests are paced under the per-IP budget, and a -32000 answer is waited out and
   * retried (budget trouble caused by the runner is not what the check is about).
   */
  async call(conn: WsConn, method: string, params: unknown, opts: { raw?: boolean; headers?: Record<string, string>; timeoutMs?: number; id?: string | number } = {}): Promise<RpcResponse> {
    for (let attempt = 0; ; attempt++) {
      this.throwIfStopped();
      if (!opts.raw && !conn.loggedIn) await this.run.pacer.take();
      this.throwIfStopped();
      const got = await conn.request(method, params, opts);
      this.throwIfStopped();
      if (!got) {
        this.abort({
          rule: 'Endpoints › WebSocket framing: responses echo id',
          expected: `a response to ${method} echoing its id`,
          got: conn.closeInfo ? `the connection closed (code ${conn.closeInfo.code})` : `nothing within ${opts.timeoutMs ?? 5000} ms`,
          message: `no response to ${method}`,
        });
      }
      const wait = got.response.error?.code === rateLimitCode ? retryAfterMs(got.response.error.data) : null;
      if (opts.raw || wait === null || attempt >= 2) return got.response;
      this.note(`rate limited while checking something else; waiting ${wait} ms as the hint says, then retrying`);
      await this.sleep(Math.min(wait, 6000) + 50);
    }
  }

  /** Log in on a connection with a signer (wallet or session key). Returns the response; sets conn.loggedIn on success. */
  async login(conn: WsConn, signer: Wallet, opts: { wallet?: string; nowMs?: number; proof?: LoginProof; viaHeaders?: boolean; raw?: boolean } = {}): Promise<RpcResponse> {
    const proof = opts.proof ?? (await signLogin(signer, { ...(opts.wallet ? { wallet: opts.wallet } : {}), ...(opts.nowMs !== undefined ? { nowMs: opts.nowMs } : {}) }));
    let response: RpcResponse;
    if (opts.viaHeaders) {
      const { loginHeaders } = await import('@exchange-api/auth');
      response = await this.call(conn, 'public/login', {}, { headers: loginHeaders(proof), raw: opts.raw ?? false });
    } else response = await this.call(conn, 'public/login', proof, { raw: opts.raw ?? false });
    if (Array.isArray(response.result) && response.result.every((x) => Number.isInteger(x))) conn.loggedIn = response.result as number[];
    return response;
  }

  /** Log in or end the check (as failed when the server refuses a valid proof). */
  async mustLogin(conn: WsConn, signer: Wallet, opts: { wallet?: string } = {}): Promise<number[]> {
    const response = await this.login(conn, signer, opts);
    if (!conn.loggedIn) {
      this.abort({
        pointer: '/result',
        rule: 'Endpoints › public/login: result is an array of integer subaccount ids',
        expected: 'an array of integers',
        got: JSON.stringify(response.error ?? response.result ?? null),
        message: 'a valid login was not accepted',
      });
    }
    return conn.loggedIn;
  }

  /** POST to the HTTP base (recorded); `path` starts with /v3/. Unauthenticated calls are paced. */
  async http(path: string, body: unknown, headers: Record<string, string> = {}, opts: { raw?: boolean } = {}): Promise<HttpExchange> {
    const base = this.options.http;
    if (!base) this.skip('needs --http <url>');
    this.throwIfStopped();
    if (!opts.raw && Object.keys(headers).length === 0) await this.run.pacer.take();
    this.throwIfStopped();
    const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`).toString();
    const text = JSON.stringify(body);
    this.transcript.record('http', 'sent', `POST ${url}${Object.keys(headers).length ? ` ${JSON.stringify(headers)}` : ''} ${text}`);
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text, signal: AbortSignal.any([AbortSignal.timeout(5000), this.signal]) });
      const out = await res.text();
      this.transcript.record('http', 'received', `HTTP ${res.status} ${out}`);
      let json: unknown;
      try {
        json = JSON.parse(out);
      } catch {
        json = undefined;
      }
      return { status: res.status, text: out, json };
    } catch (err) {
      this.throwIfStopped();
      this.abort({ rule: 'Endpoints › HTTP requests', expected: 'an HTTP response', got: (err as Error).message, message: `POST ${path} failed: ${(err as Error).message}` });
    }
  }
}

/**
 * The context of one check or probe: what it recorded (findings, observations, transcript) and the
 * helpers it works with, each from its own module: cancellation (cancellation.ts), the connection pool
 * (pool.ts), paced calls (calls.ts), probe memoisation (probes.ts) and outcomes (outcome.ts).
 */
import type { Wallet } from 'ethers';
import { Cancellation } from './cancellation';
import { call, http, login, type CallOptions, type FindingInput, type HttpExchange, type LoginOptions } from './calls';
import { OpenTimeout, type RpcResponse, type WsConn } from './connection';
import { Stop, stoppedBy } from './outcome';
import { ConnectionPool } from './pool';
import { memoisedProbe, type ProbeResult } from './probes';
import type { Env, Resolved, RunState } from './run-state';
import { Transcript } from './transcript';
import type { Finding, Level, Need, Observation } from './model';

export { Stop } from './outcome';
export type { Env, Instrument, Resolved, RunState } from './run-state';
export type { CallOptions, HttpExchange } from './calls';

/** A check: its id (area.name), the section of the document it enforces, its level and needs, and its body. */
export interface Check {
  id: string;
  title: string;
  section: string;
  level: Level;
  needs: Need[];
  run(ctx: Ctx): Promise<void>;
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
  private readonly cancellation: Cancellation;
  private readonly pool: ConnectionPool;

  constructor(
    readonly run: RunState,
    readonly name: string,
    readonly signal: AbortSignal = new AbortController().signal,
  ) {
    this.transcript = new Transcript(run.t0);
    this.cancellation = new Cancellation(signal);
    this.pool = new ConnectionPool(run.options.ws, run.guard, this.transcript, signal, name.replace(/^probe:/, ''));
    signal.addEventListener(
      'abort',
      () => {
        this.note(`stopped: ${stoppedBy(signal).reason}; closing its connections`);
        void this.closeAll();
      },
      { once: true },
    );
  }

  get options(): Resolved {
    return this.run.options;
  }
  get env(): Env {
    return this.run.env;
  }
  /** Whether this check could not open a WebSocket or lost one abruptly: a sign the server may be gone. */
  get transportTrouble(): boolean {
    return this.pool.connectFailure !== null || this.pool.lostAbruptly;
  }

  /** Throw the timeout's Stop when the check has been stopped. */
  throwIfStopped(): void {
    this.cancellation.throwIfStopped();
  }

  /** Wait; throws the timeout's Stop at once when the check is stopped meanwhile. */
  sleep(ms: number): Promise<void> {
    return this.cancellation.sleep(ms);
  }

  /** Record a failure and go on (the check fails at the end). */
  fail(f: FindingInput): void {
    if (this.signal.aborted) {
      // What a stopped check sees (its connections closed under it) is not evidence about the server.
      this.note(`after the stop, not counted: ${f.message}`);
      return;
    }
    this.findings.push({
      pointer: f.pointer ?? '',
      rule: f.rule,
      expected: f.expected,
      got: f.got,
      message: f.message,
    });
  }

  /** Record a failure and end the check now. */
  abort(f: FindingInput): never {
    this.fail(f);
    throw new Stop('fail', f.message);
  }

  /** End the check as skipped, with the reason. */
  skip(reason: string): never {
    throw new Stop('skip', reason);
  }

  /** End the check as inconclusive: no evidence either way, with the reason. */
  inconclusive(reason: string): never {
    throw new Stop('inconclusive', reason);
  }

  /** Record what the server did without judging it. */
  observe(o: Observation): void {
    this.observations.push(o);
  }

  /** Add an event line to the transcript. */
  note(text: string): void {
    this.transcript.record('-', 'event', text);
  }

  /** A shared, memoised probe (one per run), run on behalf of this check and stopped with it (probes.ts). */
  shared<T>(name: string, body: (p: Ctx) => Promise<T>): Promise<ProbeResult<T>> {
    return memoisedProbe(this.run.memo, name, this.name, () => new Ctx(this.run, `probe:${name}`, this.signal), body);
  }

  /**
   * Open a WebSocket within the connection budget (closed when the check ends), to `url` (default the
   * first endpoint's); ends the check as failed when the server refuses it, inconclusive when it only did
   * not open in time.
   */
  async connect(label?: string, url?: string): Promise<WsConn> {
    try {
      return await this.pool.open(label, url);
    } catch (err) {
      if (err instanceof Stop) throw err;
      if (err instanceof OpenTimeout) this.inconclusive(`${err.message}: a late handshake is no evidence either way`);
      this.abort({
        rule: 'connect',
        expected: 'the WebSocket opens',
        got: (err as Error).message,
        message: `could not open a WebSocket: ${(err as Error).message}`,
      });
    }
  }

  /** Open a WebSocket outside the budget guard (only the connection-limit checks may); rejects when it cannot. */
  connectUnguarded(label: string, url?: string): Promise<WsConn> {
    return this.pool.openUnguarded(label, url);
  }

  /** Close every connection this context opened. */
  closeAll(): Promise<void> {
    return this.pool.closeAll();
  }

  /** Send a request and return its response; ends the check as failed when none comes (calls.ts: pacing and retry). */
  call(conn: WsConn, method: string, params: unknown, opts: CallOptions = {}): Promise<RpcResponse> {
    return call(this, conn, method, params, opts);
  }

  /** Log in on a connection with a signer (wallet or session key); sets conn.loggedIn on success. */
  login(conn: WsConn, signer: Wallet, opts: LoginOptions = {}): Promise<RpcResponse> {
    return login(this, conn, signer, opts);
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

  /**
   * POST to the HTTP base (recorded); `path` starts with /v3/. Unauthenticated calls are paced unless `pace` is false.
   */
  http(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    opts: { pace?: boolean } = {},
  ): Promise<HttpExchange> {
    return http(this, this.options.http, path, body, headers, opts);
  }
}

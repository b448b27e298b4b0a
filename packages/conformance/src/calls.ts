/**
 * Paced calls: requests over WebSocket and HTTP as checks make them. Unauthenticated requests wait for
 * room under the per-IP budget (pacing); a -32000 met while checking something else is waited out as the
 * hint says and retried (budget trouble the runner caused is not what the check is about). Each of the
 * two is an option of its own, on by default.
 */
import type { Wallet } from 'ethers';
import { loginHeaders, signLogin, type LoginProof } from '@exchange-api/auth';
import { errorOfKind } from '@exchange-api/types';
import { onlySilence, silenceOf, type RpcResponse, type WsConn } from './connection';
import { retryAfterMs } from './retry-hint';
import type { RunState } from './run-state';
import type { Transcript } from './transcript';

/** A failure to record: where, which rule, what was expected and what came. */
export interface FindingInput {
  pointer?: string;
  rule: string;
  expected: string;
  got: string;
  message: string;
}

/** What a call needs of the check making it. */
export interface CallHost {
  readonly run: RunState;
  readonly transcript: Transcript;
  readonly signal: AbortSignal;
  throwIfStopped(): void;
  sleep(ms: number): Promise<void>;
  note(text: string): void;
  abort(f: FindingInput): never;
  skip(reason: string): never;
  inconclusive(reason: string): never;
}

/** How one WebSocket call is made. */
export interface CallOptions {
  /** Wait for room under the per-IP budget first (default true; applies only before login). */
  pace?: boolean;
  /** Wait out a -32000 answer as its hint says and retry, at most twice (default true). */
  retryRateLimited?: boolean;
  /**
   * A signed request's params signed anew (a fresh nonce), sent on a retry: a server may have spent the
   * nonce of a request it refused for its rate, and the same params would then be refused as a replay.
   */
  again?: () => Promise<unknown>;
  headers?: Record<string, string>;
  timeoutMs?: number;
  id?: string | number;
}

/** One recorded HTTP exchange. */
export interface HttpExchange {
  status: number;
  text: string;
  json: unknown;
}

const rateLimitCode = errorOfKind('rate-limit').code;
const DEFAULT_TIMEOUT_MS = 5000;

/** Send a request and return its response; ends the check as failed when none comes, saying what came instead. */
export async function call(
  host: CallHost,
  conn: WsConn,
  method: string,
  params: unknown,
  opts: CallOptions = {},
): Promise<RpcResponse> {
  for (let attempt = 0; ; attempt++) {
    host.throwIfStopped();
    if (opts.pace !== false && !conn.loggedIn) await host.run.pacer.take();
    host.throwIfStopped();
    const from = conn.frames.length;
    const got = await conn.request(method, attempt > 0 && opts.again ? await opts.again() : params, opts);
    host.throwIfStopped();
    if (!got) {
      const ms = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      // These rules are not about time: a response still to come is no evidence that none will.
      if (onlySilence(conn, from))
        host.inconclusive(`no response to ${method} within ${ms} ms: a late answer is no evidence either way`);
      host.abort({
        rule: 'Endpoints › WebSocket framing: responses echo id',
        expected: `a response to ${method} echoing its id`,
        got: silenceOf(conn, from, ms),
        message: `no response to ${method}`,
      });
    }
    const wait = got.response.error?.code === rateLimitCode ? retryAfterMs(got.response.error.data) : null;
    if (opts.retryRateLimited === false || wait === null || attempt >= 2) return got.response;
    host.note(`rate limited while checking something else; waiting ${wait} ms as the hint says, then retrying`);
    await host.sleep(Math.min(wait, 6000) + 50);
  }
}

/** How a login is made: the signer's wallet (for session keys), its time, a ready proof, where the values travel. */
export interface LoginOptions {
  wallet?: string;
  nowMs?: number;
  proof?: LoginProof;
  viaHeaders?: boolean;
}

/**
 * Log in on a connection with a signer (wallet or session key). Returns the response; sets conn.loggedIn on success.
 */
export async function login(
  host: CallHost,
  conn: WsConn,
  signer: Wallet,
  opts: LoginOptions = {},
): Promise<RpcResponse> {
  const proof =
    opts.proof ??
    (await signLogin(signer, {
      ...(opts.wallet ? { wallet: opts.wallet } : {}),
      ...(opts.nowMs !== undefined ? { nowMs: opts.nowMs } : {}),
    }));
  const response = opts.viaHeaders
    ? await call(host, conn, 'public/login', {}, { headers: loginHeaders(proof) })
    : await call(host, conn, 'public/login', proof);
  if (Array.isArray(response.result) && response.result.every((x) => Number.isInteger(x)))
    conn.loggedIn = response.result as number[];
  return response;
}

/**
 * POST to the HTTP base (recorded); `path` starts with /v3/. Requests without login headers are paced unless `pace` is
 * false.
 */
export async function http(
  host: CallHost,
  base: string | null,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  opts: { pace?: boolean } = {},
): Promise<HttpExchange> {
  if (!base) host.skip('needs --http <url>');
  host.throwIfStopped();
  if (opts.pace !== false && Object.keys(headers).length === 0) await host.run.pacer.take();
  host.throwIfStopped();
  const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`).toString();
  const text = JSON.stringify(body);
  host.transcript.record(
    'http',
    'sent',
    `POST ${url}${Object.keys(headers).length ? ` ${JSON.stringify(headers)}` : ''} ${text}`,
  );
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: text,
      signal: AbortSignal.any([AbortSignal.timeout(DEFAULT_TIMEOUT_MS), host.signal]),
    });
    const out = await res.text();
    host.transcript.record('http', 'received', `HTTP ${res.status} ${out}`);
    return { status: res.status, text: out, json: parseOrUndefined(out) };
  } catch (err) {
    host.throwIfStopped();
    if ((err as Error).name === 'TimeoutError')
      host.inconclusive(
        `no HTTP response to POST ${path} within ${DEFAULT_TIMEOUT_MS} ms: a late answer is no evidence either way`,
      );
    host.abort({
      rule: 'Endpoints › HTTP requests',
      expected: 'an HTTP response',
      got: (err as Error).message,
      message: `POST ${path} failed: ${(err as Error).message}`,
    });
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What the deployment checks share: the endpoints named A, B, … in the order given, one wallet logged
 * in on every endpoint (a fresh one when the server lets it, so no other check's budget is spent), and
 * getRateLimits read on a connection as it came (a refusal is returned, not retried).
 */
import { Wallet } from 'ethers';
import { cut } from '@exchange-api/validators';
import type { Ctx } from '../../context';
import { WsConn, type RpcResponse } from '../../connection';
import type { Endpoint } from '../../model';
import { endpointName } from '../../endpoint-name';
import { errorOf, rateLimitError, FINDING_MAX } from '../util';
import { getRateLimits, type Budget, type Limits } from '../ratelimit/budget';

/** One endpoint of the deployment with its name in findings (A, B, …). */
export interface Named extends Endpoint {
  name: string;
}

/** Every endpoint of the run, named. */
export function endpoints(ctx: Ctx): Named[] {
  return ctx.options.endpoints.map((e, i) => ({ ...e, name: endpointName(i) }));
}

/** One wallet logged in on every endpoint: its connections (in endpoint order), its signer and whose it is. */
export interface WalletOnAll {
  conns: WsConn[];
  signer: Wallet;
  keyed: string;
  subaccount: number | undefined;
}

/**
 * Log one wallet in on every endpoint: a fresh random wallet when the first endpoint lets it log in,
 * else the caller's (--key). Ends the check when an endpoint refuses the login the first accepted.
 */
export async function walletOnAll(ctx: Ctx, opts: { callers?: boolean } = {}): Promise<WalletOnAll> {
  const all = endpoints(ctx);
  const first = await ctx.connect(`${all[0]!.name}-wallet`, all[0]!.ws);
  let signer: Wallet = ctx.options.key!;
  let keyed = "the caller's wallet (--key)";
  if (!opts.callers) {
    const fresh = Wallet.createRandom() as unknown as Wallet;
    await ctx.login(first, fresh);
    if (first.loggedIn) [signer, keyed] = [fresh, 'a fresh random wallet'];
    else keyed = "the caller's wallet (the server refused a fresh wallet)";
  }
  if (!first.loggedIn) await ctx.mustLogin(first, signer);
  const conns = [first];
  for (const e of all.slice(1)) {
    const conn = await ctx.connect(`${e.name}-wallet`, e.ws);
    await ctx.mustLogin(conn, signer);
    conns.push(conn);
  }
  ctx.note(`wallet under test: ${keyed} (${signer.address}), logged in on ${all.map((e) => e.name).join(', ')}`);
  return { conns, signer, keyed, subaccount: first.loggedIn![0] };
}

/** A reading of getRateLimits on one endpoint: the result, or the error it came with, and when it was asked. */
export interface Reading {
  at: number;
  response: RpcResponse;
  limits: Limits | null;
}

/** Read getRateLimits on a connection (not retried when refused); ends the check inconclusive when no answer comes. */
export async function read(ctx: Ctx, conn: WsConn): Promise<Reading> {
  const at = Date.now();
  const response = await ctx.call(conn, getRateLimits.name, {}, { retryRateLimited: false });
  const limits = errorOf(response) ? null : ((response.result as Limits | undefined) ?? null);
  return { at, response, limits };
}

/** A reading that must carry a result: ends the check as failed when getRateLimits was refused. */
export async function mustRead(ctx: Ctx, conn: WsConn, where: string): Promise<Limits> {
  const r = await read(ctx, conn);
  if (!r.limits)
    ctx.abort({
      pointer: '/error',
      rule: 'public/getRateLimits needs no authentication',
      expected: 'a result',
      got: cut(r.response.error ?? r.response, FINDING_MAX),
      message: `getRateLimits was refused on ${where}`,
    });
  return r.limits;
}

/** A budget object as findings quote it. */
export function show(b: Budget | undefined): string {
  return b ? `consumedPoints ${b.consumedPoints}, remainingPoints ${b.remainingPoints}` : 'no such budget';
}

/** Whether a response is the documented rate-limit error. */
export function rateLimited(r: RpcResponse | null | undefined): boolean {
  return !!r && errorOf(r)?.code === rateLimitError.code;
}

/** Send `n` getRateLimits on `conn` at once and collect the answers in order (null where none came in 3 s). */
export async function spend(conn: WsConn, n: number, tag: string): Promise<(RpcResponse | null)[]> {
  const sent: { id: string; from: number }[] = [];
  for (let i = 0; i < n; i++) {
    const id = `${tag}-${WsConn.nextId()}`;
    sent.push({ id, from: conn.frames.length });
    conn.send({ jsonrpc: '2.0', id, method: getRateLimits.name, params: {} });
  }
  return Promise.all(
    sent.map(async (s) => {
      const f = await conn.waitFor((fr) => (fr.json as RpcResponse | undefined)?.id === s.id, 3000, s.from);
      return f ? (f.json as RpcResponse) : null;
    }),
  );
}

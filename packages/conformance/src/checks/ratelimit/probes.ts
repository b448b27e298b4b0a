/**
 * What the budget-consuming probes share: a connection keyed on a budget of its own (a fresh wallet when
 * the server lets one log in, so other checks keep theirs), a burst that spends a budget, and signed
 * order-flow requests whose answers (or their absence) are kept rather than ending the probe.
 */
import { Wallet } from 'ethers';
import type { Ctx } from '../../context';
import type { RpcResponse, WsConn } from '../../connection';
import { onlySilence, silenceOf } from '../../connection';
import { signedParams } from '../actions';

/** A connection logged in on a budget of its own, and whose budget that is. */
export interface BudgetConnection {
  conn: WsConn;
  signer: Wallet | null;
  keyed: string;
  subaccount: number | undefined;
}

/** A connection keyed on a budget of its own: a fresh wallet if the server lets one log in, else the caller's. */
export async function budgetConnection(ctx: Ctx, opts: { needWallet: boolean }): Promise<BudgetConnection> {
  const conn = await ctx.connect();
  if (ctx.options.key) {
    const fresh = Wallet.createRandom() as unknown as Wallet;
    await ctx.login(conn, fresh);
    if (conn.loggedIn) return { conn, signer: fresh, keyed: 'a fresh random wallet', subaccount: conn.loggedIn[0] };
    const ids = await ctx.mustLogin(conn, ctx.options.key);
    return {
      conn,
      signer: ctx.options.key,
      keyed: "the caller's wallet (the server refused a fresh wallet)",
      subaccount: ids[0],
    };
  }
  if (opts.needWallet) ctx.skip('needs a wallet key');
  return { conn, signer: null, keyed: 'the per-IP budget (no key given)', subaccount: undefined };
}

/** One answer of a burst, with its latency (-1 and a null response when none came). */
export interface BurstAnswer {
  response: RpcResponse | null;
  latencyMs: number;
}

/** Send `n` requests with `send` (which returns the id it used), then collect the answers, in order. */
export async function burst(
  conn: WsConn,
  n: number,
  send: (i: number) => Promise<string | number>,
): Promise<{ answers: BurstAnswer[] }> {
  const sent: { id: string | number; at: number; from: number }[] = [];
  for (let i = 0; i < n; i++) {
    const from = conn.frames.length;
    sent.push({ id: await send(i), at: Date.now(), from });
  }
  const answers = await Promise.all(
    sent.map(async (s) => {
      const f = await conn.waitFor((fr) => (fr.json as RpcResponse | undefined)?.id === s.id, 3000, s.from);
      return { response: f ? (f.json as RpcResponse) : null, latencyMs: f ? Date.now() - s.at : -1 };
    }),
  );
  return { answers };
}

/** How long a probe waits for the answer to one order-flow request. */
export const ANSWER_MS = 3000;

/** A request of a probe that got no answer: what was sent, what came instead, and whether that was nothing. */
export interface Unanswered {
  method: string;
  fields: Record<string, unknown>;
  got: string;
  /** Nothing but pushes came and the connection is open: the answer may only be late. */
  silent: boolean;
}

/**
 * A sender of signed order-flow requests whose answers are returned as they are (a rate-limit error is
 * not retried). A request that gets no answer is not evidence of anything: it returns null and is kept in
 * `unanswered`, for the checks to report (a request refused by a limit is answered, never dropped).
 */
export function signedSender(p: Ctx, conn: WsConn, signer: Wallet, subaccount: number, unanswered: Unanswered[]) {
  return async (name: string, fields: Record<string, unknown>): Promise<RpcResponse | null> => {
    const params = await signedParams(signer, name, subaccount, fields);
    p.throwIfStopped();
    const from = conn.frames.length;
    const got = await conn.request(name, params, { timeoutMs: ANSWER_MS });
    p.throwIfStopped();
    if (got) return got.response;
    unanswered.push({ method: name, fields, got: silenceOf(conn, from, ANSWER_MS), silent: onlySilence(conn, from) });
    return null;
  };
}

/**
 * Fail the check for each request of a probe that was answered with something else or a close (at most
 * three findings). One that met only silence may have been answered late: when no request met anything
 * else, the check ends inconclusive.
 */
export function reportUnanswered(ctx: Ctx, unanswered: readonly Unanswered[]): void {
  const evidence = unanswered.filter((u) => !u.silent);
  if (unanswered.length > 0 && evidence.length === 0)
    ctx.inconclusive(
      `${unanswered.length} request(s) of the probe got no answer within ${ANSWER_MS}` +
        ` ms (first: ${unanswered[0]!.method}): a late answer is no evidence either way`,
    );
  for (const u of evidence.slice(0, 3)) {
    const where = typeof u.fields.instrument_name === 'string' ? ` in ${u.fields.instrument_name}` : '';
    ctx.fail({
      rule:
        'every request is answered; a request over a limit is rejected with the rate-limit ' +
        'error, never dropped or queued',
      expected: `an answer to ${u.method}${where} within ${ANSWER_MS} ms`,
      got: u.got,
      message: `${u.method}${where} got no answer`,
    });
  }
}

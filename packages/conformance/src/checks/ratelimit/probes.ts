/**
 * What the budget-consuming probes share: a connection keyed on a budget of its own (a fresh wallet when
 * the server lets one log in, so other checks keep theirs), a burst that spends a budget, and signed
 * order-flow requests whose answers (or their absence) are kept rather than ending the probe.
 */
import { Wallet } from 'ethers';
import type { Ctx } from '../../context';
import type { RpcResponse, WsConn } from '../../connection';
import { action } from '../actions';

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
    return { conn, signer: ctx.options.key, keyed: "the caller's wallet (the server refused a fresh wallet)", subaccount: ids[0] };
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
export async function burst(conn: WsConn, n: number, send: (i: number) => Promise<string | number>): Promise<{ answers: BurstAnswer[] }> {
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

/** A sender of signed order-flow requests whose rate-limit answers are returned, not retried. */
export function signedSender(p: Ctx, conn: WsConn, signer: Wallet, subaccount: number) {
  return (name: string, fields: Record<string, unknown>): Promise<RpcResponse | null> => action(p, conn, signer, name, subaccount, fields, { retryRateLimited: false }).catch(() => null);
}

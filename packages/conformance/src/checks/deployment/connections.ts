/**
 * The per-IP connection limit across the endpoints of a deployment: connections up to the budget split
 * over A, B, …, and the one past it refused wherever it lands. Like connections.limit, this opens past
 * the runner's guard, once its other connections are closed.
 */
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../../context';
import { OpenTimeout, type WsConn } from '../../connection';
import { S, connectionLimitError } from '../util';
import { getRateLimits, type Limits } from '../ratelimit/budget';
import { admittedWithin, settledCount } from '../admitted';
import { endpoints, show, type Named } from './common';

/** A connection past the guard; ends the check inconclusive when it only did not open in time. */
async function open(ctx: Ctx, e: Named, label: string): Promise<WsConn> {
  try {
    return await ctx.connectUnguarded(label, e.ws);
  } catch (err) {
    if (err instanceof OpenTimeout) ctx.inconclusive(`${err.message}: a late handshake is no evidence either way`);
    return ctx.inconclusive(`${label} could not be opened (${(err as Error).message}): see connections.limit`);
  }
}

/** Whether the connection was refused as the limit says: the text frame, or a close, within 3 s. */
async function refusedNow(ctx: Ctx, conn: WsConn): Promise<boolean> {
  const prefix = connectionLimitError.textFramePrefix;
  // Resolves with the frame, or null at the close or after 3 s.
  const frame = await conn.waitFor((f) => f.text.startsWith(prefix), 3000);
  ctx.throwIfStopped();
  return frame !== null || conn.closeInfo !== null;
}

/** What each endpoint reports of this IP's connections, on one held connection of each. */
async function counts(ctx: Ctx, all: Named[], held: { on: Named; conn: WsConn }[]): Promise<string> {
  const out: string[] = [];
  for (const e of all) {
    const mine = held.filter((h) => h.on === e);
    const r = await ctx.call(mine[0]!.conn, getRateLimits.name, {}, { retryRateLimited: false });
    const reported = (r.result as Limits | undefined)?.remaining_connections;
    out.push(`${e.name} holds ${mine.length} of them and reports ${show(reported)}`);
  }
  return out.join('; ');
}

/** The deployment check of the connection limit. */
export const connectionChecks: Check[] = [
  {
    id: 'deployment.connection-limit',
    title: 'The per-IP connection limit holds across the endpoints: the connection past it is refused',
    section: `${S.reference} (concurrent WebSocket clients per IP); ${S.errors} (${connectionLimitError.code})`,
    level: 'MUST',
    needs: ['endpoints'],
    async run(ctx) {
      if (!(await ctx.run.guard.idle())) ctx.inconclusive('other connections of the runner did not close in time');
      const all = endpoints(ctx);
      const first = await admittedWithin(ctx, () => open(ctx, all[0]!, `${all[0]!.name}#1`), undefined, 0);
      const held = [{ on: all[0]!, conn: first }];
      const reported = await settledCount(ctx, first, 1);
      if (reported === null)
        ctx.note(`A reports no remaining_connections: the reference budget ${ctx.env.connectionBudget}`);
      const budget = reported ?? ctx.env.connectionBudget;
      // Each within the budget answers a request first: every one of them is counted when the next opens.
      for (let i = 1; i < budget; i++) {
        const on = all[i % all.length]!;
        const label = `${on.name}#${held.filter((h) => h.on === on).length + 1}`;
        held.push({ on, conn: await admittedWithin(ctx, () => open(ctx, on, label), first, held.length) });
      }
      const on = all[budget % all.length]!;
      const extra = await open(ctx, on, `${on.name}-past-the-limit`);
      const split = all.map((e) => `${e.name} ${held.filter((h) => h.on === e).length}`).join(', ');
      ctx.note(`holding ${budget} connections (${split}); connection ${budget + 1} goes to ${on.name}`);
      if (await refusedNow(ctx, extra)) return ctx.note(`connection ${budget + 1} (on ${on.name}) was refused`);
      const r = await extra.request(getRateLimits.name, {}, { timeoutMs: 5000 });
      // A refusal later than the 3 s above is still a refusal: the rule is not about time.
      if (extra.closeInfo || extra.frames.some((f) => f.text.startsWith(connectionLimitError.textFramePrefix)))
        return ctx.note(`connection ${budget + 1} (on ${on.name}) was refused`);
      if (!r) return ctx.inconclusive(`connection ${budget + 1} (on ${on.name}) was neither refused nor answered`);
      const gone = held.find((h) => h.conn.closeInfo);
      if (gone) ctx.inconclusive(`${gone.conn.label} was closed before connection ${budget + 1} was served`);
      ctx.fail({
        rule: 'the per-IP connection limit counts every connection of the IP to the deployment',
        expected:
          `connection ${budget + 1} of this IP (on ${on.name}; the budget is ${budget}` +
          `) refused with ${connectionLimitError.textFramePrefix}… and the close`,
        got:
          `it was served (getRateLimits on it answered ${cut(r.response.result ?? r.response.error, 120)}` +
          `); ${await counts(ctx, all, [...held, { on, conn: extra }])}`,
        message: `connection ${budget + 1} of this IP was served by ${on.name}: the endpoints count connections apart`,
      });
    },
  },
];

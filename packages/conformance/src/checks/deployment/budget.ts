/**
 * One wallet's request budget across the endpoints of a deployment: spent in part on A, read on B,
 * the rest spent on B as A's reading says, and the request past it refused with the rate-limit code.
 */
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../../context';
import type { RpcResponse, WsConn } from '../../connection';
import { S, errorOf, rateLimitError, FINDING_MAX } from '../util';
import { getRateLimits, inOneWindow, missingBudget, type Budget, type Measured } from '../ratelimit/budget';
import { endpoints, rateLimited, show, spend, walletOnAll, type Named } from './common';

/** A window about to turn is waited out first, so the measurement fits in one window. */
const TURN_MARGIN_MS = 1500;

/** The first reading on A in a window with time to spare (a refusal waited out as hinted), and when it was taken. */
async function startReading(ctx: Ctx, conn: WsConn): Promise<{ at: number; nm: Budget }> {
  for (let attempt = 0; ; attempt++) {
    const at = Date.now();
    const r = await ctx.call(conn, getRateLimits.name, {});
    if (errorOf(r))
      ctx.inconclusive(`getRateLimits on A was refused (${cut(r.error, 200)}): the budget could not be read`);
    const nm = (r.result as { remaining_non_matching?: Budget } | undefined)?.remaining_non_matching;
    if (!nm) missingBudget(ctx);
    if (nm.msBeforeNext >= TURN_MARGIN_MS || nm.consumedPoints <= 1 || attempt > 0) return { at, nm };
    ctx.note(`A's window turns in ${nm.msBeforeNext} ms: waiting for the next one`);
    await ctx.sleep(nm.msBeforeNext + 150);
  }
}

/** Spend `n` points on an endpoint; ends the check inconclusive when a request got no answer. */
async function spendOn(ctx: Ctx, conn: WsConn, e: Named, n: number): Promise<number> {
  const answers = await spend(conn, n, `spend-${e.name}`);
  if (answers.some((a) => a === null))
    ctx.inconclusive(`a request of the ${n} spent on ${e.name} got no answer within 3000 ms`);
  const refused = answers.findIndex((a) => rateLimited(a));
  ctx.note(`spent ${n} on ${e.name}${refused >= 0 ? `; refused from request ${refused + 1}` : ''}`);
  return refused;
}

/** B's reading after A spent (its count, judged once the measurement is known to lie in one window). */
async function readOnB(ctx: Ctx, b: WsConn, start: Budget, spentOnA: number): Promise<Budget> {
  const r = await ctx.call(b, getRateLimits.name, {}, { retryRateLimited: false });
  const nm = (r.result as { remaining_non_matching?: Budget } | undefined)?.remaining_non_matching;
  if (errorOf(r) || !nm)
    ctx.inconclusive(
      `getRateLimits on B was refused (${cut(r.error ?? r.result, 200)}) while ` +
        `A reported ${start.remainingPoints - spentOnA} points left`,
    );
  return nm;
}

/** What one measurement saw. */
interface Seen {
  start: Budget;
  part: number;
  onB: Budget;
  left: number;
  refusedAt: number;
  over: RpcResponse | null;
}

/** B counted what A spent. */
function judgeCount(ctx: Ctx, x: Seen): void {
  const expected = x.start.consumedPoints + x.part + 1;
  if (x.onB.consumedPoints >= expected) return;
  ctx.fail({
    pointer: '/result/remaining_non_matching/consumedPoints',
    rule: 'one budget per wallet, shared by all its connections (on every endpoint of the deployment)',
    expected:
      `B counts at least ${expected} (A's first reading ${x.start.consumedPoints}` +
      `, ${x.part} spent on A, this reading)`,
    got: `A: ${show(x.start)} before spending ${x.part}; B: ${show(x.onB)}`,
    message:
      `B's budget did not count the ${x.part} requests the wallet spent on A (B: ` +
      `consumedPoints ${x.onB.consumedPoints})`,
  });
}

/** B refused the request past the shared budget with the rate-limit code. */
function judgeRefusal(ctx: Ctx, x: Seen): void {
  const spent = `${x.part} spent on A (of ${x.start.remainingPoints} A reported left), then ${x.left} on B`;
  if (x.refusedAt >= 0 || rateLimited(x.over)) {
    const which = x.refusedAt >= 0 ? `request ${x.refusedAt + 1} of them` : 'the next';
    ctx.note(`${spent}: B refused ${which} with ${rateLimitError.code}`);
    return;
  }
  const e = x.over && errorOf(x.over);
  const served = (x.over?.result as { remaining_non_matching?: Budget } | undefined)?.remaining_non_matching;
  ctx.fail({
    pointer: e ? '/error/code' : '/result/remaining_non_matching',
    rule: `a request past the wallet's budget is refused with ${rateLimitError.code}, whichever endpoint it reaches`,
    expected: `B refuses the request past the shared budget (${spent}) with ${rateLimitError.code}`,
    got: e
      ? `B refused it with ${cut(e, FINDING_MAX)}`
      : `B served it: ${show(served)} (B's reading after A spent: ${show(x.onB)})`,
    message: e
      ? 'B refused the request past the shared budget with another code'
      : "B served a request past the wallet's budget: it counts on its own, not for the deployment",
  });
}

/** One measurement: spend part on A, read on B, spend the rest on B, then one more on B must be refused. */
async function measure(ctx: Ctx, conns: WsConn[], all: Named[]): Promise<Measured> {
  const [a, b] = conns as [WsConn, WsConn];
  const { at, nm: start } = await startReading(ctx, a);
  const endsAt = at + (start.msBeforeNext > 0 ? start.msBeforeNext : Infinity);
  const part = Math.floor(start.remainingPoints / 2);
  if ((await spendOn(ctx, a, all[0]!, part)) >= 0)
    ctx.inconclusive(`A refused a request within the ${start.remainingPoints} points it reported left`);
  const onB = await readOnB(ctx, b, start, part);
  const left = Math.max(0, start.remainingPoints - part - 1);
  const refusedAt = await spendOn(ctx, b, all[1]!, left);
  const over = refusedAt >= 0 ? null : await ctx.call(b, getRateLimits.name, {}, { retryRateLimited: false });
  if (Date.now() >= endsAt) return 'turned';
  const seen: Seen = { start, part, onB, left, refusedAt, over };
  judgeCount(ctx, seen);
  judgeRefusal(ctx, seen);
  return 'done';
}

/** The deployment check of the wallet budget. */
export const budgetChecks: Check[] = [
  {
    id: 'deployment.wallet-budget',
    title: "One wallet's request budget is shared across the endpoints: spent on A and B, refused once spent",
    section:
      `${S.tier1} (all connections and session keys of one wallet share one budget); ` +
      `${S.errors} (${rateLimitError.code})`,
    level: 'MUST',
    needs: ['endpoints', 'key'],
    async run(ctx) {
      const all = endpoints(ctx);
      const w = await walletOnAll(ctx);
      await inOneWindow(ctx, 'spending one budget on A and B', () => measure(ctx, w.conns, all));
    },
  },
];

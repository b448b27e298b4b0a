/**
 * Connections: the per-IP concurrent WebSocket budget. The only place the runner opens more than the
 * budget: it waits until its other connections are closed, fills the budget, and opens one more.
 */
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../context';
import { OpenTimeout, type WsConn } from '../connection';
import { S, connectionLimitError, method } from './util';
import { admittedWithin } from './admitted';

export const connectionChecks: Check[] = [
  {
    id: 'connections.limit',
    title:
      `One connection over the per-IP budget gets the ${connectionLimitError.textFramePrefix}` +
      ` text frame, the close and ${connectionLimitError.code}`,
    section: `${S.errors} (${connectionLimitError.code}); ${S.reference} (concurrent WebSocket clients per IP)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      if (!(await ctx.run.guard.idle())) ctx.inconclusive('other connections of the runner did not close in time');
      const budget = ctx.env.connectionBudget;
      ctx.note(
        `connection budget ${budget} (` +
          (ctx.env.connectionBudgetSource === 'server'
            ? 'from remaining_connections'
            : 'reference value: the server did not report remaining_connections') +
          ')',
      );
      const held: WsConn[] = [];
      try {
        await fillBudget(ctx, budget, held);
        const extra = await openOverBudget(ctx);
        await judgeRefusal(ctx, extra, held[0]);
        await extra.close();
      } finally {
        await Promise.all(held.map((c) => c.close()));
      }
    },
  },
];

/**
 * Open `budget` connections into `held` (the caller closes them), each proven admitted by a round trip
 * (admitted.ts). One refused within the budget again and again, the count settled each time, fails.
 */
async function fillBudget(ctx: Ctx, budget: number, held: WsConn[]): Promise<void> {
  for (let i = 0; i < budget; i++) {
    const label = `within-budget#${i + 1}`;
    const refusedWithin = async (conn: WsConn) =>
      ctx.abort({
        rule: 'connections up to the budget are accepted',
        expected: 'open, and answering',
        got:
          `refused${conn.closeInfo ? ` (close ${conn.closeInfo.code})` : ''} with ${i}` +
          ` other connections of the runner open`,
        message: `${label} was refused although within the budget`,
      });
    held.push(await admittedWithin(ctx, () => openWithin(ctx, label, budget, i), held[0], held.length, refusedWithin));
  }
}

/** One connection within the budget; a failed upgrade ends the check (inconclusive when only late). */
async function openWithin(ctx: Ctx, label: string, budget: number, i: number): Promise<WsConn> {
  try {
    return await ctx.connectUnguarded(label);
  } catch (err) {
    if (err instanceof OpenTimeout) ctx.inconclusive(`${err.message}: a late handshake is no evidence either way`);
    return ctx.abort({
      rule: 'connections up to the budget are accepted',
      expected: `${budget} open connections`,
      got: `connection ${i + 1} failed: ${(err as Error).message}`,
      message: `only ${i} connections could be opened`,
    });
  }
}

/** The connection over the budget: its upgrade must succeed, for the refusal comes after it. */
async function openOverBudget(ctx: Ctx): Promise<WsConn> {
  try {
    return await ctx.connectUnguarded('over-budget');
  } catch (err) {
    if (err instanceof OpenTimeout) ctx.inconclusive(`${err.message}: a late handshake is no evidence either way`);
    return ctx.abort({
      rule: `the socket receives a text frame beginning ${connectionLimitError.textFramePrefix} and is then closed`,
      expected: 'the upgrade, then the text frame and the close',
      got: (err as Error).message,
      message: 'the connection over the budget was refused at the upgrade',
    });
  }
}

/** Whether the server answers a request on `control` (paced): it is at work, not merely slow. */
async function answers(ctx: Ctx, control: WsConn | undefined): Promise<boolean> {
  if (!control) return false;
  await ctx.run.pacer.take();
  ctx.throwIfStopped();
  const r = await control.request(method('publicGetRateLimits'), {}, { timeoutMs: 5000 });
  return r !== null;
}

/**
 * The refusal on the connection over the budget: the text frame, then the close, with the code in one of
 * them. A socket still open after the window is judged only once the server has answered a request sent
 * after it on `control` (a connection within the budget): a slow server is not judged by the clock.
 */
async function judgeRefusal(ctx: Ctx, extra: WsConn, control: WsConn | undefined): Promise<void> {
  const prefix = connectionLimitError.textFramePrefix;
  const isRefusal = (f: { text: string }) => f.text.startsWith(prefix);
  let text = await extra.waitFor(isRefusal, 3000);
  let close = await Promise.race([extra.closed, ctx.sleep(3000).then(() => null)]);
  // A close ends the refusal: whatever came before it is all there will be. An open socket may be late.
  if (!close && !(await answers(ctx, control)))
    ctx.inconclusive(
      `within 3000 ms the connection over the budget got ${text ? 'the text frame but no close' : 'no text frame'}` +
        `, and the server answered no request since: it may only be slow`,
    );
  text ??= extra.frames.find(isRefusal) ?? null;
  close ??= extra.closeInfo;
  if (!text)
    ctx.fail({
      rule: `a text frame beginning ${prefix}`,
      expected: `${prefix}…`,
      got: extra.frames.first() ? cut(extra.frames.first()!.text, 100) : 'no frame',
      message: `no ${prefix} frame on the connection over the budget`,
    });
  if (!close)
    ctx.fail({
      rule: 'the socket is then closed',
      expected: 'a close, before the server answers a later request on another connection',
      got: 'still open after 3000 ms and that answer',
      message: 'the connection over the budget stayed open',
    });
  const code = connectionLimitError.code;
  const frames = extra.frames.map((f) => f.text);
  const carriedBy = carrier(frames, close?.reason ?? '', code);
  if (!carriedBy)
    ctx.fail({
      rule: `code ${code}`,
      expected: `${code} in a frame or the close reason`,
      got: cut(frames, 200),
      message: `the refusal did not carry ${code}`,
    });
  else ctx.observe({ text: `${code} came ${carriedBy}` });
  if (text && close && text.t > close.t)
    ctx.fail({
      rule: 'the text frame comes before the close',
      expected: 'frame, then close',
      got: 'close first',
      message: 'closed before the text frame',
    });
}

/**
 * Where the refusal carried `code`, or null when nowhere. Where it travels is not shown: an error
 * frame, the text frame, or the close reason all count.
 */
function carrier(frames: string[], closeReason: string, code: number): string | null {
  const isErrorFrame = (t: string) => {
    try {
      return (JSON.parse(t) as { error?: { code?: unknown } }).error?.code === code;
    } catch {
      return false;
    }
  };
  const inFrame = frames.some((t) => t.includes(String(code)));
  if (!inFrame && !closeReason.includes(String(code))) return null;
  if (frames.some(isErrorFrame)) return 'as a JSON-RPC error frame';
  return inFrame ? 'inside the text frame' : 'in the close reason';
}

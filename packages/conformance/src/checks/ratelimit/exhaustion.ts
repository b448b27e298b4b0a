/**
 * Exceeding the non-matching budget: spent once per run by a shared probe (one burst of getRateLimits
 * past the budget, then the wait the server hints), read by four checks: the code and message, the hint,
 * the refusal at once, and the window reset.
 */
import { randomUUID } from 'node:crypto';
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../../context';
import { retryAfterMs, isRetryHint } from '../../retry-hint';
import { S, errorOf, rateLimitError, FINDING_MAX } from '../util';
import { getRateLimits, limits, type Limits } from './budget';
import { budgetConnection, burst, type BurstAnswer } from './probes';

/** A window about to turn is waited out first, so that the burst fits in one window even when it is slow. */
const TURN_MARGIN_MS = 1500;

/** Whether the budget's window turned during the burst: the points left went up from one answer to the next. */
function turnedDuringBurst(answers: readonly BurstAnswer[]): boolean {
  const left = answers
    .map((a) => (a.response?.result as Limits | undefined)?.remaining_non_matching?.remainingPoints)
    .filter((n): n is number => typeof n === 'number');
  return left.some((n, i) => i > 0 && n > left[i - 1]!);
}

/** The longest wait for a window to turn the probe accepts. */
const MAX_WAIT_MS = 15_000;

/** Exhaust the non-matching budget once per run; four checks read the outcome. */
function exhaustion(ctx: Ctx) {
  return ctx.shared('exhaust-non-matching', async (p) => {
    const { conn, keyed } = await budgetConnection(p, { needWallet: false });
    let before = await limits(p, conn);
    const turnsIn = before.remaining_non_matching?.msBeforeNext;
    if (typeof turnsIn === 'number' && turnsIn < TURN_MARGIN_MS) {
      await p.sleep(turnsIn + 150);
      before = await limits(p, conn);
    }
    const remaining = before.remaining_non_matching?.remainingPoints;
    if (typeof remaining !== 'number')
      return { keyed, before, error: 'getRateLimits gave no remaining_non_matching.remainingPoints' } as const;
    const { answers } = await burst(conn, remaining + 1, async () => {
      const id = `rl-${randomUUID()}`;
      conn.send({ jsonrpc: '2.0', id, method: getRateLimits.name, params: {} });
      return id;
    });
    const firstRefusal = answers.findIndex((a) => a.response && errorOf(a.response));
    const refusal = firstRefusal >= 0 ? answers[firstRefusal]! : null;
    const hint = refusal ? retryAfterMs(errorOf(refusal.response!)!.data) : null;
    // Wait out the window as the server says (hint, else msBeforeNext read before), then ask again.
    const wait = Math.min(hint ?? before.remaining_non_matching.msBeforeNext ?? 0, MAX_WAIT_MS);
    await p.sleep(wait + 150);
    const after = await p.call(conn, getRateLimits.name, {}, { pace: false, retryRateLimited: false });
    p.run.pacer.reset();
    return { keyed, before, remaining, answers, firstRefusal, refusal, hint, wait, after, error: null } as const;
  });
}

/** The exhaustion probe for a check: its transcript attached; the check fails when the budget could not be read. */
async function exhausted(ctx: Ctx) {
  const x = await exhaustion(ctx);
  ctx.transcript.attach(x.transcript.entries);
  ctx.note(`budget under test: ${x.keyed}`);
  if (x.error !== null)
    ctx.abort({
      pointer: '/result/remaining_non_matching',
      rule: 'getRateLimits budget object',
      expected: 'remainingPoints',
      got: 'missing',
      message: x.error,
    });
  return x;
}

/** The checks that read the exhaustion probe, in run order. */
export const exhaustionChecks: Check[] = [
  {
    id: 'ratelimit.exceeded',
    title: `Exceeding the budget gives ${rateLimitError.code} "${rateLimitError.message}"`,
    section: `${S.errors}; ${S.tier1}`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const x = await exhausted(ctx);
      const last = x.answers.at(-1)!;
      if (!x.refusal && !last.response)
        return ctx.inconclusive(
          `request ${x.remaining + 1} got no answer within 3000 ms: a late answer is no evidence`,
        );
      if (!x.refusal && turnedDuringBurst(x.answers))
        return ctx.inconclusive('the window turned during the burst (the points left went up), so it was never spent');
      if (!x.refusal) {
        return ctx.abort({
          pointer: '/result',
          rule: 'a request that exceeds the budget is rejected',
          expected: `error ${rateLimitError.code}`,
          got: last.response ? cut(last.response.result ?? last.response, FINDING_MAX) : 'no answer',
          message: `request ${x.remaining + 1} of a budget of ${x.remaining} was not refused`,
        });
      }
      if (x.firstRefusal < x.remaining)
        ctx.fail({
          rule: 'the budget reported by getRateLimits is honoured',
          expected: `refusals only after ${x.remaining} requests`,
          got: `refused at request ${x.firstRefusal + 1}`,
          message: `refused before the reported budget was spent`,
        });
      const e = errorOf(x.refusal.response!)!;
      if (e.code !== rateLimitError.code)
        ctx.fail({
          pointer: '/error/code',
          rule: 'rate limits answer with their documented code',
          expected: String(rateLimitError.code),
          got: cut(e.code, FINDING_MAX),
          message: `rate-limit code ${cut(e.code, FINDING_MAX)}`,
        });
      if (e.message !== rateLimitError.message)
        ctx.fail({
          pointer: '/error/message',
          rule: 'rate limits answer with their documented message',
          expected: rateLimitError.message,
          got: cut(e.message, FINDING_MAX),
          message: `rate-limit message ${cut(e.message, FINDING_MAX)}`,
        });
    },
  },
  {
    id: 'ratelimit.retry-hint',
    title: `The rate-limit error carries data "${rateLimitError.data}"`,
    section: S.errors,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const x = await exhausted(ctx);
      if (!x.refusal) return ctx.inconclusive('no rate-limit error came back (see ratelimit.exceeded)');
      const e = errorOf(x.refusal.response!)!;
      if (!isRetryHint(e.data))
        ctx.fail({
          pointer: '/error/data',
          rule: `data matches ${rateLimitError.dataPattern}`,
          expected: rateLimitError.data,
          got: cut(e.data, FINDING_MAX),
          message: `hint ${cut(e.data, FINDING_MAX)} is not of the documented form`,
        });
      else if (x.hint === 0 && x.remaining > 0)
        ctx.fail({
          pointer: '/error/data',
          rule: 'the hint is the time until a request is allowed',
          expected: 'more than 0 ms while refusing',
          got: String(e.data),
          message: 'the hint says retry at once while refusing',
        });
    },
  },
  {
    id: 'ratelimit.not-queued',
    title: 'A request over the budget is rejected at once, not queued',
    section: `${S.errors} (nothing rejected by a limit is queued); Limits (rejected, never queued)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const x = await exhausted(ctx);
      const last = x.answers.at(-1)!;
      // Silence is no evidence of queueing here: on a loaded machine the answer may only be late.
      if (!last.response) return ctx.inconclusive('the request over the budget got no answer within 3000 ms');
      if (!errorOf(last.response))
        ctx.abort({
          pointer: '/result',
          rule: 'rejected, never queued',
          expected: `error ${rateLimitError.code}`,
          got: cut(last.response.result, FINDING_MAX),
          message: 'the request over the budget was served',
        });
      // Measured against the answers served in the same burst, not the clock alone: on a loaded machine
      // every answer is late, and only a refusal far behind the others shows it was held back.
      const served = Math.max(0, ...x.answers.slice(0, -1).map((a) => a.latencyMs));
      if (last.latencyMs - served > 1500)
        ctx.fail({
          rule: 'rejected at once',
          expected: 'an answer within 1500 ms of the answers served before it',
          got: `${last.latencyMs} ms, the slowest served answer ${served} ms`,
          message: `the refusal came ${last.latencyMs - served} ms after the served answers`,
        });
    },
  },
  {
    id: 'ratelimit.window-reset',
    title: 'After the hinted wait, the budget allows requests again',
    section: `${S.tier1} (fixed windows; the window resets when it elapses)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const x = await exhausted(ctx);
      if (!x.refusal) return ctx.inconclusive('the budget was never exhausted (see ratelimit.exceeded)');
      ctx.note(`waited ${x.wait} ms (+150 ms) as told`);
      const e = errorOf(x.after);
      if (e)
        ctx.fail({
          pointer: '/error',
          rule: 'the window resets after msBeforeNext',
          expected: 'a result',
          got: cut(e, FINDING_MAX),
          message: `still refused ${x.wait + 150} ms later`,
        });
      else {
        const b = (x.after.result as Limits).remaining_non_matching;
        if (b && b.isFirstInDuration !== true && b.consumedPoints > 1)
          ctx.fail({
            pointer: '/result/remaining_non_matching',
            rule: 'a new window starts',
            expected: 'isFirstInDuration true or consumedPoints 1',
            got: cut(b, FINDING_MAX),
            message: 'the window did not restart',
          });
      }
    },
  },
];

/**
 * The matching budget: spent once per run by a shared probe (a fresh wallet's matching budget, with
 * cancels of orders that do not exist spread over the methods and instruments), read by three checks:
 * one shared matching budget, cancel_all's own budget, and cancel_by_label's two budgets.
 */
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../../context';
import { retryAfterMs } from '../../retry-hint';
import { S, errorOf, rateLimitError, FINDING_MAX } from '../util';
import {
  cancelAll,
  cancelByLabel,
  cancelFields,
  getRateLimits,
  isRateLimited,
  labelRule,
  limits,
  matchingCancels,
  NO_LABEL,
  turned,
  undecremented,
  type Limits,
} from './budget';
import { budgetConnection, reportUnanswered, signedSender, type Unanswered } from './probes';
import type { RpcResponse } from '../../connection';

/** One matching-class request of the probes, where it went and what came back. */
interface Sent {
  method: string;
  instrument: string;
  response: RpcResponse | null;
  at: number;
}

/** Why the probe needs two instruments. */
const WHY_TWO = 'in one instrument the matching budget and the instrument bucket cannot be told apart';

/**
 * Spend the matching budget of a fresh wallet once per run. First cancel_by_label's accounting (one
 * instrument, then across instruments, getRateLimits around each); then the rest of the budget with
 * matching cancels of orders that do not exist, spread over the methods and over every instrument but
 * one, and one more request in that untouched instrument: its bucket is full, so only the shared
 * matching budget can refuse it. Then, with the budget spent: cancel_all and cancel_by_label both ways.
 */
export function matchingProbe(ctx: Ctx) {
  return ctx.shared('exhaust-matching', async (p) => {
    const { conn, signer, subaccount, keyed } = await budgetConnection(p, { needWallet: true });
    p.note(`budget under test: ${keyed}`);
    const names = [...new Set(p.env.instruments.map((i) => i.instrument_name))];
    if (names.length < 2)
      return {
        unavailable: `needs two instruments or more from ${undecremented.name} (got ${names.length}): ${WHY_TWO}`,
      } as const;
    const unanswered: Unanswered[] = [];
    const send = signedSender(p, conn, signer!, subaccount ?? 0, unanswered);
    const fresh = names.at(-1)!;
    const spread = names.slice(0, -1);
    const label0 = await limits(p, conn);
    const tFirst = Date.now();
    const one = await send(cancelByLabel.name, { label: NO_LABEL, instrument_name: spread[0]! });
    const label1 = await limits(p, conn);
    const all = await send(cancelByLabel.name, { label: NO_LABEL });
    const before = await limits(p, conn);
    const remaining = before.remaining_matching?.remainingPoints;
    if (typeof remaining !== 'number')
      return { unavailable: 'getRateLimits gave no remaining_matching.remainingPoints' } as const;
    const probes: Sent[] = [];
    for (let i = 0; i <= remaining; i++) {
      const name = matchingCancels[i % matchingCancels.length]!.name;
      const instrument = i < remaining ? spread[i % spread.length]! : fresh;
      probes.push({
        method: name,
        instrument,
        response: await send(name, cancelFields(name, instrument)),
        at: Date.now(),
      });
    }
    const firstRefusal = probes.findIndex((x) => isRateLimited(x.response));
    const refusal = firstRefusal >= 0 ? probes[firstRefusal]! : null;
    const hint = refusal ? retryAfterMs(errorOf(refusal.response!)!.data) : null;
    const cancelAllResponse = await send(cancelAll.name, {});
    const oneSpent = await send(cancelByLabel.name, { label: NO_LABEL, instrument_name: fresh });
    const allSpent = await send(cancelByLabel.name, { label: NO_LABEL });
    const after = (await p.call(conn, getRateLimits.name, {}, { retryRateLimited: false })).result as
      Limits | undefined;
    return {
      unavailable: null,
      signer: signer!,
      spread,
      fresh,
      before,
      remaining,
      probes,
      firstRefusal,
      // When the matching window resets (the refusal's hint), and how long a window is (from its first request).
      resetAt: refusal && hint !== null ? refusal.at + hint : null,
      windowMs: refusal && hint !== null ? refusal.at + hint - tFirst : null,
      cancelAll: cancelAllResponse,
      label: { before: label0, one, mid: label1, all, after: before, oneSpent, allSpent },
      after,
      unanswered,
    } as const;
  });
}

/**
 * The matching probe for a check: its transcript attached, its requests of `methods` that got no answer
 * reported as failures (no answer is not evidence), inconclusive when it could not run.
 */
async function matching(ctx: Ctx, methods: readonly string[]) {
  const x = await matchingProbe(ctx);
  ctx.transcript.attach(x.transcript.entries);
  if (x.unavailable !== null) return ctx.inconclusive(x.unavailable);
  reportUnanswered(
    ctx,
    x.unanswered.filter((u) => methods.includes(u.method)),
  );
  return x;
}

/** The checks that read the matching probe, in run order. */
export const matchingChecks: Check[] = [
  {
    id: 'ratelimit.matching-shared',
    title: 'The matching methods share one budget',
    section: `${S.tier1} (matching: one shared per-wallet budget); ${S.errors} (rule 2)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await matching(
        ctx,
        matchingCancels.map((m) => m.name),
      );
      const at = (i: number) => `request ${i + 1} (${x.probes[i]!.method} in ${x.probes[i]!.instrument})`;
      ctx.note(
        `${x.remaining} requests spread over ${x.spread.join(', ')} and ` +
          matchingCancels.map((m) => m.name).join(', ') +
          `; request ${x.remaining + 1} in ${x.fresh}, untouched before, so its bucket ` +
          `cannot refuse it`,
      );
      if (x.firstRefusal !== x.remaining)
        ctx.fail({
          rule: 'one shared matching budget',
          expected:
            `refusal of request ${x.remaining + 1} exactly (in ${x.fresh}, whose bucket ` +
            `is full: only the shared budget can refuse it)`,
          got: x.firstRefusal < 0 ? `no refusal in ${x.probes.length} requests` : `refusal at ${at(x.firstRefusal)}`,
          message:
            x.firstRefusal < 0
              ? `${x.probes.length} matching requests spread over ${matchingCancels.length}` +
                ` methods passed a shared budget of ${x.remaining}`
              : `refused at ${at(x.firstRefusal)}, not after ${x.remaining}`,
        });
      const e = x.firstRefusal >= 0 ? errorOf(x.probes[x.firstRefusal]!.response!) : null;
      if (e && e.code !== rateLimitError.code)
        ctx.fail({
          pointer: '/error/code',
          rule: 'rate limits answer with their documented code',
          expected: String(rateLimitError.code),
          got: cut(e.code, FINDING_MAX),
          message: 'wrong code for the matching budget',
        });
    },
  },
  {
    id: 'ratelimit.cancel-all-budget',
    title: `${cancelAll.name} has its own budget: served when the matching budget is spent`,
    section: `${S.tier1} (endpoint: ${cancelAll.name}, its own per-(wallet, method) budget)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await matching(ctx, [cancelAll.name]);
      if (x.firstRefusal < 0)
        ctx.inconclusive('the matching budget was never exhausted (see ratelimit.matching-shared)');
      const e = x.cancelAll && errorOf(x.cancelAll);
      if (e?.code === rateLimitError.code)
        ctx.fail({
          pointer: '/error',
          rule: `${cancelAll.name} has its own budget`,
          expected: 'served',
          got: cut(e, FINDING_MAX),
          message: `${cancelAll.name} was refused by the spent matching budget`,
        });
      const before = x.before.remaining_per_endpoint?.[cancelAll.rateLimitKey];
      const after = x.after?.remaining_per_endpoint?.[cancelAll.rateLimitKey];
      if (before && after && after.consumedPoints !== before.consumedPoints + 1 && !after.isFirstInDuration)
        ctx.fail({
          pointer: `/result/remaining_per_endpoint/${cancelAll.rateLimitKey}/consumedPoints`,
          rule: `${cancelAll.name} decrements its own budget`,
          expected: String(before.consumedPoints + 1),
          got: String(after.consumedPoints),
          message: `${cancelAll.name} did not count against its own budget`,
        });
    },
  },
  {
    id: 'ratelimit.cancel-by-label-budget',
    title: `${cancelByLabel.name} draws on the matching budget when limited to one instrument, otherwise on its own`,
    section:
      `${S.tier1} (custom: ${cancelByLabel.name} uses the matching budget when ` +
      `limited to a single instrument, otherwise a dedicated per-method budget)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await matching(ctx, [cancelByLabel.name]);
      const l = x.label;
      const m0 = l.before.remaining_matching;
      const m1 = l.mid.remaining_matching;
      const m2 = l.after.remaining_matching;
      // Accounting: one instrument costs a matching point; across instruments it costs none.
      if (m0 && m1 && !turned(m0, m1) && m1.consumedPoints !== m0.consumedPoints + 1)
        ctx.fail({
          pointer: '/result/remaining_matching/consumedPoints',
          rule: `${cancelByLabel.name} limited to one instrument uses the ${labelRule.singleInstrument} budget`,
          expected: String(m0.consumedPoints + 1),
          got: String(m1.consumedPoints),
          message: `${cancelByLabel.name} with instrument_name did not count against the matching budget`,
        });
      if (m1 && m2 && !turned(m1, m2) && m2.consumedPoints !== m1.consumedPoints)
        ctx.fail({
          pointer: '/result/remaining_matching/consumedPoints',
          rule: `${cancelByLabel.name} across instruments uses its own budget`,
          expected: String(m1.consumedPoints),
          got: String(m2.consumedPoints),
          message: `${cancelByLabel.name} without instrument_name counted against the matching budget`,
        });
      const own0 = l.mid.remaining_per_endpoint?.[cancelByLabel.rateLimitKey];
      const own1 = l.after.remaining_per_endpoint?.[cancelByLabel.rateLimitKey];
      if (own0 && own1)
        ctx.observe({
          text:
            `remaining_per_endpoint.${cancelByLabel.rateLimitKey} consumedPoints ${own0.consumedPoints}` +
            ` → ${own1.consumedPoints} across instruments`,
          conforms: own1.consumedPoints === own0.consumedPoints + 1 || own1.isFirstInDuration,
        });
      else
        ctx.observe({
          text:
            `getRateLimits lists no remaining_per_endpoint.${cancelByLabel.rateLimitKey}` +
            ` (the document names only cancel_all as an example)`,
        });
      // Behaviour with the matching budget spent.
      if (x.firstRefusal < 0)
        return ctx.inconclusive('the matching budget was never exhausted (see ratelimit.matching-shared)');
      if (!isRateLimited(l.oneSpent))
        ctx.fail({
          pointer: '/result',
          rule: `${cancelByLabel.name} limited to one instrument uses the matching budget`,
          expected: `error ${rateLimitError.code} (the matching budget is spent)`,
          got: cut(l.oneSpent ? (l.oneSpent.error ?? l.oneSpent.result) : 'no answer', FINDING_MAX),
          message: `${cancelByLabel.name} in ${x.fresh} was served although the matching budget was spent`,
        });
      if (isRateLimited(l.allSpent))
        ctx.fail({
          pointer: '/error',
          rule: `${cancelByLabel.name} across instruments uses its own budget`,
          expected: 'served (its own budget has points)',
          got: cut(l.allSpent?.error, FINDING_MAX),
          message: `${cancelByLabel.name} without instrument_name was refused by the spent matching budget`,
        });
    },
  },
];

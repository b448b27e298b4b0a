/**
 * A failing valid input shrunk (generate/shrink.ts's greedy search: members dropped, leaves made smaller
 * by fast-check's shrinkers), each smaller input still valid against its message's schema and sent again;
 * the smallest that fails by the same rule is what the replay file records, the original beside it.
 */
import { shrinkSearch } from '../generate/shrink';
import { toJson } from '../generate/schema-set';
import { request, type Exchanged } from './exchange';
import type { MsgEnv } from './env';
import type { OpCase } from './op-cases';
import type { WireOperationShape } from './wire-shape';
import type { ReplayCall } from '../generate/replay-file';

const callOf = (params: unknown, ex: Exchanged): ReplayCall => ({
  params: toJson(params),
  sent: ex.sent,
  received: ex.received,
  verdict: ex.verdict,
});

/** Shrink one failure (requests only: a close after a message without a reply is not one input's) and record it. */
export async function shrinkOp(env: MsgEnv, op: WireOperationShape, c: OpCase, ex: Exchanged): Promise<void> {
  if (!env.o.onFailure) return;
  const schema = env.spec.payload(c.message);
  const found =
    op.reply && env.o.shrinkCalls > 0
      ? await shrinkSearch(c.params, ex.verdict, {
          // Each try of a reply that does not come waits out the whole bound: a few tries only.
          calls: ex.verdict.ruleId === 'messages.reply-conforms' ? env.o.shrinkCalls : Math.min(env.o.shrinkCalls, 6),
          deadline: env.o.deadline,
          qualifies: (candidate) => env.schemas.valid(schema, candidate),
          send: async (candidate) => {
            const tried = await request(env, op, candidate);
            return { verdict: tried.verdict, call: callOf(candidate, tried) };
          },
        })
      : null;
  const original = callOf(c.params, ex);
  env.o.onFailure({
    op,
    c,
    call: found ? found.call : original,
    ...(found ? { original } : {}),
    shrinkSteps: found?.steps ?? 0,
  });
}

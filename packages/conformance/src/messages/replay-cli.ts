/**
 * `--replay FILE --spec FILE --ws URL` for a failure of a message run: the recorded input sent again as
 * the run sent it (a fresh correlation value), judged by the same rule: FIXED (exit 0), STILL FAILING
 * (exit 1), or INCONCLUSIVE (exit 2: the server could not be reached, or it failed by another rule).
 */
import { readReplay } from '../generate/replay-file';
import { SchemaSet } from '../generate/schema-set';
import { Transcript } from '../transcript';
import { visible } from '../reporters/visible';
import { addressesOf, addressOfOp } from './addresses';
import { MsgEnv } from './env';
import { request } from './exchange';
import type { CliOptions } from '../cli-args';
import type { MsgSpec } from './wire-shape';

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

export async function runMessageReplayCli(p: CliOptions, spec: MsgSpec, io: Io): Promise<number> {
  let env: MsgEnv | null = null;
  try {
    const r = readReplay(p.replay!);
    const op = spec.wire.operations.find((o) => o.id === r.method && o.action === 'send');
    if (r.kind !== 'message' || !op?.reply)
      throw new Error(`the replay file ${p.replay} is not of a request of this spec (kind ${r.kind}, ${r.method})`);
    const replyMs = p.checkTimeoutMs ?? 5000;
    env = new MsgEnv(spec, SchemaSet.of(spec.doc), new Transcript(Date.now()), addressesOf(spec, p.ws), {
      replyMs,
      seed: r.seed,
      randomCases: 0,
      shrinkCalls: 0,
      deadline: Date.now() + replyMs * 2,
    });
    await env.socket(addressOfOp(env.addresses, op), 'main');
    const ex = await request(env, op, JSON.parse(r.call.params));
    const same = ex.verdict.status === 'fail' && ex.verdict.ruleId === r.call.verdict.ruleId;
    const word = ex.verdict.status !== 'fail' ? 'FIXED' : same ? 'STILL FAILING' : 'INCONCLUSIVE';
    io.out(visible(`${word}: ${op.id}, ${r.expect} input (${r.why}) ${ex.sent.slice(0, 200)}`));
    io.out(visible(`  ${ex.verdict.rule}: expected ${ex.verdict.expected}; got ${ex.verdict.got}`));
    return word === 'FIXED' ? 0 : same ? 1 : 2;
  } catch (err) {
    io.err(visible(`exchange-api conformance: ${(err as Error).message}`));
    return 2;
  } finally {
    await env?.close();
  }
}

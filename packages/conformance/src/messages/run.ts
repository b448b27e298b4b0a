/**
 * runMessages: `exchange-api conformance --spec FILE --ws URL` for a spec that speaks its own messages.
 * One connection per address first (what is pushed on connect is judged too); every send operation's
 * examples and generated inputs (send-target); then the sample window, after which what arrived is
 * judged per receive operation and per address (observe.ts). A run that checked nothing is no pass.
 */
import { UnreachableError } from '../discover';
import { Transcript } from '../transcript';
import { SchemaSet } from '../generate/schema-set';
import { matches } from '../select';
import { addressesOf } from './addresses';
import { MsgEnv, type MsgFailure } from './env';
import { runSendOp, type OpOutcome } from './op-target';
import { addressCheck, receiveCheck, type Observed } from './observe';
import { reportOf } from './report';
import type { MsgSpec, WireOperationShape } from './wire-shape';
import type { CheckResult, Report, TargetCounts } from '../model';
import type { MessageRunOptions } from './options';

export type { MessageRunOptions, MessageProgress } from './options';

type Area = 'send' | 'receive' | 'address';

function resultOf(o: Observed, area: Area, t: Transcript, from: number): CheckResult {
  return {
    id: o.id,
    area,
    title: o.title,
    section: 'the AsyncAPI spec (--spec)',
    level: 'MUST',
    needs: [],
    status: o.status,
    ...(o.reason ? { reason: o.reason } : {}),
    durationMs: t.now() - from,
    findings: o.findings,
    observations: o.observations ?? [],
    transcript: t.finish(),
  };
}

/** Every check id of a message run of `spec` at `ws`, in order (what --only and --skip choose from). */
export function messageCheckIds(spec: MsgSpec, ws: string): string[] {
  const addresses = addressesOf(spec, ws);
  return [
    ...spec.wire.operations.filter((op) => op.action === 'send').map((op) => `messages.send.${op.id}`),
    ...addresses.flatMap((a) => a.receives.map((op) => `messages.receive.${op.id}`)),
    ...addresses.map((a) => `messages.address.${a.channels[0]}`),
  ];
}

/** The checks of a run, in order, with the ids --only and --skip choose from. */
function plan(env: MsgEnv, o: MessageRunOptions) {
  const chosen = (id: string) => (!o.only.length || matches(id, o.only)) && !(o.skip.length && matches(id, o.skip));
  const sends = env.spec.wire.operations.filter((op) => op.action === 'send' && chosen(`messages.send.${op.id}`));
  const receives = env.addresses.flatMap((a) => a.receives.map((op) => ({ a, op })));
  return {
    sends,
    receives: receives.filter((r) => chosen(`messages.receive.${r.op.id}`)),
    addresses: env.addresses.filter((a) => chosen(`messages.address.${a.channels[0]}`)),
  };
}

async function openAll(env: MsgEnv): Promise<void> {
  for (const a of env.addresses) {
    try {
      await env.socket(a, 'main');
    } catch (err) {
      await env.close();
      throw new UnreachableError((err as Error).message);
    }
  }
}

/** A send operation's outcome as a check: failed with findings, passed, or (nothing sent) inconclusive. */
function sendObserved(op: WireOperationShape, out: OpOutcome): Observed {
  const failed = out.findings.length > 0;
  const status = failed ? 'fail' : out.counts.pass > 0 ? 'pass' : 'inconclusive';
  const reason = failed
    ? `${out.counts.fail} of ${out.counts.pass + out.counts.fail} failed`
    : status === 'inconclusive'
      ? 'no input was sent'
      : undefined;
  return {
    id: `messages.send.${op.id}`,
    title: `${op.id}: ${op.reply ? 'each request gets its reply, correlated and valid' : 'each message is taken'}`,
    status,
    ...(reason ? { reason } : {}),
    findings: out.findings,
    counts: out.counts,
    observations: [
      {
        text:
          `${out.counts.valid} valid input${out.counts.valid === 1 ? '' : 's'} (examples and generated), ` +
          `${out.counts.invalid} invalid; ${out.counts.notRun} not sent`,
      },
    ],
  };
}

export async function runMessages(o: MessageRunOptions): Promise<Report> {
  const t0 = Date.now();
  const transcript = new Transcript(t0);
  const addresses = addressesOf(o.spec, o.ws);
  const env = new MsgEnv(o.spec, SchemaSet.of(o.spec.doc), transcript, addresses, {
    replyMs: o.replyMs,
    seed: o.seed,
    randomCases: o.randomCases,
    shrinkCalls: o.shrinkCalls,
    deadline: t0 + o.durationS * 1000,
    ...(o.onFailure ? { onFailure: (f: MsgFailure) => void o.onFailure!(f) } : {}),
  });
  const p = plan(env, o);
  const total = p.sends.length + p.receives.length + p.addresses.length;
  const guessed = addresses.flatMap((a) => a.guessed);
  o.onProgress?.({ type: 'started', checks: total, addresses: addresses.map((a) => a.url), guessed });
  await openAll(env);
  const results: CheckResult[] = [];
  const targets: TargetCounts[] = [];
  const done = (r: CheckResult, c: TargetCounts) => {
    results.push(r);
    targets.push(c);
    o.onProgress?.({ type: 'done', result: r, index: results.length - 1, total });
  };
  let interrupted: Report['interrupted'];
  try {
    for (const op of p.sends) {
      const from = transcript.now();
      env.transcript = new Transcript(t0);
      const out = await runSendOp(env, op);
      done(resultOf(sendObserved(op, out), 'send', env.transcript, from), out.counts);
    }
    const from = transcript.now();
    env.transcript = new Transcript(t0);
    // The connections' openings (and what was pushed on connect) belong to what the window judges.
    env.transcript.attach(transcript.entries);
    // Pushes are sampled over the window on the connections already open, after everything was sent.
    await new Promise((r) => setTimeout(r, o.sampleWindowMs));
    for (const { a, op } of p.receives) {
      const ob = receiveCheck(env.ledger(a), op);
      done(resultOf(ob, 'receive', env.transcript, from), ob.counts);
    }
    for (const a of p.addresses) {
      const ob = addressCheck(env.ledger(a));
      done(resultOf(ob, 'address', env.transcript, from), ob.counts);
    }
  } catch (err) {
    interrupted = {
      check: results.length < p.sends.length ? `messages.send.${p.sends[results.length]!.id}` : 'the sample window',
      reason: (err as Error).message,
    };
  } finally {
    await env.close();
  }
  return reportOf(o, t0, results, targets, interrupted);
}

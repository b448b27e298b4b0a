/**
 * One send operation as one check (`messages.send.<operation>`): its valid inputs sent on the address's
 * connection (each request's reply judged; each message without a reply judged by the connection staying
 * open), its invalid ones on a connection of their own; the first failure of each rule shrunk (with
 * --generate) and handed to the recorder. A request that got no reply (or no correlated one) stops the
 * operation's remaining valid inputs: each would wait out the bound again.
 */
import { opCases, type OpCase } from './op-cases';
import { post, request, type Exchanged } from './exchange';
import { judged } from './rules';
import { shrinkOp } from './op-shrink';
import { zeroCounts } from '../generate/counts';
import { ClassTally } from '../generate/coverage';
import type { MsgEnv } from './env';
import type { WireOperationShape } from './wire-shape';
import type { Finding, TargetCounts } from '../model';

/** How long a connection is watched after the last message without a reply, for a close it causes. */
const SETTLE_MAX_MS = 1000;

export interface OpOutcome {
  counts: TargetCounts;
  findings: Finding[];
}

const STOPPING = new Set(['messages.reply-within-bound', 'messages.reply-correlated', 'messages.connection-kept']);

async function sendValid(env: MsgEnv, op: WireOperationShape, c: OpCase): Promise<Exchanged> {
  if (op.reply) return request(env, op, c.params);
  const { sock, sent } = await post(env, op, c.params, 'main');
  const closed = await sock.closedWithin(0);
  const verdict = closed
    ? judged(
        'connection-kept',
        'fail',
        'the connection kept open',
        `it closed (code ${sock.closed!.code} ${sock.closed!.reason})`,
      )
    : judged('connection-kept', 'pass', 'the connection kept open', 'open');
  return { sent, received: [], verdict };
}

/** A message without a reply closing the connection shows only after it: watched for a short while. */
async function settle(env: MsgEnv, op: WireOperationShape, last: OpCase | null, o: OpOutcome): Promise<void> {
  if (op.reply || !last) return;
  const sock = await env.socket(
    env.addresses.find((a) => a.sends.includes(op))!,
    'main',
  );
  if (await sock.closedWithin(Math.min(env.o.replyMs, SETTLE_MAX_MS))) {
    o.counts.pass--;
    o.counts.fail++;
    o.findings.push(
      finding(
        op,
        last,
        judged('connection-kept', 'fail', 'the connection kept open', `it closed (code ${sock.closed!.code})`),
      ),
    );
  }
}

function finding(op: WireOperationShape, c: OpCase, v: Exchanged['verdict'], sent?: string): Finding {
  return {
    pointer: '/',
    ruleId: v.ruleId,
    rule: v.rule,
    expected: v.expected,
    got: v.got,
    message: `${op.id}: ${c.expect} input (${c.why})${sent ? ` sent as ${sent.slice(0, 200)}` : ''}`,
  };
}

/** Run every case of a send operation. */
export async function runSendOp(env: MsgEnv, op: WireOperationShape): Promise<OpOutcome> {
  const cases = opCases(env, op);
  const counts: TargetCounts = zeroCounts(`messages.send.${op.id}`, op.id, 'method', 'ws');
  const tally = new ClassTally();
  const o: OpOutcome = { counts, findings: [] };
  const shrunk = new Set<string>();
  let stopped = false;
  let last: OpCase | null = null;
  let notReached: string | undefined;
  for (const c of cases) {
    counts[c.expect === 'valid' ? 'valid' : 'invalid']++;
    const cls = c.cls ?? c.expect;
    tally.generated(cls);
    // Invalid inputs wait for nothing: they are still sent when requests stopped getting replies.
    if ((stopped && c.expect === 'valid') || Date.now() > env.o.deadline) {
      counts.notRun++;
      notReached ??=
        stopped && c.expect === 'valid'
          ? 'an earlier request got no reply (each would wait out the bound)'
          : 'the --duration passed';
      continue;
    }
    if (c.expect === 'invalid') {
      await post(env, op, c.params, 'scratch');
      counts.pass++;
      tally.ran(cls, 'pass');
      continue;
    }
    const ex = await sendValid(env, op, c);
    last = c;
    const status = ex.verdict.status === 'fail' ? 'fail' : 'pass';
    counts[status]++;
    tally.ran(cls, status);
    if (status === 'pass') continue;
    o.findings.push(finding(op, c, ex.verdict, ex.sent));
    if (!shrunk.has(ex.verdict.ruleId)) {
      shrunk.add(ex.verdict.ruleId);
      await shrinkOp(env, op, c, ex);
    }
    if (STOPPING.has(ex.verdict.ruleId)) stopped = true;
  }
  await settle(env, op, last, o);
  if (notReached) tally.notReached(notReached);
  counts.classes = tally.list();
  return o;
}

/**
 * One method on one transport: its generated cases sent in order, each judged; each failure shrunk to
 * the smallest input that still fails and written as a replay file. The outcome is one check result
 * (id `generated.<method>@<transport>`) and its counts.
 */
import { casesOf, type InputCase } from './cases';
import { shrinkFailure } from './shrink';
import { toJson } from './schema-set';
import { runCase, skipReason, type TargetEnv } from './target-env';
import type { Outcome } from './verdict';
import type { Exchange } from './session';
import type { ReplayCall } from './replay-file';
import type { GenMethod } from './spec';
import { zeroCounts } from './counts';
import { ClassTally } from './coverage';
import { proofCases } from './login-cases';
import { loginMethod } from './session';
import type { CheckResult, Finding, Judgement, Observation, TargetCounts, TranscriptEntry } from '../model';

const callOf = (c: InputCase, ex: Exchange, verdict: Judgement): ReplayCall => ({
  params: toJson(c.params),
  sent: ex.sent,
  received: ex.received,
  verdict,
});

/**
 * The reason a target is reported as not served: the server answered a valid input "method not found".
 * Such a method is counted and named among the skipped targets (neither a pass nor a failure), and its
 * remaining cases are not sent.
 */
export const NOT_SERVED = 'not served: a valid input was answered -32601 (method not found)';

/** Whether an answer is the JSON-RPC error -32601 (over WebSocket, or as an HTTP body). */
function methodNotFound(o: Outcome): boolean {
  const json = o.kind === 'response' || o.kind === 'http' ? o.json : undefined;
  const error = typeof json === 'object' && json !== null ? (json as { error?: unknown }).error : undefined;
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === -32601;
}

/** A case's coverage class (cases.ts sets it; a case made elsewhere is counted by its expectation). */
const classOf = (c: InputCase): string => c.cls ?? (c.expect === 'valid' ? 'valid edge' : 'invalid');

/** A should-level note on a case, as an observation. */
function noteOf(c: InputCase, verdict: Judgement): Observation {
  return {
    text:
      `should-level note (${c.expect} input ${c.why}): ${verdict.rule}; expected ` +
      `${verdict.expected}; got ${verdict.got}`,
  };
}

/**
 * A failed case as a finding and its transcript, written as a replay file. The first failure of each rule
 * (tracked in `shrunkRules`) is shrunk; later ones of the same rule are recorded as they came.
 */
async function recordFailure(
  env: TargetEnv,
  m: GenMethod,
  t: 'ws' | 'http',
  id: string,
  c: InputCase,
  ex: Exchange,
  verdict: Judgement,
  shrunkRules: Set<string>,
): Promise<{ finding: Finding; entries: TranscriptEntry[] }> {
  const shrunk = shrunkRules.has(verdict.ruleId) ? null : await shrinkFailure(env, m, t, c, verdict);
  shrunkRules.add(verdict.ruleId);
  const first = callOf(c, ex, verdict);
  const call = shrunk ? shrunk.call : first;
  const path = env.onFailure(m, t, c, call, shrunk ? first : undefined, shrunk?.steps ?? 0);
  const finding: Finding = {
    pointer: '/params',
    ruleId: verdict.ruleId,
    rule: verdict.rule,
    expected: verdict.expected,
    got: verdict.got,
    message:
      `${c.expect} input (${c.why}) ${call.params.length > 200 ? `${call.params.slice(0, 200)}…` : call.params}` +
      `: ${verdict.got}${path ? ` [replay: ${path}]` : ''}`,
  };
  const now = Date.now() - env.t0;
  const entries: TranscriptEntry[] = [
    { t: now, conn: id, dir: 'sent', data: call.sent },
    ...call.received.map((d) => ({ t: now, conn: id, dir: 'received' as const, data: d })),
  ];
  return { finding, entries };
}

/** Run every case of a method on a transport. */
export async function runMethodTarget(
  env: TargetEnv,
  m: GenMethod,
  t: 'ws' | 'http',
): Promise<{ result: CheckResult; counts: TargetCounts }> {
  const started = Date.now();
  const id = `generated.${m.name}@${t}`;
  const counts = zeroCounts(id, m.name, 'method', t);
  const findings: Finding[] = [];
  const observations: Observation[] = [];
  const transcript: TranscriptEntry[] = [];
  let skip = skipReason(env, m, t);
  // Generated even when skipped: the coverage table names the classes a skipped target did not reach.
  const signsLogin = t === 'ws' && m === loginMethod(env.spec);
  const all = [
    ...casesOf(env.values, env.schemas, m.params, env.randomCases, t),
    ...(signsLogin ? proofCases(env, m) : []),
  ];
  const cases = skip ? [] : all;
  const tally = new ClassTally();
  for (const c of all) tally.generated(classOf(c));
  const shrunkRules = new Set<string>();
  for (const c of cases) {
    counts[c.expect]++;
    if (Date.now() > env.deadline) {
      counts.notRun++;
      continue;
    }
    const { ex, verdict } = await runCase(env, m, t, c);
    if (c.expect === 'valid' && methodNotFound(ex.outcome)) {
      skip = NOT_SERVED;
      observations.push({ text: `${NOT_SERVED}: ${verdict.got}` });
      break;
    }
    counts[verdict.status]++;
    tally.ran(classOf(c), verdict.status);
    if (verdict.status === 'note') observations.push(noteOf(c, verdict));
    if (verdict.status !== 'fail') continue;
    const { finding, entries } = await recordFailure(env, m, t, id, c, ex, verdict, shrunkRules);
    findings.push(finding);
    transcript.push(...entries);
  }
  // A method not served has no verdicts: its counts start over, with the reason.
  const kept = skip === NOT_SERVED ? zeroCounts(id, m.name, 'method', t) : counts;
  const classes = skip === NOT_SERVED ? new ClassTally() : tally;
  if (skip === NOT_SERVED) for (const c of all) classes.generated(classOf(c));
  classes.notReached(skip ?? 'the --duration passed');
  return {
    result: resultOf(id, m, t, skip, kept, findings, observations, transcript, started),
    counts: { ...kept, ...(skip ? { skipped: skip } : {}), classes: classes.list() },
  };
}

function resultOf(
  id: string,
  m: GenMethod,
  t: 'ws' | 'http',
  skip: string | null,
  counts: TargetCounts,
  findings: Finding[],
  observations: Observation[],
  transcript: TranscriptEntry[],
  started: number,
): CheckResult {
  const status = skip ? 'skip' : counts.fail > 0 ? 'fail' : counts.pass > 0 ? 'pass' : 'inconclusive';
  const summary =
    `${counts.valid} valid and ${counts.invalid} invalid inputs: ${counts.pass}` +
    ` pass, ${counts.fail} fail, ${counts.inconclusive} inconclusive, ${counts.note}` +
    ` notes, ${counts.notRun} not run`;
  return {
    id,
    area: 'generated',
    title: `Generated inputs to ${m.name} over ${t === 'ws' ? 'WebSocket' : 'HTTP'}`,
    section: `the spec's params, result and error table of ${m.name}`,
    level: m.assumedParams || m.assumedResult ? 'SHOULD' : 'MUST',
    needs: [
      ...(m.auth === 'login' ? (['key'] as const) : []),
      ...(t === 'http' ? (['http'] as const) : []),
      ...(m.orderFlow ? (['order-flow'] as const) : []),
    ],
    status,
    reason: skip ?? (status === 'fail' ? findings[0]!.message : summary),
    durationMs: Date.now() - started,
    findings,
    observations: skip ? observations : [{ text: summary }, ...observations],
    transcript,
  };
}

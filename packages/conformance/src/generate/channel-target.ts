/**
 * Channel address templates: every value of each parameter (enumerations, and the names the server told
 * us about) filled in, one parameter at a time; each valid address is subscribed and its pushes must
 * conform to the payload schema (no push in the window is inconclusive). Each invalid address (a value
 * outside the enumeration) is sent together with a valid one and must be refused for that address alone.
 * The pushes seen are then checked against the domain invariants (invariants.ts).
 */
import { collect, WINDOW_MS } from './channel-pushes';
import { toJson } from './schema-set';
import { shrinkChannelFailure, shrinkRefusal } from './channel-shrink';
import { checkInvariants, type InvariantJudgement, type SeenPush } from './invariants';
import type { TargetEnv } from './target-env';
import type { ReplayCall } from './replay-file';
import { frameMethod, type GenChannel } from './spec';
import { addressesOf } from './channel-addresses';
import { zeroCounts } from './counts';
import { ClassTally } from './coverage';
import { RULES } from './rules';
import type { CheckResult, Finding, Judgement, TargetCounts } from '../model';

type Done = { result: CheckResult; counts: TargetCounts };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Subscribe (or unsubscribe) through the session, paced; the result or the error as received. */
export async function rpc(
  env: TargetEnv,
  name: string,
  channels: string[],
): Promise<{ body: Record<string, unknown> | null; text: string; sent?: string; kind: string }> {
  const ex = await env.session.call(frameMethod(env.spec, name), 'ws', toJson({ channels }));
  const kind = ex.outcome.kind;
  if (ex.outcome.kind !== 'response')
    return {
      body: null,
      text: ex.outcome.kind === 'closed' || ex.outcome.kind === 'silence' ? ex.outcome.what : '',
      sent: ex.sent,
      kind,
    };
  return { body: isObj(ex.outcome.json) ? ex.outcome.json : null, text: ex.outcome.text, sent: ex.sent, kind };
}

/** Judge one invalid address sent with a valid one: refused for that address alone. */
export function judgeInvalid(
  res: { body: Record<string, unknown> | null; text: string },
  valid: string,
  invalid: string,
): Finding | 'pass' | 'inconclusive' | 'note' {
  if (!res.body) return 'inconclusive';
  const f = (got: string): Finding => ({
    pointer: '/result/status',
    ruleId: 'channel-invalid-refused-alone',
    rule: RULES['channel-invalid-refused-alone'],
    expected: `${invalid} refused, ${valid} subscribed`,
    got,
    message: `subscribe [${valid}, ${invalid}]: ${got}`,
  });
  if ('error' in res.body) return f(`the whole request refused: ${res.text.slice(0, 300)}`);
  const status = isObj(res.body.result) && isObj(res.body.result.status) ? res.body.result.status : null;
  if (!status) return 'note';
  if (status[invalid] === 'ok') return f(`${invalid} accepted ("ok")`);
  if (status[valid] !== 'ok') return f(`${valid} not subscribed: ${JSON.stringify(status[valid])}`);
  return 'pass';
}

/** Each invalid address sent with the first valid one: refused for that address alone. */
async function runInvalid(
  env: TargetEnv,
  ch: GenChannel,
  valid: string,
  invalid: string[],
  counts: TargetCounts,
  findings: Finding[],
  tally: ClassTally,
): Promise<void> {
  counts.invalid = invalid.length;
  for (const bad of invalid) {
    const res = await rpc(env, env.spec.subscribe, [valid, bad]);
    const r = judgeInvalid(res, valid, bad);
    tally.ran('invalid address: enum', typeof r === 'string' ? r : 'fail');
    if (typeof r === 'string') {
      counts[r]++;
      continue;
    }
    counts.fail++;
    const call = {
      params: toJson({ channels: [valid, bad] }),
      sent: res.sent ?? '',
      received: [res.text],
      verdict: verdictOf(r),
    };
    // Already the smallest: one parameter outside its list, the others at their first values, one valid companion.
    const path = env.onChannelFailure(ch, 'invalid', { address: bad, valid }, call, undefined, 0);
    findings.push(path ? { ...r, message: `${r.message} [replay: ${path}]` } : r);
  }
  await rpc(env, env.spec.unsubscribe, [valid, ...invalid]);
}

/**
 * Each long address alone: the server must answer it (a refusal is fine) and keep the connection. A
 * silence counts as a failure only with positive evidence: a later subscribe on the same connection was
 * answered while this one never was.
 */
async function runLong(
  env: TargetEnv,
  ch: GenChannel,
  valid: string,
  long: string[],
  counts: TargetCounts,
  findings: Finding[],
  tally: ClassTally,
): Promise<void> {
  counts.invalid += long.length;
  for (const address of long) {
    const res = await rpc(env, env.spec.subscribe, [address]);
    const f = (got: string): Finding => ({
      pointer: '/params/channels/0',
      ruleId: 'channel-long-address-answered',
      rule: RULES['channel-long-address-answered'],
      expected: `an answer to the subscription of a ${address.length}-character address`,
      got,
      message: `subscribe [${address.slice(0, 40)}…(${address.length} chars)]: ${got}`,
    });
    if (res.kind === 'response') {
      counts.pass++;
      tally.ran('long address', 'pass');
      await rpc(env, env.spec.unsubscribe, [address]);
      continue;
    }
    if (res.kind === 'closed') {
      counts.fail++;
      tally.ran('long address', 'fail');
      findings.push(f(`the connection was closed: ${res.text}`));
      continue;
    }
    const probe = await rpc(env, env.spec.subscribe, [valid]);
    if (probe.kind !== 'response') {
      counts.inconclusive++;
      tally.ran('long address', 'inconclusive');
      continue;
    }
    await rpc(env, env.spec.unsubscribe, [valid]);
    counts.fail++;
    tally.ran('long address', 'fail');
    findings.push(f(`${res.text}, while a later subscribe of ${valid} on the connection was answered`));
  }
}

async function runChannel(env: TargetEnv, ch: GenChannel, seen: SeenPush[]): Promise<Done> {
  const started = Date.now();
  const id = `generated.channel.${ch.id}`;
  const counts = zeroCounts(id, ch.address, 'channel', 'ws');
  const findings: Finding[] = [];
  const { valid, invalid, long, missing, values } = addressesOf(ch, env);
  const tally = new ClassTally();
  for (const a of valid) tally.generated(`address ${a}`);
  tally.generated('invalid address: enum', invalid.length);
  tally.generated('long address', long.length);
  if (missing) tally.generated('addresses');
  const skip =
    ch.access === 'private' && env.session.noLogin
      ? `needs a login: ${env.session.noLogin}`
      : missing
        ? `no known value for {${missing}}: the spec lists none for it (no enum) and ` +
          `the server told none${env.namesSkipped.length ? ` (${env.namesSkipped.join('; ')})` : ''}`
        : null;
  if (!skip && Date.now() < env.deadline) {
    const conn = await env.session.conn(env.session.noLogin ? 'anon' : 'login');
    await runInvalid(env, ch, valid[0]!, invalid, counts, findings, tally);
    const from = conn.frames.length;
    counts.valid = valid.length;
    const sub = await rpc(env, env.spec.subscribe, valid);
    const pushes = await collect(conn, from, valid);
    await rpc(env, env.spec.unsubscribe, valid);
    seen.push(...pushes);
    const fails = judgeValid(env, ch, valid, sub, pushes, counts, findings, tally);
    await recordPushFailures(env, ch, valid, values, fails, findings);
    if (sub.body && 'error' in sub.body) await recordRefusal(env, ch, valid, sub, findings);
    // Last: a server that closes on a long address must not cost the pushes above.
    await runLong(env, ch, valid[0]!, long, counts, findings, tally);
  }
  tally.notReached(skip ?? 'the --duration passed');
  return {
    result: channelResult(id, ch, skip, counts, findings, started),
    counts: { ...counts, ...(skip ? { skipped: skip } : {}), classes: tally.list() },
  };
}

type PushFailure = { address: string; push: SeenPush; finding: Finding };

/** Judge each valid address; the pushes that do not conform are returned, to be shrunk and recorded. */
function judgeValid(
  env: TargetEnv,
  ch: GenChannel,
  valid: string[],
  sub: { body: Record<string, unknown> | null; text: string },
  pushes: SeenPush[],
  counts: TargetCounts,
  findings: Finding[],
  tally: ClassTally,
): PushFailure[] {
  const fails: PushFailure[] = [];
  for (const address of valid) {
    const mine = pushes.filter((p) => p.channel === address);
    const bad = mine.find((p) => !env.schemas.valid(ch.payload, p.data));
    const failed = (sub.body && 'error' in sub.body) || bad;
    tally.ran(`address ${address}`, failed ? 'fail' : mine.length ? 'pass' : 'inconclusive');
    if (sub.body && 'error' in sub.body) {
      counts.fail++;
      findings.push({
        pointer: '',
        ruleId: 'channel-valid-subscribed',
        rule: RULES['channel-valid-subscribed'],
        expected: `${address} subscribed`,
        got: sub.text.slice(0, 300),
        message: `subscribe to valid ${address} refused`,
      });
    } else if (bad) {
      counts.fail++;
      fails.push({ address, push: bad, finding: pushFinding(env, ch, address, bad) });
    } else counts[mine.length ? 'pass' : 'inconclusive']++;
  }
  return fails;
}

function pushFinding(env: TargetEnv, ch: GenChannel, address: string, push: SeenPush): Finding {
  const why = env.schemas.why(ch.payload, push.data);
  return {
    pointer: '/params/data',
    ruleId: 'channel-push-conforms',
    rule: RULES['channel-push-conforms'],
    expected: `a payload of ${ch.address}`,
    got: `${why}: ${JSON.stringify(push.data).slice(0, 300)}`,
    message: `push on ${address}: ${why}`,
  };
}

/**
 * Record each failing push as a replay file (the subscription as made, and the push). The first is shrunk
 * to the smallest subscription that still gets a non-conforming push (channel-shrink.ts); later ones are
 * recorded as they came.
 */
async function recordPushFailures(
  env: TargetEnv,
  ch: GenChannel,
  set: string[],
  values: Record<string, string[]>,
  fails: PushFailure[],
  findings: Finding[],
): Promise<void> {
  for (const [i, f] of fails.entries()) {
    const s = i === 0 ? await shrinkChannelFailure(env, ch, values, { set, address: f.address, push: f.push }) : null;
    const original = pushCall(env, set, f.push, f.finding);
    const call = s ? pushCall(env, s.set, s.push, pushFinding(env, ch, s.address, s.push)) : original;
    const where = { address: s?.address ?? f.address, subscribed: s?.set ?? set };
    const path = env.onChannelFailure(ch, 'valid', where, call, s ? original : undefined, s?.steps ?? 0);
    const smallest = s ? ` (smallest failing subscription: ${JSON.stringify(s.set)})` : '';
    findings.push({ ...f.finding, message: `${f.finding.message}${smallest}${path ? ` [replay: ${path}]` : ''}` });
  }
}

/** A subscription of valid addresses refused: shrunk to the smallest set still refused, written as a replay file. */
async function recordRefusal(
  env: TargetEnv,
  ch: GenChannel,
  set: string[],
  sub: { text: string; sent?: string },
  findings: Finding[],
): Promise<void> {
  const i = findings.findIndex((f) => f.ruleId === 'channel-valid-subscribed');
  if (i < 0) return;
  const s = await shrinkRefusal(env, ch, set);
  const f = findings[i]!;
  const verdict = verdictOf(f);
  const original = { params: toJson({ channels: set }), sent: sub.sent ?? '', received: [sub.text], verdict };
  const call = s
    ? { params: toJson({ channels: s.set }), sent: s.ex.sent, received: s.ex.received, verdict }
    : original;
  const where = { address: s?.set[0] ?? set[0]!, subscribed: s?.set ?? set };
  const path = env.onChannelFailure(ch, 'valid', where, call, s ? original : undefined, s?.steps ?? 0);
  const smallest = s ? ` (smallest refused subscription: ${JSON.stringify(s.set)})` : '';
  findings[i] = { ...f, message: `${f.message}${smallest}${path ? ` [replay: ${path}]` : ''}` };
}

/** The replay call of a push that does not conform: the subscription it came on, and the push. */
function pushCall(env: TargetEnv, set: string[], push: SeenPush, f: Finding): ReplayCall {
  const params = toJson({ channels: set });
  const sent =
    `{"jsonrpc":"2.0","id":"replay-subscribe","method":${JSON.stringify(env.spec.subscribe)}` + `,"params":${params}}`;
  const received = [JSON.stringify({ channel: push.channel, data: push.data })];
  return { params, sent, received, verdict: verdictOf(f) };
}

/** The failed judgement a finding of a channel template records in its replay file. */
function verdictOf(f: Finding): Judgement {
  return { status: 'fail', ruleId: f.ruleId ?? 'unrecorded', rule: f.rule, expected: f.expected, got: f.got };
}

function channelResult(
  id: string,
  ch: GenChannel,
  skip: string | null,
  counts: TargetCounts,
  findings: Finding[],
  started: number,
): CheckResult {
  const status = skip ? 'skip' : counts.fail ? 'fail' : counts.pass ? 'pass' : 'inconclusive';
  const summary =
    `${counts.valid} valid and ${counts.invalid} invalid addresses: ${counts.pass}` +
    ` pass, ${counts.fail} fail, ${counts.inconclusive} inconclusive (no push ` +
    `in ${WINDOW_MS} ms or no answer), ${counts.note} notes`;
  return {
    id,
    area: 'generated',
    title: `Generated addresses of ${ch.address}`,
    section: `the spec's channel ${ch.id}: parameters and payload`,
    level: 'MUST',
    needs: ch.access === 'private' ? ['key'] : [],
    status,
    reason: skip ?? findings[0]?.message ?? summary,
    durationMs: Date.now() - started,
    findings,
    observations: skip ? [] : [{ text: summary }],
    transcript: [],
  };
}

/**
 * Every chosen channel template, then the invariants of what they pushed; each outcome passed to `done` as it comes.
 */
export async function runChannelTargets(
  env: TargetEnv,
  chosen: (id: string) => boolean,
  done: (d: Done) => void,
): Promise<void> {
  const seen: SeenPush[] = [];
  for (const ch of env.spec.channels) if (chosen(`generated.channel.${ch.id}`)) done(await runChannel(env, ch, seen));
  if (chosen('generated.invariants')) done(invariantResult(checkInvariants(seen), seen.length));
}

function invariantResult(verdicts: InvariantJudgement[], pushes: number): Done {
  // The invariants are about books, publish ids and trades: pushes that carry none of them are no test of them.
  const skip =
    pushes > 0 && verdicts.length === 0
      ? `none of the ${pushes} pushes seen is an order book (bids and asks), carries a publish_id or is a trade: ` +
        'these invariants are about those alone'
      : null;
  const fails = verdicts.filter((v) => v.status === 'fail');
  const notes = verdicts.filter((v) => v.status === 'note');
  const counts: TargetCounts = {
    id: 'generated.invariants',
    target: 'invariants of pushes',
    kind: 'invariant',
    transport: 'ws',
    valid: verdicts.length,
    invalid: 0,
    pass: verdicts.length - fails.length - notes.length,
    fail: fails.length,
    inconclusive: 0,
    note: notes.length,
    notRun: 0,
  };
  const kinds = [...new Set(verdicts.map((v) => v.invariant))]
    .map((k) => `${k}: ${verdicts.filter((v) => v.invariant === k).length}`)
    .join(', ');
  const result: CheckResult = {
    id: 'generated.invariants',
    area: 'generated',
    title: 'Domain invariants of what was pushed (books in order, publish ids increasing, trades within the book)',
    section: 'Interpretations: order book levels; publish_id; trades',
    level: 'SHOULD',
    needs: [],
    status: skip ? 'skip' : fails.length ? 'fail' : verdicts.length ? 'pass' : 'inconclusive',
    reason: skip ?? fails[0]?.message ?? (verdicts.length ? `checked ${kinds}` : 'no push was seen'),
    durationMs: 0,
    findings: fails.slice(0, 20).map((f) => ({
      pointer: '/params/data',
      ruleId: `invariant-${f.invariant}`,
      rule: f.invariant,
      expected: 'the invariant holds',
      got: f.message,
      message: `${f.channel}: ${f.message}`,
    })),
    observations: notes
      .slice(0, 20)
      .map((n) => ({ text: `should-level note (${n.invariant}) on ${n.channel}: ${n.message}` })),
    transcript: [],
  };
  return { result, counts: skip ? { ...counts, skipped: skip } : counts };
}

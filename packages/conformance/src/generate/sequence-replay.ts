/**
 * `--replay` of a sequence failure: its frames sent again in order on one connection (one of its own, or
 * the logged-in one), then the last answer judged by the rule of the step that failed. A login is signed
 * again by the replaying wallet; a signed action is signed again from its fields (a fresh nonce); the
 * run's wallet, subaccount ids and the order ids its answers gave are replaced by the replay's own.
 */
import { signLogin } from '@exchange-api/auth';
import { signedParams } from '../checks/actions';
import { isNotification, pushOf, type RpcResponse, type WsConn } from '../connection';
import { sendFrame, type Session } from './session';
import type { ReplayFile, SequenceFrame, SequenceJudge } from './replay-file';
import type { GenSpec } from './spec';
import type { Outcome } from './verdict';
import type { Judgement } from '../model';

/** The outcome of a replayed sequence. */
export interface SequenceOutcome {
  status: 'fixed' | 'still-failing' | 'inconclusive';
  verdict: Judgement;
  received: string[];
}

/** The run's values (by JSON text) and the replay's values that take their place. */
type Names = Map<string, unknown>;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** How long pushes are watched after the last frame, as the sequence did. */
const PUSH_WINDOW_MS = 1500;

/** A value with the run's names replaced: strings and subaccount numbers, and addresses led by a subaccount id. */
export function renamed(v: unknown, names: Names, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => renamed(x, names, key));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renamed(x, names, k)]));
  if (typeof v === 'string') {
    if (names.has(JSON.stringify(v))) return names.get(JSON.stringify(v));
    const led = /^([0-9]+)\.(.+)$/.exec(v);
    return led && names.has(led[1]!) ? `${String(names.get(led[1]!))}.${led[2]}` : v;
  }
  return typeof v === 'number' && key.includes('subaccount') && names.has(String(v)) ? names.get(String(v)) : v;
}

/** Learn the order ids an answer gave in place of the recorded answer's (same places, other ids). */
export function learnIds(recorded: unknown, now: unknown, names: Names, key = ''): void {
  if (Array.isArray(recorded) && Array.isArray(now)) recorded.forEach((r, i) => learnIds(r, now[i], names, key));
  else if (isObj(recorded) && isObj(now))
    for (const k of Object.keys(recorded)) learnIds(recorded[k], now[k], names, k);
  else if (key.endsWith('order_id') && typeof recorded === 'string' && typeof now === 'string' && recorded !== now)
    names.set(JSON.stringify(recorded), now);
}

const parse = (text: string | undefined): unknown => {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The frame to send again: the recorded one with the replay's names, a login or an action signed again. */
async function frameOf(session: Session, f: SequenceFrame, names: Names): Promise<{ text: string; id: unknown }> {
  const orig = parse(f.sent) as { id: unknown; method: string; params: unknown };
  let params = renamed(orig.params, names);
  if (f.login) params = await signLogin(session.wallet!);
  else if (f.signed) {
    const sub = (params as { subaccount_id?: unknown } | null)?.subaccount_id;
    const fields = renamed(f.signed.fields, names) as Record<string, unknown>;
    const instrument = f.signed.instrument as Parameters<typeof signedParams>[4];
    params = await signedParams(
      session.wallet!,
      f.signed.action,
      Number(sub ?? session.subaccounts[0]),
      fields,
      instrument,
    );
  }
  return { text: JSON.stringify({ jsonrpc: '2.0', id: orig.id, method: orig.method, params }), id: orig.id };
}

/** Send one frame, waiting out rate-limit answers as their hint says. */
async function sendOne(session: Session, conn: WsConn, text: string, id: unknown) {
  for (let retries = 0; ; retries++) {
    const got = await sendFrame(conn, text, id as string);
    const wait = session.rateLimitWait(got.outcome);
    if (wait === null || retries >= 3) return got;
    await new Promise((r) => setTimeout(r, Math.min(wait, 10_000) + 50));
  }
}

function bodyOf(o: Outcome): Record<string, unknown> | null {
  return o.kind === 'response' && isObj(o.json) ? o.json : null;
}

/** Judge the last answer (or the pushes after it) by the rule of the step that failed. */
async function judgeLast(
  spec: GenSpec,
  judge: SequenceJudge,
  o: Outcome,
  conn: WsConn,
  names: Names,
): Promise<Judgement['status'] | 'none'> {
  const body = bodyOf(o);
  if (judge.kind === 'pushes') {
    const from = conn.frames.length;
    await conn.waitFor(() => false, PUSH_WINDOW_MS, from);
    const model = new Set(judge.subscribed.map((a) => String(renamed(a, names))));
    const pushes = conn.frames
      .slice(from)
      .filter((f) => isNotification(f.json))
      .map(pushOf);
    if (pushes.some((p) => p.channel === undefined || !model.has(p.channel))) return 'fail';
    return pushes.length || model.size === 0 ? 'pass' : 'none';
  }
  if (!body) return 'none';
  if (judge.kind === 'subscriptions') {
    const current = (body.result as { current_subscriptions?: unknown } | undefined)?.current_subscriptions;
    if (!Array.isArray(current)) return 'none';
    const want = new Set(judge.expected.map((a) => String(renamed(a, names))));
    return current.length === want.size && current.every((c) => want.has(String(c))) ? 'pass' : 'fail';
  }
  if (judge.kind === 'served') return 'result' in body ? 'pass' : 'fail';
  if ('result' in body) return 'fail';
  const code = (body.error as RpcResponse['error'] | undefined)?.code;
  return spec.errors.some((e) => e.code === code) ? 'pass' : 'fail';
}

/** Replay a sequence failure: every frame again in order, then the last one judged. */
export async function replaySequence(session: Session, spec: GenSpec, r: ReplayFile): Promise<SequenceOutcome> {
  const seq = r.sequence;
  if (!seq?.frames.length) throw new Error(`the replay file of ${r.method} has no frames`);
  const names: Names = new Map();
  if (seq.wallet && session.wallet) names.set(JSON.stringify(seq.wallet), session.wallet.address);
  seq.subaccounts.forEach(
    (s, i) => session.subaccounts[i] !== undefined && names.set(String(s), session.subaccounts[i]),
  );
  const conn = seq.conn === 'login' ? await session.conn('login') : await session.fresh(false, 'replay-sequence');
  try {
    let last: { outcome: Outcome; received: string[] } = {
      outcome: { kind: 'silence', what: 'nothing sent' },
      received: [],
    };
    for (const f of seq.frames) {
      const { text, id } = await frameOf(session, f, names);
      last = await sendOne(session, conn, text, id);
      learnIds(parse(f.received[0]), last.outcome.kind === 'response' ? last.outcome.json : undefined, names);
    }
    const status = await judgeLast(spec, seq.judge, last.outcome, conn, names);
    const { ruleId, rule } = r.call.verdict;
    const got = last.received.join(' ').slice(0, 300) || 'no answer';
    if (status === 'none' || status === 'inconclusive' || status === 'note')
      return {
        status: 'inconclusive',
        verdict: {
          status: 'inconclusive',
          ruleId,
          rule,
          expected: r.call.verdict.expected,
          got: `no evidence either way: ${got}`,
        },
        received: last.received,
      };
    const verdict: Judgement = { status, ruleId, rule, expected: r.call.verdict.expected, got };
    return { status: status === 'pass' ? 'fixed' : 'still-failing', verdict, received: last.received };
  } finally {
    if (seq.conn === 'fresh') await conn.close();
  }
}

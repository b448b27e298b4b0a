/**
 * `--replay FILE`: send a recorded failure's frame again (the WebSocket frame as recorded, or the HTTP
 * body to the same path, with a fresh login where it needs one; a sequence's frames in order,
 * sequence-replay.ts) and judge the answer by the same rules:
 * FIXED when it now passes, STILL FAILING when it fails again, INCONCLUSIVE when no answer came.
 */
import { existsSync } from 'node:fs';
import { Wallet } from 'ethers';
import { methodTable } from '@exchange-api/types';
import { UnreachableError } from '../discover';
import { Transcript } from '../transcript';
import { readReplay, type ReplayFile } from './replay-file';
import { SchemaSet } from './schema-set';
import { loginMethod, Session, sendFrame, type Exchange } from './session';
import { judgeIntact, loginCase } from './login-cases';
import { EXTRA_MEMBER } from './cases';
import { specOf } from './run';
import { judge } from './verdict';
import { judged, rule as ruleOf } from './rules';
import type { Judgement } from '../model';
import { judgeInvalid } from './channel-target';
import { collect } from './channel-pushes';
import { replaySequence } from './sequence-replay';
import type { GenMethod, GenSpec } from './spec';
import type { SpecLoader } from './spec-model';

/** Options of a replay. */
export interface ReplayOptions {
  file: string;
  ws: string;
  http?: string | null;
  key?: string | null;
  /** The spec to judge by (default: the one the file names, else the default spec). */
  spec?: string | null;
  /** Allow a replay of order flow (placing or cancelling orders) to send it again (refused without it). */
  allowOrderFlow?: boolean;
  /** Reads the spec into the generator's model (the command passes modelFromSpec of @exchange-api/codegen). */
  loadSpec?: SpecLoader;
}

/** The outcome of a replay. */
export interface ReplayOutcome {
  status: 'fixed' | 'still-failing' | 'inconclusive';
  replay: ReplayFile;
  verdict: Judgement;
  received: string[];
}

async function resend(session: Session, m: GenMethod, r: ReplayFile): Promise<Exchange> {
  if (r.transport === 'http') return session.call(m, 'http', r.call.params);
  for (let retries = 0; ; retries++) {
    const id = (JSON.parse(r.call.sent) as { id: string }).id;
    const conn = await session.conn(r.auth === 'login' || !session.noLogin ? 'login' : 'anon');
    const got = await sendFrame(conn, r.call.sent, id);
    const wait = session.rateLimitWait(got.outcome);
    if (wait === null || retries >= 3) return { ...got, id, sent: r.call.sent, retries };
    await new Promise((res) => setTimeout(res, Math.min(wait, 10_000) + 50));
  }
}

/**
 * Replay a channel failure: the subscribe frame again, then its answer (an invalid address) or its pushes (a valid
 * one).
 */
async function replayChannel(session: Session, spec: GenSpec, r: ReplayFile): Promise<Omit<ReplayOutcome, 'replay'>> {
  const ch = spec.channels.find((c) => c.id === r.method);
  if (!ch || !r.channel) throw new Error(`the spec ${spec.file} has no channel ${r.method} (the replay file's)`);
  const conn = await session.conn(r.auth === 'login' || !session.noLogin ? 'login' : 'anon');
  const from = conn.frames.length;
  const got = await sendFrame(conn, r.call.sent, (JSON.parse(r.call.sent) as { id: string }).id);
  const { address, valid } = r.channel;
  // The recorded failure's rule, judged again.
  const again = (status: Judgement['status'], got: string, expected = r.call.verdict.expected): Judgement => ({
    ...r.call.verdict,
    status,
    expected,
    got,
  });
  if (r.expect === 'invalid') {
    const o = got.outcome;
    const body =
      o.kind === 'response' && typeof o.json === 'object' && o.json !== null
        ? (o.json as Record<string, unknown>)
        : null;
    const j = judgeInvalid({ body, text: o.kind === 'response' ? o.text : '' }, valid ?? address, address);
    if (typeof j === 'object')
      return {
        status: 'still-failing',
        verdict: judged('fail', ruleOf('channel-invalid-refused-alone', j.rule), j.expected, j.got),
        received: got.received,
      };
    const verdict =
      j === 'pass' ? again('pass', `${address} refused alone`) : again('inconclusive', 'no evidence either way');
    return { status: j === 'pass' ? 'fixed' : 'inconclusive', verdict, received: got.received };
  }
  const answer = got.outcome.kind === 'response' ? (got.outcome.json as Record<string, unknown> | null) : null;
  if (answer && typeof answer === 'object' && 'error' in answer) {
    const text = got.outcome.kind === 'response' ? got.outcome.text.slice(0, 300) : '';
    return {
      status: 'still-failing',
      verdict: judged('fail', 'channel-valid-subscribed', `${address} subscribed`, text),
      received: got.received,
    };
  }
  const pushes = (await collect(conn, from, [address])).filter((p) => p.channel === address);
  const schemas = SchemaSet.of(spec.doc);
  const bad = pushes.find((p) => !schemas.valid(ch.payload, p.data));
  const received = pushes.map((p) => JSON.stringify({ channel: p.channel, data: p.data }));
  if (bad) return { status: 'still-failing', verdict: again('fail', JSON.stringify(bad.data).slice(0, 300)), received };
  if (!pushes.length)
    return { status: 'inconclusive', verdict: again('inconclusive', 'no push in the window', 'a push'), received };
  return { status: 'fixed', verdict: again('pass', `${pushes.length} conforming pushes`), received };
}

/**
 * The order-flow methods a replay would send again: those the spec marks as order flow (x-order-flow),
 * signed or not (a cancel carries no signature), those this exchange's tables mark (a replay file names the
 * spec it is judged by: a spec that marks nothing cannot let order flow through), and any signed action.
 */
export function orderFlowOf(spec: GenSpec, r: ReplayFile): string[] {
  const flow = new Set([
    ...spec.methods.filter((m) => m.orderFlow).map((m) => m.name),
    ...methodTable.filter((m) => m.orderFlow).map((m) => m.name),
  ]);
  const sent = r.kind === 'sequence' ? (r.sequence?.frames ?? []) : r.kind === 'method' ? [{ sent: r.call.sent }] : [];
  const found = new Set<string>();
  if (r.kind === 'method' && flow.has(r.method)) found.add(r.method);
  for (const f of sent) {
    const method = methodOfFrame(f.sent);
    if ((method !== null && flow.has(method)) || ('signed' in f && f.signed)) found.add(method ?? 'a signed action');
  }
  return [...found];
}

/** The method a recorded frame names (null when it is not a JSON-RPC request, e.g. an HTTP body). */
function methodOfFrame(sent: string): string | null {
  try {
    const m = (JSON.parse(sent) as { method?: unknown }).method;
    return typeof m === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** Replay one file against a server. Throws UnreachableError when it cannot connect, Error on a bad file. */
export async function runReplay(o: ReplayOptions): Promise<ReplayOutcome> {
  const r = readReplay(o.file);
  // The spec the file names, where it still is; else the default one (another machine, a moved clone).
  const spec = await specOf(o.spec ?? (existsSync(r.spec.file) ? r.spec.file : null), o.loadSpec);
  const m = spec.methods.find((x) => x.name === r.method);
  if (!m && r.kind === 'method') throw new Error(`the spec ${spec.file} has no method ${r.method} (the replay file's)`);
  if (r.transport === 'http' && !o.http) throw new Error('this replay is over HTTP: pass --http <url>');
  const flow = orderFlowOf(spec, r);
  if (flow.length && !o.allowOrderFlow)
    throw new Error(
      `the replay file ${o.file} sends order flow again (${flow.join(', ')}): ` +
        'refused without --allow-order-flow (the runner never sends order flow without it)',
    );
  const key = o.key ? new Wallet(o.key.startsWith('0x') ? o.key : `0x${o.key}`) : null;
  const session = new Session(spec, o.ws, o.http ?? null, key, new Transcript(Date.now()));
  try {
    await session.open();
  } catch (err) {
    await session.close();
    throw new UnreachableError((err as Error).message);
  }
  try {
    if (r.auth === 'login' && session.noLogin)
      throw new UnreachableError(`this replay needs a login: ${session.noLogin}`);
    if (r.kind === 'channel') return { ...(await replayChannel(session, spec, r)), replay: r };
    if (r.kind === 'sequence') return { ...(await replaySequence(session, spec, r)), replay: r };
    const c = {
      expect: r.expect,
      why: r.why,
      params: JSON.parse(r.call.params) as unknown,
      ...(r.offHint ? { offHint: r.offHint } : {}),
      ...(r.why.startsWith(`/${EXTRA_MEMBER}:`) ? { extra: EXTRA_MEMBER } : {}),
    };
    // A login is sent again around a fresh proof, as the run sent it: the recorded one is stale by now.
    const signed = m && r.transport === 'ws' && m === loginMethod(spec) ? await loginCase(session, m, c) : null;
    const ex = signed?.ex ?? (await resend(session, m!, r));
    let verdict = judge(spec, m!, SchemaSet.of(spec.doc), c, ex.outcome, ex.id);
    if (signed?.intact) verdict = judgeIntact(c, ex, verdict);
    const status =
      verdict.status === 'fail' ? 'still-failing' : verdict.status === 'inconclusive' ? 'inconclusive' : 'fixed';
    return { status, replay: r, verdict, received: ex.received };
  } finally {
    await session.close();
  }
}

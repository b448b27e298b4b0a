/**
 * What a stateful sequence works with: steps that each end pass, fail, inconclusive or note, counted
 * like cases, and one check result per sequence (`generated.sequence.<name>`).
 */
import { toJson } from './schema-set';
import { frameMethod } from './spec';
import type { WsConn } from '../connection';
import type { TargetEnv } from './target-env';
import type { Exchange } from './session';
import type { SequenceFrame, SequenceJudge } from './replay-file';
import { zeroCounts } from './counts';
import { rule as ruleOf, type Rule, type RuleId } from './rules';
import type { CheckResult, Finding, Observation, TargetCounts, TranscriptEntry } from '../model';

/** A sequence's record: its counts, findings, notes and the frames of its failing steps. */
export class SequenceLog {
  readonly counts: TargetCounts;
  readonly findings: Finding[] = [];
  readonly observations: Observation[] = [];
  readonly transcript: TranscriptEntry[] = [];
  /** Every frame the sequence sent, in order, for a replay file of a failing step. */
  readonly frames: SequenceFrame[] = [];
  private readonly started = Date.now();

  constructor(
    readonly env: TargetEnv,
    readonly name: string,
    /** The connection the sequence runs on: one of its own, or the run's logged-in one. */
    readonly conn: 'fresh' | 'login' = 'fresh',
  ) {
    this.counts = zeroCounts(`generated.sequence.${name}`, name, 'sequence', 'ws');
  }

  /** Record a step that held. */
  pass(): void {
    this.counts.valid++;
    this.counts.pass++;
  }

  /** Record a step that had no evidence either way. */
  inconclusive(why: string): void {
    this.counts.valid++;
    this.counts.inconclusive++;
    this.observations.push({ text: `inconclusive step: ${why}` });
  }

  /** Record a should-level note. */
  note(text: string): void {
    this.counts.valid++;
    this.counts.note++;
    this.observations.push({ text: `should-level note: ${text}` });
  }

  /**
   * Call a method by name on the sequence's connection, paced; its frame is recorded (null when the spec has no such
   * method).
   */
  async call(
    conn: WsConn,
    name: string,
    params: unknown,
    authed = true,
    how: Pick<SequenceFrame, 'login' | 'signed'> = {},
    again?: () => Promise<unknown>,
  ): Promise<Exchange | null> {
    const ex = await callNamed(this.env, conn, name, params, authed, again);
    if (ex) this.frames.push({ sent: ex.sent, received: ex.received, ...how });
    return ex;
  }

  /**
   * Record a failed step with its exchange. With `judge` (how the step's answer is judged), the failing
   * step is the last frame sent, and the frames so far are written as a replay file.
   */
  fail(by: Rule | RuleId, expected: string, got: string, ex?: Exchange, judge?: SequenceJudge): void {
    const rule = typeof by === 'string' ? ruleOf(by) : by;
    this.counts.valid++;
    this.counts.fail++;
    const path = judge ? this.replay(rule, expected, got, judge) : null;
    const message = `${this.name}: ${rule.text}: got ${got}${path ? ` [replay: ${path}]` : ''}`;
    this.findings.push({ pointer: '', ruleId: rule.id, rule: rule.text, expected, got, message });
    if (ex) {
      const t = Date.now() - this.env.t0;
      this.transcript.push(
        { t, conn: this.counts.id, dir: 'sent', data: ex.sent },
        ...ex.received.map((d) => ({ t, conn: this.counts.id, dir: 'received' as const, data: d })),
      );
    }
  }

  private replay(rule: Rule, expected: string, got: string, judge: SequenceJudge): string | null {
    const last = this.frames[this.frames.length - 1];
    if (!last) return null;
    const params = (/"params":(.*)}$/s.exec(last.sent)?.[1] ?? 'null').trim();
    const s = this.env.session;
    return this.env.onSequenceFailure(
      this.name,
      {
        conn: this.conn,
        frames: [...this.frames],
        judge,
        wallet: s.wallet?.address ?? null,
        subaccounts: s.subaccounts,
      },
      {
        params,
        sent: last.sent,
        received: last.received,
        verdict: { status: 'fail', ruleId: rule.id, rule: rule.text, expected, got },
      },
    );
  }

  /** The sequence's check result (skipped with the reason when `skip` is given). */
  result(title: string, skip: string | null = null): { result: CheckResult; counts: TargetCounts } {
    const c = this.counts;
    const status = skip ? 'skip' : c.fail ? 'fail' : c.pass ? 'pass' : 'inconclusive';
    const summary = `${c.valid} steps: ${c.pass} pass, ${c.fail} fail, ${c.inconclusive} inconclusive, ${c.note} notes`;
    return {
      result: {
        id: c.id,
        area: 'generated',
        title,
        section: 'stateful sequences over the spec’s methods and channels',
        level: 'MUST',
        needs: [],
        status,
        reason: skip ?? this.findings[0]?.message ?? summary,
        durationMs: Date.now() - this.started,
        findings: this.findings,
        observations: skip ? [] : [{ text: summary }, ...this.observations],
        transcript: this.transcript,
      },
      counts: skip ? { ...c, skipped: skip } : c,
    };
  }
}

/** The body of a JSON-RPC answer, or null when none came (silence, a close, an HTTP failure). */
export function bodyOf(ex: Exchange): Record<string, unknown> | null {
  const o = ex.outcome;
  if (o.kind !== 'response' && o.kind !== 'http') return null;
  return typeof o.json === 'object' && o.json !== null && !Array.isArray(o.json)
    ? (o.json as Record<string, unknown>)
    : null;
}

/**
 * Call a method of the spec by name on a connection, paced; null when the spec has no such method. A
 * signed request names `again`, its params signed anew, for a retry after a rate-limit answer.
 */
export async function callNamed(
  env: TargetEnv,
  conn: WsConn,
  name: string,
  params: unknown,
  authed = true,
  again?: () => Promise<unknown>,
): Promise<Exchange | null> {
  const m =
    env.spec.methods.find((x) => x.name === name) ??
    (name === env.spec.subscribe || name === env.spec.unsubscribe ? frameMethod(env.spec, name) : undefined);
  const resign = again && (async () => toJson(await again()));
  return m ? env.session.callOn(conn, m, toJson(params), authed, resign) : null;
}

/** Whether an answer is an error whose code the spec documents. */
export function documentedError(env: TargetEnv, body: Record<string, unknown> | null): boolean {
  const code = (body?.error as { code?: unknown } | undefined)?.code;
  return env.spec.errors.some((e) => e.code === code);
}

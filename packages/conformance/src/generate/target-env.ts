/**
 * What every generated target shares (the spec, validators, the session, values, the deadline), and one case sent and
 * judged.
 */
import { toJson, type SchemaSet } from './schema-set';
import { judge } from './verdict';
import { judged } from './rules';
import type { Judgement } from '../model';
import type { InputCase } from './cases';
import type { Exchange, Session } from './session';
import type { ReplayCall, SequenceRecord } from './replay-file';
import type { GenChannel, GenMethod, GenSpec } from './spec';
import type { ValueCtx } from './values';

/** What a target run shares: the spec, validators, session, values, the deadline and where failures go. */
export interface TargetEnv {
  spec: GenSpec;
  schemas: SchemaSet;
  session: Session;
  values: ValueCtx;
  /** Why names the server knows were not asked (names.ts), part by part. */
  namesSkipped: string[];
  randomCases: number;
  deadline: number;
  allowOrderFlow: boolean;
  http: string | null;
  shrinkCalls: number;
  t0: number;
  /**
   * Record a channel failure (the subscribe frame sent and what came, the original when shrunk); returns the replay
   * path, if written.
   */
  onChannelFailure: (
    ch: GenChannel,
    expect: 'valid' | 'invalid',
    channel: { address: string; valid?: string; subscribed?: string[] },
    call: ReplayCall,
    original: ReplayCall | undefined,
    steps: number,
  ) => string | null;
  /**
   * Record a sequence failure (its frames up to the failing step, the last one's call); returns the replay path, if
   * written.
   */
  onSequenceFailure: (name: string, sequence: SequenceRecord, call: ReplayCall) => string | null;
  /** Record a failure (its smallest call and the original); returns the replay path, if written. */
  onFailure: (
    m: GenMethod,
    transport: 'ws' | 'http',
    c: InputCase,
    call: ReplayCall,
    original: ReplayCall | undefined,
    steps: number,
  ) => string | null;
}

/** Why a method is not called on a transport, or null when it is. */
export function skipReason(env: TargetEnv, m: GenMethod, transport: 'ws' | 'http'): string | null {
  if (m.orderFlow && !env.allowOrderFlow) return 'needs --allow-order-flow (the runner never places orders without it)';
  if (m.auth === 'login' && env.session.noLogin) return `needs a login: ${env.session.noLogin}`;
  if (transport === 'http' && !env.http) return 'needs --http <url>';
  if (transport === 'http' && !m.httpPath) return 'the spec gives no HTTP path for it';
  return null;
}

/** Send one case and judge it. */
export async function runCase(
  env: TargetEnv,
  m: GenMethod,
  t: 'ws' | 'http',
  c: InputCase,
): Promise<{ ex: Exchange; verdict: Judgement }> {
  const ex = await env.session.call(m, t, toJson(c.params));
  let verdict = judge(env.spec, m, env.schemas, c, ex.outcome, ex.id);
  if (env.session.rateLimitWait(ex.outcome) !== null)
    verdict = judged(
      'inconclusive',
      'rate-limit-waited',
      'an answer once the hinted wait passed',
      `still rate limited after ${ex.retries} waits`,
    );
  return { ex, verdict };
}

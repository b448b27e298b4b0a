/**
 * Login cases with a fresh valid signature around the generated part. A login whose wallet, timestamp
 * and signature are all generated is always refused, so it says nothing of how the server treats the rest
 * of the input. Here every member a case did not set on purpose is the run wallet's fresh proof, so an
 * extra member, a missing one or a wrong-typed one meets a signature that would otherwise log in. Each
 * case goes on a connection of its own: a login that succeeds must not change the shared connections.
 */
import { signLogin } from '@exchange-api/auth';
import { toJson } from './schema-set';
import { shapeOf } from './shape';
import { typical } from './values';
import type { Exchange, Session } from './session';
import type { InputCase } from './cases';
import type { GenMethod } from './spec';
import type { SchemaSet } from './schema-set';
import type { ValueCtx } from './values';
import type { Judgement } from '../model';
import { judged } from './rules';

/** The member a case set on purpose (`/member = …`, `/member: …`, `missing required /member`), if any. */
export function touchedMember(c: InputCase): string | null {
  return /^\/([^\s:=]+)/.exec(c.why)?.[1] ?? /^missing (?:required )?\/(\S+)/.exec(c.why)?.[1] ?? null;
}

/** The case whose proof is sent with the timestamp as a JSON number: the same digits, still signed. */
const NUMERIC_TIMESTAMP = 'the proof with its timestamp as a JSON number';

/**
 * The login cases the params schema alone does not make: the proof without each of its members (the
 * schema requires none, since each may come from the headers) and the timestamp in its other allowed form.
 */
export function proofCases(env: { values: ValueCtx; schemas: SchemaSet }, m: GenMethod): InputCase[] {
  const props = Object.keys(shapeOf(env.values.doc, m.params).props);
  const full = Object.fromEntries(
    props.map((k) => [k, typical(env.values, shapeOf(env.values.doc, m.params).props[k]!, k)]),
  );
  const out: InputCase[] = props.map((k) => {
    const rest = { ...full };
    delete rest[k];
    return { expect: 'valid', why: `missing /${k}`, params: rest, cls: 'valid proof less a member' };
  });
  if (props.includes('timestamp') && env.schemas.valid(m.params, { ...full, timestamp: 1700000000000 }))
    out.push({ expect: 'valid', why: NUMERIC_TIMESTAMP, params: full, cls: 'valid proof in another form' });
  return out.filter((c) => env.schemas.valid(m.params, c.params));
}

/** The case's params with the proof's members in every place the case did not set on purpose. */
export function aroundProof(c: InputCase, proof: Record<string, string>): { params: unknown; intact: boolean } {
  const p = c.params;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return { params: p, intact: false };
  const touched = touchedMember(c);
  // `params {}` asks for no members at all: nothing of the proof is put back.
  if (Object.keys(p).length === 0) return { params: p, intact: false };
  const out: Record<string, unknown> = { ...(p as Record<string, unknown>) };
  for (const [k, v] of Object.entries(proof)) if (k !== touched) out[k] = v;
  if (c.why === NUMERIC_TIMESTAMP) out.timestamp = Number(proof.timestamp);
  return { params: out, intact: touched === null || !(touched in proof) };
}

/** Send one login case on a fresh connection, signed freshly by the session’s wallet (a run’s or a replay’s). */
export async function loginCase(
  session: Session,
  m: GenMethod,
  c: InputCase,
): Promise<{ ex: Exchange; intact: boolean } | null> {
  const wallet = session.wallet;
  if (!wallet || session.noLogin) return null;
  const { params, intact } = aroundProof(c, { ...(await signLogin(wallet)) });
  const conn = await session.fresh(false, 'generate-login-case');
  try {
    return { ex: await session.callOn(conn, m, toJson(params), false), intact };
  } finally {
    await conn.close();
  }
}

/**
 * The verdict on a login whose proof was left intact: it logs in (a result), unless the server refuses by
 * name a member the open object allows; any other refusal of a fresh valid proof is a failure.
 */
export function judgeIntact(c: InputCase, ex: Exchange, verdict: Judgement): Judgement {
  if (verdict.status === 'fail' || c.expect !== 'valid' || c.extra) return verdict;
  const o = ex.outcome;
  const body = o.kind === 'response' && typeof o.json === 'object' && o.json !== null ? o.json : null;
  if (!body || !('error' in body)) return verdict;
  return judged(
    'fail',
    'login-fresh-accepted',
    'a result (the subaccount ids)',
    o.kind === 'response' ? o.text.slice(0, 300) : '',
  );
}

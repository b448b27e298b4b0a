/**
 * The generated cases of one params schema: valid inputs (required only, every optional member present,
 * each member at each of its edges, null and {} where allowed, random ones by the seed) and invalid ones
 * (wrong types, outside enums and bounds, missing required members, unknown members where the object is
 * closed, null where not nullable). Every case is checked against the schema itself before it is sent:
 * a "valid" case the schema refuses, or an "invalid" one it accepts, is dropped.
 */
import fc from 'fast-check';
import { nullable, shapeOf, type Shape } from './shape';
import { plain, toJson, type SchemaSet } from './schema-set';
import { arbitrary, edges, typical, type ValueCtx } from './values';
import type { Schema } from './spec';

/** One generated input and what the spec says of it. */
export interface InputCase {
  expect: 'valid' | 'invalid';
  /** Why this input: which member, which edge or which violation. */
  why: string;
  /** The coverage class: `valid edge`, `valid random`, or `invalid: <the JSON Schema keyword it breaks>`. */
  cls?: string;
  params: unknown;
  /** The member set to a value the server did not list for it (an unknown instrument, …), when one is. */
  offHint?: string;
  /** A member the schema's open object allows but does not name: a server may refuse what it does not model. */
  extra?: string;
}

const EDGE = 'valid edge';

/** The member added where an object's schema allows members it does not name. */
export const EXTRA_MEMBER = 'x_extra_member';

/** How a value is named in a case's reason: short, with bigints as digits. */
export function brief(v: unknown): string {
  const t = toJson(v);
  return t.length > 40 ? `${t.slice(0, 28)}…(${t.length} chars)` : t;
}

function validCases(ctx: ValueCtx, schema: Schema | null, s: Shape, randomCount: number): InputCase[] {
  const base = typical(ctx, schema);
  const out: InputCase[] = [{ expect: 'valid', why: 'required members only', params: base, cls: EDGE }];
  if (s.types.has('object') && typeof base === 'object' && base !== null && !Array.isArray(base)) {
    const full = { ...base } as Record<string, unknown>;
    for (const [k, p] of Object.entries(s.props)) if (!(k in full)) full[k] = typical(ctx, p, k);
    out.push({ expect: 'valid', why: 'every optional member present', params: full, cls: EDGE });
    for (const [k, p] of Object.entries(s.props))
      for (const e of edges(ctx, p, k)) {
        const off = ctx.hints[k] && !ctx.hints[k]!.includes(e) ? { offHint: k } : {};
        out.push({ expect: 'valid', why: `/${k} = ${brief(e)}`, params: { ...base, [k]: e }, cls: EDGE, ...off });
      }
    if (!s.closed)
      out.push({
        expect: 'valid',
        why: `/${EXTRA_MEMBER}: a member the open object allows`,
        params: { ...base, [EXTRA_MEMBER]: 'x' },
        extra: EXTRA_MEMBER,
        cls: EDGE,
      });
    out.push({ expect: 'valid', why: 'params {}', params: {}, cls: EDGE });
  }
  out.push({ expect: 'valid', why: 'params null', params: null, cls: EDGE });
  const random = fc.sample(arbitrary(ctx, schema), { seed: ctx.seed, numRuns: randomCount });
  random.forEach((params, i) =>
    out.push({ expect: 'valid', why: `random #${i + 1} of seed ${ctx.seed}`, params, cls: 'valid random' }),
  );
  return out;
}

const WRONG_TYPES: unknown[] = ['x', 12345, true, {}, []];

function memberViolations(key: string, p: Shape, base: Record<string, unknown>): InputCase[] {
  const out: InputCase[] = [];
  const set = (why: string, v: unknown, keyword: string) =>
    out.push({ expect: 'invalid', why: `/${key}: ${why}`, params: { ...base, [key]: v }, cls: `invalid: ${keyword}` });
  if (!nullable(p)) set('null where not nullable', null, 'type');
  WRONG_TYPES.filter(
    (w) =>
      !p.types.has(
        typeof w === 'object' ? (Array.isArray(w) ? 'array' : 'object') : typeof w === 'number' ? 'integer' : typeof w,
      ),
  )
    .slice(0, 2)
    .forEach((w) => set(`wrong type ${brief(w)}`, w, 'type'));
  if (p.enum) set('outside the enumeration', 'not_a_listed_value', 'enum');
  for (const [b, d] of [
    [p.minimum, -1],
    [p.maximum, 1],
  ] as const)
    if (b !== undefined && Number.isSafeInteger(b + d))
      set(`${d < 0 ? 'below the minimum' : 'above the maximum'} ${b}`, b + d, d < 0 ? 'minimum' : 'maximum');
  if (p.minLength) set(`shorter than minLength ${p.minLength}`, 'x'.repeat(p.minLength - 1), 'minLength');
  if (p.maxLength !== undefined && p.maxLength < 70_000)
    set(`longer than maxLength ${p.maxLength}`, 'x'.repeat(p.maxLength + 1), 'maxLength');
  if (p.pattern) set(`not matching ${p.pattern}`, '!not matching!', 'pattern');
  return out;
}

function invalidCases(ctx: ValueCtx, schema: Schema | null, s: Shape, http: boolean): InputCase[] {
  const out: InputCase[] = [];
  // Over HTTP the body is the params, and a null body is a transport matter (empty params, where the spec says so).
  for (const w of http ? [[], 'x', 42] : [[], 'x', 42, null])
    out.push({ expect: 'invalid', why: `params ${brief(w)}`, params: w, cls: 'invalid: type' });
  const base = typical(ctx, schema);
  if (!s.types.has('object') || typeof base !== 'object' || base === null || Array.isArray(base)) return out;
  const b = base as Record<string, unknown>;
  for (const r of s.required) {
    const rest = { ...b };
    delete rest[r];
    out.push({ expect: 'invalid', why: `missing required /${r}`, params: rest, cls: 'invalid: required' });
  }
  if (s.closed)
    out.push({
      expect: 'invalid',
      why: 'unknown member in a closed object',
      params: { ...b, unexpected_member: 1 },
      cls: 'invalid: additionalProperties',
    });
  for (const [k, p] of Object.entries(s.props)) out.push(...memberViolations(k, shapeOf(ctx.doc, p), b));
  return out;
}

/** Every case of one params schema, each confirmed against the schema, without repeats. */
export function casesOf(
  ctx: ValueCtx,
  schemas: SchemaSet,
  schema: Schema | null,
  randomCount: number,
  transport: 'ws' | 'http' = 'ws',
): InputCase[] {
  const s = shapeOf(ctx.doc, schema);
  const all = [...validCases(ctx, schema, s, randomCount), ...invalidCases(ctx, schema, s, transport === 'http')];
  const seen = new Set<string>();
  return all.filter((c) => {
    const key = toJson(c.params);
    if (seen.has(key)) return false;
    const ok = schemas.valid(schema, c.params);
    // A value whose exact digits a JSON parser cannot hold is no evidence about an invalid case.
    if (c.expect === 'invalid' && JSON.stringify(plain(c.params)) !== toJson(c.params)) return false;
    if (ok !== (c.expect === 'valid')) return false;
    seen.add(key);
    return true;
  });
}

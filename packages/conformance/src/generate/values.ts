/**
 * Values from a schema: a typical one, the edges (every enum value, bounds, lengths, decimals with many
 * digits, 64-bit edges, null where allowed) and random ones (fast-check arbitraries, reproduced by the
 * seed). Names the server told us about (instruments, currencies, subaccounts, the wallet) are preferred
 * for fields of those names, so valid inputs reach past the "unknown instrument" answer.
 */
import fc from 'fast-check';
import { jsonType, nullable, shapeOf, type Shape } from './shape';
import type { Schema } from './spec';

/** Known values by field name (instrument_name, currency, subaccount_id, wallet, …). */
export type Hints = Record<string, unknown[]>;

/** What value generation reads: the document, the hints and the seed. */
export interface ValueCtx {
  doc: Record<string, unknown>;
  hints: Hints;
  seed: number;
}

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
/** Strings every free-text field gets. */
const FREE_STRINGS = ['', 'éü€✓𝄞', 'x'.repeat(10_000)];
/** Strings a patterned field gets, kept where the pattern accepts them (decimals with many digits, …). */
const PATTERN_STRINGS = [
  ...FREE_STRINGS,
  '0',
  '-0',
  '1.5',
  '0.000000000001',
  '-0.000000000001',
  '123456789012345678901234567890.123456789012',
  '99999999999999999999.999999999999',
  '1700000000000',
  '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
  '7f3c2a9e-1b4d-4c8a-9e2f-0a1b2c3d4e5f',
];

/** A typical valid value: the first enum value, a hint, or the simplest value of the first type. */
export function typical(ctx: ValueCtx, schema: Schema | null, name?: string, depth = 0): unknown {
  const s = shapeOf(ctx.doc, schema);
  if (name && ctx.hints[name]?.length) return ctx.hints[name]![0];
  if (s.enum?.length) return s.enum[0];
  if (s.branches.length && depth < 8) {
    const branch = s.branches.find((b) => !shapeOf(ctx.doc, b).types.has('null')) ?? s.branches[0]!;
    return typical(ctx, branch, name, depth + 1);
  }
  const t = ['object', 'string', 'integer', 'number', 'boolean', 'array', 'null'].find((x) => s.types.has(x));
  switch (t) {
    case 'object':
      return depth > 6
        ? {}
        : Object.fromEntries(s.required.map((r) => [r, typical(ctx, s.props[r] ?? null, r, depth + 1)]));
    case 'string':
      return s.pattern ? (patternSample(s.pattern, ctx.seed, 1)[0] ?? 'x') : 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
      return clamp(1, s);
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array':
      return depth > 6
        ? []
        : Array.from({ length: s.minItems ?? 0 }, () => typical(ctx, s.items, undefined, depth + 1));
    default:
      return null;
  }
}

function clamp(v: number, s: Shape): number {
  return Math.min(Math.max(v, s.minimum ?? -Infinity), s.maximum ?? Infinity);
}

/**
 * fast-check's arbitrary of the strings a pattern matches (null when it cannot make one), made once per
 * pattern: making it parses the pattern, which cost seconds of a run whose cases ask for the same few
 * patterns thousands of times. Arbitraries hold no state, so one serves every caller.
 */
const matchingArbs = new Map<string, fc.Arbitrary<string> | null>();
function matchingArb(pattern: string): fc.Arbitrary<string> | null {
  if (!matchingArbs.has(pattern)) {
    if (matchingArbs.size >= 1000) matchingArbs.clear();
    let arb: fc.Arbitrary<string> | null = null;
    try {
      arb = fc.stringMatching(new RegExp(pattern));
    } catch {
      /* an ECMAScript-incompatible pattern */
    }
    matchingArbs.set(pattern, arb);
  }
  return matchingArbs.get(pattern)!;
}

/** The samples already drawn, by seed, count and pattern: the same seed draws the same strings. */
const samples = new Map<string, string[]>();

/** Strings matching a pattern, reproduced by the seed. */
export function patternSample(pattern: string, seed: number, n: number): string[] {
  const key = `${seed} ${n} ${pattern}`;
  let drawn = samples.get(key);
  if (!drawn) {
    const arb = matchingArb(pattern);
    try {
      drawn = arb ? fc.sample(arb, { seed, numRuns: n }) : [];
    } catch {
      drawn = [];
    }
    if (samples.size >= 10_000) samples.clear();
    samples.set(key, drawn);
  }
  return [...drawn];
}

function integerEdges(s: Shape): unknown[] {
  const out: unknown[] = [0, -1, Number.MAX_SAFE_INTEGER, INT64_MAX, INT64_MIN];
  for (const b of [s.minimum, s.maximum]) if (b !== undefined && Number.isSafeInteger(b)) out.push(b);
  return out;
}

function stringEdges(s: Shape, seed: number): unknown[] {
  const out: unknown[] = s.pattern ? [...PATTERN_STRINGS] : [...FREE_STRINGS];
  if (s.minLength !== undefined) out.push('x'.repeat(s.minLength));
  if (s.maxLength !== undefined && s.maxLength <= 70_000) out.push('x'.repeat(s.maxLength));
  if (s.pattern) out.push(...patternSample(s.pattern, seed, 3));
  return out;
}

/** The edge values of a field (not all valid: the caller keeps those its schema accepts). */
export function edges(ctx: ValueCtx, schema: Schema | null, name?: string): unknown[] {
  const s = shapeOf(ctx.doc, schema);
  const out: unknown[] = [];
  if (name && ctx.hints[name]) out.push(...ctx.hints[name]!);
  if (s.enum) return [...out, ...s.enum];
  for (const b of s.branches) out.push(...edges(ctx, b, name));
  if (s.types.has('string')) out.push(...stringEdges(s, ctx.seed));
  if (s.types.has('integer')) out.push(...integerEdges(s));
  if (s.types.has('number')) out.push(1.5, -0.000000000001, 123456789.12345679, 1e21);
  if (s.types.has('boolean')) out.push(true, false);
  if (nullable(s)) out.push(null);
  if (s.types.has('array')) out.push([], [typical(ctx, s.items)]);
  return dedupe(out);
}

/** Distinct values (by JSON text, bigints by digits). */
export function dedupe(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = `${jsonType(v)}:${typeof v === 'bigint' ? v.toString() : JSON.stringify(v)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A fast-check arbitrary of (mostly) valid values of a schema. */
export function arbitrary(ctx: ValueCtx, schema: Schema | null, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const s = shapeOf(ctx.doc, schema);
  const hint = name ? ctx.hints[name] : undefined;
  if (hint?.length) return fc.constantFrom(...hint);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if (depth > 4) return fc.constant(typical(ctx, schema, name, depth));
  const arbs: fc.Arbitrary<unknown>[] = s.branches.map((b) => arbitrary(ctx, b, name, depth + 1));
  if (!s.branches.length) {
    if (s.types.has('object')) arbs.push(objectArb(ctx, s, depth));
    if (s.types.has('string')) arbs.push(stringArb(s));
    if (s.types.has('integer'))
      arbs.push(
        fc.integer({
          min: Math.max(s.minimum ?? -1e15, -Number.MAX_SAFE_INTEGER),
          max: Math.min(s.maximum ?? 1e15, Number.MAX_SAFE_INTEGER),
        }),
      );
    if (s.types.has('number') && !s.types.has('integer'))
      arbs.push(fc.double({ noNaN: true, noDefaultInfinity: true }));
    if (s.types.has('boolean')) arbs.push(fc.boolean());
    if (s.types.has('null')) arbs.push(fc.constant(null));
    if (s.types.has('array')) arbs.push(fc.array(arbitrary(ctx, s.items, undefined, depth + 1), { maxLength: 3 }));
  }
  return arbs.length ? fc.oneof(...arbs) : fc.constant(null);
}

function stringArb(s: Shape): fc.Arbitrary<unknown> {
  // An ECMAScript-incompatible pattern: plain strings.
  const matching = s.pattern ? matchingArb(s.pattern) : null;
  if (matching) return matching;
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
}

function objectArb(ctx: ValueCtx, s: Shape, depth: number): fc.Arbitrary<unknown> {
  const keys = Object.keys(s.props);
  if (!keys.length) return fc.constant({});
  const model = Object.fromEntries(keys.map((k) => [k, arbitrary(ctx, s.props[k]!, k, depth + 1)]));
  return fc.record(model, { requiredKeys: s.required.filter((r) => keys.includes(r)) });
}

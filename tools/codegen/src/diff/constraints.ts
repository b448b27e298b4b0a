/**
 * Whether the values a schema allows grew, shrank or moved: bounds, lengths, patterns with numeric
 * quantifiers (a Decimal's `{1,12}` fractional digits), formats and multiples, the keywords that hold
 * a value to one more condition (`not`, `if`/`then`, `contains`, `uniqueItems`, ...), and any other
 * keyword the diff does not compare, which moves (never silently).
 */
import type { JsonSchema } from '../model/types';
import { show } from './change';
import { nonNullBranch } from '../model/schema-tools';
import { ANNOTATION_KEYWORDS, LOWER_BOUNDS, UPPER_BOUNDS } from '@exchange-api/types/json-schema-keywords';
import { isObj } from '../load/spec-types';
import { meaning } from './schema-shapes';

export type Movement = 'narrowed' | 'widened' | 'changed';

const OTHER = ['format', 'multipleOf', 'const'];

/**
 * Keywords that, where they stand, hold a value to one more condition the walk does not look into:
 * one that appears narrows what is accepted, one that goes widens it, one that changes moves it.
 */
const CONDITIONS = [
  'uniqueItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'propertyNames',
  'patternProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];

/** Keywords the walk compares itself (schema-walk.ts), and those that only annotate. */
const WALKED = ['$ref', 'type', 'enum', 'properties', 'required', 'additionalProperties', 'allOf', 'anyOf', 'oneOf'];
const COMPARED = new Set([
  ...UPPER_BOUNDS,
  ...LOWER_BOUNDS,
  ...OTHER,
  ...CONDITIONS,
  ...WALKED,
  ...ANNOTATION_KEYWORDS,
  'pattern',
  'items',
  'prefixItems',
]);

/** A condition that holds a value to nothing (`uniqueItems: false`, `propertyNames: {}`): as if it were not there. */
const holdsNothing = (key: string, value: unknown): boolean =>
  key === 'uniqueItems'
    ? value !== true
    : !['contains', 'not', 'if'].includes(key) && (value === true || (isObj(value) && Object.keys(value).length === 0));

const valueSchema = (schema: JsonSchema): JsonSchema => nonNullBranch(schema).schema;

const QUANTIFIER = /\{(\d+)(?:(,)(\d*))?\}/g;

/** Compare two patterns that differ only in their numeric quantifiers; anything else is a move. */
export function comparePatterns(before: string, after: string): Movement {
  const shape = (p: string) => p.replace(QUANTIFIER, '{}');
  if (shape(before) !== shape(after)) return 'changed';
  const bounds = (p: string) =>
    [...p.matchAll(QUANTIFIER)].map((m) => ({
      min: Number(m[1]),
      max: m[2] ? (m[3] ? Number(m[3]) : Infinity) : Number(m[1]),
    }));
  const a = bounds(before);
  const b = bounds(after);
  const wider = a.every((q, i) => b[i]!.min <= q.min && b[i]!.max >= q.max);
  const narrower = a.every((q, i) => b[i]!.min >= q.min && b[i]!.max <= q.max);
  return wider ? 'widened' : narrower ? 'narrowed' : 'changed';
}

/** One constraint that moved, e.g. `maxLength 64 → 32 (narrowed)`. */
export interface ConstraintMove {
  key: string;
  movement: Movement;
  text: string;
}

/** The exact text of a number of the spec at a key of a schema, when it lies beyond JavaScript's exact range. */
export type ExactText = (key: string) => string | undefined;

/** A bound as written in the spec: the exact text of a 64-bit integer (its double lost digits), else the number. */
const boundText = (value: unknown, exact: string | undefined): string | undefined =>
  value === undefined ? undefined : (exact ?? (typeof value === 'number' ? String(value) : JSON.stringify(value)));

/** Compare two bounds by their text: integers exactly (as big integers), others as numbers. -1, 0 or 1. */
function compareBounds(x: string, y: string): number {
  if (/^-?[0-9]+$/.test(x) && /^-?[0-9]+$/.test(y)) {
    const a = BigInt(x);
    const b = BigInt(y);
    return a === b ? 0 : a < b ? -1 : 1;
  }
  const a = Number(x);
  const b = Number(y);
  return a === b ? 0 : a < b ? -1 : 1;
}

/** A pattern as people write it: plain, in backticks (never escaped as JSON). */
const plain = (p: string | undefined) => (p === undefined ? 'none' : `\`${p}\``);

/**
 * Every constraint of a value schema that moved between two versions. Bounds compare by their exact
 * text (`exactBefore`/`exactAfter` give the spec's text of an integer beyond 2^53, which a double rounds).
 */
export function constraintMoves(
  beforeSchema: JsonSchema,
  afterSchema: JsonSchema,
  exactBefore: ExactText = () => undefined,
  exactAfter: ExactText = () => undefined,
): ConstraintMove[] {
  const a = valueSchema(beforeSchema);
  const b = valueSchema(afterSchema);
  const moves: ConstraintMove[] = [];
  const add = (key: string, movement: Movement, from: string, to: string) =>
    moves.push({ key, movement, text: `${key} ${from} → ${to} (${movement})` });
  for (const key of [...UPPER_BOUNDS, ...LOWER_BOUNDS]) {
    const x = boundText(a[key], exactBefore(key));
    const y = boundText(b[key], exactAfter(key));
    if (x === y || (x !== undefined && y !== undefined && compareBounds(x, y) === 0)) continue;
    const upper = UPPER_BOUNDS.includes(key);
    // A bound that appears narrows; one that goes away widens.
    const movement: Movement =
      x === undefined
        ? 'narrowed'
        : y === undefined
          ? 'widened'
          : compareBounds(y, x) > 0 === upper
            ? 'widened'
            : 'narrowed';
    add(key, movement, x ?? 'none', y ?? 'none');
  }
  if (a.pattern !== b.pattern) {
    const x = a.pattern as string | undefined;
    const y = b.pattern as string | undefined;
    add(
      'pattern',
      x === undefined ? 'narrowed' : y === undefined ? 'widened' : comparePatterns(x, y),
      plain(x),
      plain(y),
    );
  }
  for (const key of OTHER) {
    if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
    add(
      key,
      a[key] === undefined ? 'narrowed' : b[key] === undefined ? 'widened' : 'changed',
      a[key] === undefined ? 'none' : show(a[key]),
      b[key] === undefined ? 'none' : show(b[key]),
    );
  }
  moves.push(...conditionMoves(a, b), ...uncomparedMoves(a, b));
  return moves;
}

const shown = (value: unknown) => (value === undefined ? 'none' : show(value));

/**
 * The conditions that appeared, went or changed. On a closed record, patternProperties also let in
 * fields it refused: the walk reports that as a record change (`record.pattern-fields-changed`).
 */
function conditionMoves(a: JsonSchema, b: JsonSchema): ConstraintMove[] {
  const closed = a.additionalProperties === false || b.additionalProperties === false;
  const moves: ConstraintMove[] = [];
  for (const key of CONDITIONS) {
    if (key === 'patternProperties' && closed) continue;
    const x = a[key] === undefined || holdsNothing(key, a[key]) ? undefined : a[key];
    const y = b[key] === undefined || holdsNothing(key, b[key]) ? undefined : b[key];
    if (meaning(x) === meaning(y)) continue;
    const movement: Movement = x === undefined ? 'narrowed' : y === undefined ? 'widened' : 'changed';
    moves.push({ key, movement, text: `${key} ${shown(x)} → ${shown(y)} (${movement})` });
  }
  return moves;
}

/** Keywords the diff does not compare, added, removed or changed: whether they narrow or widen is not known. */
function uncomparedMoves(a: JsonSchema, b: JsonSchema): ConstraintMove[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys]
    .filter((key) => !COMPARED.has(key) && !key.startsWith('x-') && meaning(a[key]) !== meaning(b[key]))
    .map((key) => ({
      key,
      movement: 'changed' as const,
      text: `${key} ${shown(a[key])} → ${shown(b[key])} (not compared by the diff: review it)`,
    }));
}

/** One movement for a set of moves: all one way, or changed. */
export function overall(moves: readonly ConstraintMove[]): Movement {
  const kinds = new Set(moves.map((m) => m.movement));
  return kinds.size === 1 ? [...kinds][0]! : 'changed';
}

/** The inline enum of a value schema, or null. */
export function inlineEnum(schema: JsonSchema): Array<string | number> | null {
  const e = valueSchema(schema).enum;
  return Array.isArray(e) ? (e as Array<string | number>) : null;
}

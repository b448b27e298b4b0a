/**
 * The addresses of a channel template: its parameters filled in with every value the spec enumerates or the
 * server named (valid), with a value outside an enumeration (invalid), and with values too long to take (long).
 */
import type { TargetEnv } from './target-env';
import type { GenChannel } from './spec';

/** The template with each {name} replaced by its value; a name with no value is left as it is. */
function fill(address: string, values: Record<string, string>): string {
  return address.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? `{${name}}`);
}

/** At most this many combinations of the enumerated parameters are subscribed together; past it, one at a time. */
export const MAX_COMBINATIONS = 64;

/** Lengths of a parameter's value past any a server should take: each must still be answered. */
export const LONG_VALUE_LENGTHS = [1024, 16_384] as const;

/** Every combination of the listed values (the cartesian product), in order. */
function product(lists: [string, string[]][]): Record<string, string>[] {
  return lists.reduce<Record<string, string>[]>(
    (acc, [k, vs]) => acc.flatMap((a) => vs.map((v) => ({ ...a, [k]: v }))),
    [{}],
  );
}

/**
 * The addresses of a template. Valid: every combination of the enumerated parameters (every group ×
 * depth of a book) when there are at most MAX_COMBINATIONS, else each value one at a time; each value the
 * server named (instruments, currencies) one at a time, the others at their first. Invalid: a value
 * outside an enumeration. Long: the first parameter at each of LONG_VALUE_LENGTHS.
 */
export function addressesOf(
  ch: GenChannel,
  env: TargetEnv,
): {
  valid: string[];
  invalid: string[];
  long: string[];
  missing: string | null;
  values: Record<string, string[]>;
} {
  const values: Record<string, string[]> = {};
  for (const p of ch.parameters) {
    values[p.name] = p.enum ?? (env.values.hints[p.name] ?? []).map(String);
    if (!values[p.name]!.length) return { valid: [], invalid: [], long: [], missing: p.name, values };
  }
  const first = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v[0]!]));
  const enumerated = ch.parameters.filter((p) => p.enum).map((p) => [p.name, values[p.name]!] as [string, string[]]);
  const combos = product(enumerated);
  const valid = new Set<string>([fill(ch.address, first)]);
  if (combos.length <= MAX_COMBINATIONS) for (const c of combos) valid.add(fill(ch.address, { ...first, ...c }));
  for (const [k, vs] of Object.entries(values)) for (const v of vs) valid.add(fill(ch.address, { ...first, [k]: v }));
  const invalid = ch.parameters
    .filter((p) => p.enum)
    .map((p) => fill(ch.address, { ...first, [p.name]: 'not_a_listed_value' }));
  const lead = ch.parameters[0]?.name;
  const long = lead ? LONG_VALUE_LENGTHS.map((n) => fill(ch.address, { ...first, [lead]: 'x'.repeat(n) })) : [];
  return { valid: [...valid], invalid, long, missing: null, values };
}

/** One change between two specs, classified for both sides. */
import { verdictOf, type Flow, type RuleId, type Severity } from './rules';

export interface Change {
  rule: RuleId;
  /** What changed, e.g. `channel orderbook`, `record Order, field amount`. */
  subject: string;
  /** The change in a few words, e.g. `values added: "rfq"`. */
  detail: string;
  /** For a schema change: which way the data flows (empty: not a schema change). */
  flows: Flow[];
  client: Severity;
  server: Severity;
  why: string;
  /** Generated TypeScript names (types, channel address types, method map entries) that change or disappear. */
  names: string[];
}

/** A change under `rule`, classified for data flowing `flows`. */
export function change(
  rule: RuleId,
  subject: string,
  detail: string,
  options: { flows?: Flow[]; names?: string[] } = {},
): Change {
  const flows = options.flows ?? [];
  return { rule, subject, detail, flows, ...verdictOf(rule, flows), names: options.names ?? [] };
}

/** A short, stable rendering of a value for a detail line. */
export const show = (value: unknown): string => {
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 80 ? s.slice(0, 77) + '...' : s;
};

/** What was added to and removed from a list, in the new and old order. */
export function listDelta<T>(before: readonly T[], after: readonly T[]): { added: T[]; removed: T[] } {
  return { added: after.filter((x) => !before.includes(x)), removed: before.filter((x) => !after.includes(x)) };
}

/**
 * The rules of `exchange-api diff`: each kind of change, classified separately for the two sides.
 * The client side asks "does a program built against the old spec (or an SDK regenerated from the new
 * one) still work against a server of the new spec?"; the server side asks "does a server built for
 * the old spec still conform to the new one?". A schema change depends on which way its data flows:
 * `input` is what clients send (params, channel addresses), `output` what servers send (results,
 * notifications).
 */
import { SURFACE_RULES } from './rules-surface';
import { TABLE_RULES } from './rules-tables';
import { FLOW_RULES } from './rules-schemas';
import { worst, type Flow, type Verdict } from './severity';

export { SEVERITIES, atLeast, type Severity, type Flow, type Verdict } from './severity';
export { FLOW_RULES } from './rules-schemas';

/** Rules whose verdict does not depend on the direction of data. */
export const FIXED_RULES = { ...SURFACE_RULES, ...TABLE_RULES };

export type FixedRule = keyof typeof FIXED_RULES;
export type FlowRule = keyof typeof FLOW_RULES;
export type RuleId = FixedRule | FlowRule;

/**
 * The verdict of a rule for data flowing the given ways: a schema both sent and received takes the
 * worse of the two verdicts on each side.
 */
export function verdictOf(rule: RuleId, flows: readonly Flow[]): Verdict {
  if (rule in FIXED_RULES) return FIXED_RULES[rule as FixedRule];
  const byFlow = FLOW_RULES[rule as FlowRule];
  const used = flows.length > 0 ? flows : (['input', 'output'] as const);
  const verdicts = used.map((f) => byFlow[f]);
  return {
    client: verdicts.map((x) => x.client).reduce(worst),
    server: verdicts.map((x) => x.server).reduce(worst),
    why: verdicts
      .map((x, i) =>
        used.length > 1 ? `${used[i] === 'input' ? 'sent by clients' : 'sent by servers'}: ${x.why}` : x.why,
      )
      .join(' '),
  };
}

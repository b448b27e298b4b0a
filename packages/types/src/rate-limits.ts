/**
 * This interface's tier-1 budgets: the rules of rate-limit-rules.ts applied to its own generated tables
 * (methodTable's class, budget and rule; rateLimitClassTable; limitTable), typed by them, so the sandbox
 * that enforces the budgets and the client that mirrors them cannot drift apart.
 */
import { limitTable, methodTable, rateLimitClassTable, type LimitEntry } from './generated/tables.gen';
import { rateLimitRules, type BudgetKey, type BudgetRefOf } from './rate-limit-rules';

/** A limitTable entry that is a fixed-window request budget. */
export type WindowLimitEntry = Extract<LimitEntry, { kind: 'window' }>;

/** The id of a fixed-window request budget in limitTable. */
export type WindowLimitId = WindowLimitEntry['id'];

export type { BudgetKey };

/** The budget a request spends its point on, and what that budget is counted per. */
export type BudgetRef = BudgetRefOf<WindowLimitId>;

/**
 * A method's own budget logic (rate-limit class `own-logic`): no per-request decrement, or one budget
 * when the request names a single instrument (`params.instrument_name`) and another otherwise.
 */
export type RateLimitRule =
  { readonly decrement: 'none' } | { readonly singleInstrument: WindowLimitId; readonly otherwise: WindowLimitId };

/** A method's rate-limit row, with its rule typed (the assignment checks the generated table against RateLimitRule). */
interface MethodLimits {
  name: string;
  rateLimitClass: string | null;
  rateLimitBudget: WindowLimitId | null;
  rateLimitRule: RateLimitRule | null;
}

// A window's scope is what its budget is counted per: a scope the table gains fails here until BudgetKey has it.
type _ScopeIsKey<S extends BudgetKey = WindowLimitEntry['scope']> = S;
const rows: ReadonlyArray<MethodLimits> = methodTable;
const rules = rateLimitRules({ methods: rows, rateLimitClasses: rateLimitClassTable, limits: limitTable });

if (rules.defaultClass === null)
  throw new Error('rateLimitClassTable has no class with default: true; methods outside methodTable need one');

/** The rate-limit class every method without one of its own falls under (the entry with `default: true`). */
export const defaultRateLimitClass: string = rules.defaultClass;

/**
 * The per-IP budget that public traffic draws on before login (the window limit scoped to the IP), or
 * null when the spec has none and pre-login traffic is not limited per request.
 */
export const publicBudget = rules.publicBudget as WindowLimitId | null;

/** The budget a rate-limit class draws on, or null when the class leaves it to each method (per-method, own-logic). */
export const classBudgetOf = rules.classBudgetOf as (className: string) => WindowLimitId | null;

/**
 * The tier-1 budget a request of `methodName` with `params` spends one point on, or null when the
 * request has no per-request decrement. Authenticated traffic is keyed by wallet (or wallet and method,
 * as the budget's scope says); before login every decremented request draws on the per-IP public
 * budget, whatever its class. A method missing from methodTable falls under the default class.
 */
export const budgetOf = rules.budgetOf as (
  methodName: string,
  params: unknown,
  authenticated: boolean,
) => BudgetRef | null;

/**
 * The budget public/getRateLimits reports for a method under `remaining_per_endpoint`: its dedicated
 * budget (per-method), or the one its rule uses across instruments (own-logic); null for the others.
 */
export const endpointBudgetOf = rules.endpointBudgetOf as (methodName: string) => WindowLimitId | null;

/**
 * The key a method's budget has under `remaining_per_endpoint`: the name the rate-limit tables give it
 * (`cancel_all` for the wire name `private/cancel_all`), else the method's own name.
 */
export const endpointKeyOf = rules.endpointKeyOf;

/** The limitTable entry with this id and kind; throws, naming both, when the table has none. */
export function limitOf<K extends LimitEntry['kind']>(id: string, kind: K): Extract<LimitEntry, { kind: K }> {
  const l = limitTable.find((e): e is Extract<LimitEntry, { kind: K }> => e.id === id && e.kind === kind);
  if (!l) throw new Error(`limitTable has no ${kind} limit '${id}' (x-limits in the spec)`);
  return l;
}

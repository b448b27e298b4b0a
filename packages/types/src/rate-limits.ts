/**
 * Which tier-1 budget a request draws on, read from the generated tables (methodTable's class, budget
 * and rule; rateLimitClassTable; limitTable), so the sandbox that enforces the budgets and the client
 * that mirrors them cannot drift apart.
 */
import { limitTable, methodTable, rateLimitClassTable, type LimitEntry } from './generated/tables.gen';

/** A limitTable entry that is a fixed-window request budget. */
export type WindowLimitEntry = Extract<LimitEntry, { kind: 'window' }>;

/** The id of a fixed-window request budget in limitTable. */
export type WindowLimitId = WindowLimitEntry['id'];

/** What a budget is counted per: the source IP, the wallet, or the wallet and the method together. */
export type BudgetKey = 'ip' | 'wallet' | 'wallet-method';

/** The budget a request spends its point on, and what that budget is counted per. */
export interface BudgetRef {
  budget: WindowLimitId;
  key: BudgetKey;
}

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

const windows = new Map<string, WindowLimitEntry>();
for (const l of limitTable) if (l.kind === 'window') windows.set(l.id, l);

/** A budget id the tables name, checked to be a window limit, so a spec slip stops at import and not at the first request. */
function windowId(id: string, where: string): WindowLimitId {
  const w = windows.get(id);
  if (!w)
    throw new Error(
      `${where} names budget '${id}', which is not a window limit of limitTable (ids: ${[...windows.keys()].join(', ')})`,
    );
  return w.id;
}

// A window's scope is what its budget is counted per; the type check ties BudgetKey to the table's scopes.
const keyOf = (id: WindowLimitId): BudgetKey => windows.get(id)!.scope;

const defaultClass = rateLimitClassTable.find((c) => c.default);
if (!defaultClass)
  throw new Error('rateLimitClassTable has no class with default: true; methods outside methodTable need one');

/** The rate-limit class every method without one of its own falls under (the entry with `default: true`). */
export const defaultRateLimitClass: string = defaultClass.name;

const classBudget = new Map<string, string>(rateLimitClassTable.map((c) => [c.name, c.budget]));
for (const c of rateLimitClassTable)
  if (c.budget !== 'per-method' && c.budget !== 'own-logic') windowId(c.budget, `rate-limit class '${c.name}'`);

const methods = new Map<string, MethodLimits>();
for (const m of methodTable) {
  const row: MethodLimits = m;
  if (row.rateLimitClass !== null && !classBudget.has(row.rateLimitClass))
    throw new Error(`method ${m.name} has rate-limit class '${row.rateLimitClass}', which rateLimitClassTable lacks`);
  methods.set(m.name, row);
}

/**
 * The per-IP budget that public traffic draws on before login (the window limit scoped to the IP), or
 * null when the spec has none and pre-login traffic is not limited per request.
 */
export const publicBudget: WindowLimitId | null = [...windows.values()].find((w) => w.scope === 'ip')?.id ?? null;

/** The budget a rate-limit class draws on, or null when the class leaves it to each method (per-method, own-logic). */
export function classBudgetOf(className: string): WindowLimitId | null {
  const b = classBudget.get(className);
  return b === undefined || b === 'per-method' || b === 'own-logic'
    ? null
    : windowId(b, `rate-limit class '${className}'`);
}

/**
 * The authenticated budget of a request: class → budget → the method's own budget (per-method) or its
 * rule (own-logic). A method missing from methodTable falls under the default class.
 */
function walletBudget(methodName: string, params: unknown): WindowLimitId | null {
  const m = methods.get(methodName);
  const cls = m?.rateLimitClass ?? defaultRateLimitClass;
  const budget = classBudget.get(cls);
  if (budget === 'per-method') return m?.rateLimitBudget ?? null;
  if (budget === 'own-logic') {
    const rule = m?.rateLimitRule ?? null;
    if (!rule || 'decrement' in rule) return null;
    return namesInstrument(params) ? rule.singleInstrument : rule.otherwise;
  }
  return classBudgetOf(cls);
}

/**
 * The tier-1 budget a request of `methodName` with `params` spends one point on, or null when the
 * request has no per-request decrement. Authenticated traffic is keyed by wallet (or wallet and method,
 * as the budget's scope says); before login every decremented request draws on the per-IP public
 * budget, whatever its class.
 */
export function budgetOf(methodName: string, params: unknown, authenticated: boolean): BudgetRef | null {
  const budget = walletBudget(methodName, params);
  if (budget === null) return null;
  if (!authenticated) return publicBudget === null ? null : { budget: publicBudget, key: 'ip' };
  return { budget, key: keyOf(budget) };
}

/**
 * The budget public/getRateLimits reports for a method under `remaining_per_endpoint`: its dedicated
 * budget (per-method), or the one its rule uses across instruments (own-logic); null for the others.
 */
export function endpointBudgetOf(methodName: string): WindowLimitId | null {
  const m = methods.get(methodName);
  if (!m) return null;
  if (m.rateLimitBudget !== null) return m.rateLimitBudget;
  return m.rateLimitRule && !('decrement' in m.rateLimitRule) ? m.rateLimitRule.otherwise : null;
}

/** The limitTable entry with this id and kind; throws, naming both, when the table has none. */
export function limitOf<K extends LimitEntry['kind']>(id: string, kind: K): Extract<LimitEntry, { kind: K }> {
  const l = limitTable.find((e): e is Extract<LimitEntry, { kind: K }> => e.id === id && e.kind === kind);
  if (!l) throw new Error(`limitTable has no ${kind} limit '${id}' (x-limits in the spec)`);
  return l;
}

function namesInstrument(params: unknown): boolean {
  return (
    typeof params === 'object' &&
    params !== null &&
    typeof (params as { instrument_name?: unknown }).instrument_name === 'string'
  );
}

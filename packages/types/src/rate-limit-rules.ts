/**
 * Which tier-1 budget a request draws on, read from any API's tables (its methods' class, budget and
 * rule; its rate-limit classes; its limits). The client's limiter reads the tables of the API it is
 * given, so an SDK generated for another spec is throttled by that spec's budgets, never by this
 * interface's; rate-limits.ts applies it to this interface's own tables.
 */

/** What a budget is counted per: the source IP, the wallet, or the wallet and the method together. */
export type BudgetKey = 'ip' | 'wallet' | 'wallet-method';

/** A method's own budget logic (class budget `own-logic`): no per-request decrement, or a budget by instrument. */
export type RateLimitRuleEntry =
  { readonly decrement: string } | { readonly singleInstrument: string; readonly otherwise: string };

/** A method row as the rules read it (the generated methodTable fits). */
export interface RateLimitMethodEntry {
  readonly name: string;
  readonly rateLimitClass?: string | null;
  readonly rateLimitBudget?: string | null;
  readonly rateLimitRule?: RateLimitRuleEntry | null;
  /** The name the rate-limit tables give the method (its `remaining_per_endpoint` key), when not its own name. */
  readonly rateLimitKey?: string | null;
}

/** A rate-limit class (x-rate-limit-classes): a window limit's id, or `per-method` / `own-logic`. */
export interface RateLimitClassEntry {
  readonly name: string;
  readonly default?: boolean;
  readonly budget: string;
}

/** A limit (x-limits): `window` limits are the budgets; the fields of the other kinds are read by their users. */
export interface LimitTableEntry {
  readonly id: string;
  readonly kind: string;
  readonly scope?: string;
  readonly points?: number;
  readonly windowMs?: number;
  readonly refillPerSecond?: number;
  readonly capacity?: number;
  readonly instrumentTypes?: ReadonlyArray<string>;
}

/** The tables the rules read: an API without rate-limit classes or limits has no budgets at all. */
export interface RateLimitTables {
  readonly methods: ReadonlyArray<RateLimitMethodEntry>;
  readonly rateLimitClasses?: ReadonlyArray<RateLimitClassEntry>;
  readonly limits?: ReadonlyArray<LimitTableEntry>;
}

/** The budget a request spends its point on, and what that budget is counted per. */
export interface BudgetRefOf<Id extends string = string> {
  budget: Id;
  key: BudgetKey;
}

/** The budgets of one API, as functions of a request. */
export interface RateLimitRules {
  /** The rate-limit class of methods without one (the class with `default: true`), or null when none is. */
  readonly defaultClass: string | null;
  /** The per-IP window that traffic before login draws on, or null when the API has none. */
  readonly publicBudget: string | null;
  /** The tier-1 budget a request spends one point on, or null when it has no per-request decrement. */
  budgetOf(methodName: string, params: unknown, authenticated: boolean): BudgetRefOf | null;
  /** The budget a class draws on, or null when it leaves it to each method (per-method, own-logic) or is unknown. */
  classBudgetOf(className: string): string | null;
  /** The budget `remaining_per_endpoint` reports for a method: its own (per-method), or its rule's `otherwise`. */
  endpointBudgetOf(methodName: string): string | null;
  /** The key of a method under `remaining_per_endpoint`: its rate-limit key, else its name. */
  endpointKeyOf(methodName: string): string;
  /** The method a `remaining_per_endpoint` key stands for (the inverse of endpointKeyOf), or the key itself. */
  methodOfEndpointKey(key: string): string;
}

const PER_METHOD = 'per-method';
const OWN_LOGIC = 'own-logic';
const KEYS: ReadonlyArray<string> = ['ip', 'wallet', 'wallet-method'] satisfies BudgetKey[];

/** The window limits, class budgets and method rows of `tables`, each budget they name checked to be a window. */
function readTables(tables: RateLimitTables) {
  const windows = new Map<string, LimitTableEntry>();
  for (const l of tables.limits ?? []) if (l.kind === 'window') windows.set(l.id, l);
  const windowId = (id: string, where: string): void => {
    if (windows.has(id)) return;
    const ids = [...windows.keys()].join(', ') || 'none';
    throw new Error(`${where} names budget '${id}', which is not a window limit of the limits (window ids: ${ids})`);
  };
  const classBudget = new Map<string, string>();
  for (const c of tables.rateLimitClasses ?? []) {
    if (c.budget !== PER_METHOD && c.budget !== OWN_LOGIC) windowId(c.budget, `rate-limit class '${c.name}'`);
    classBudget.set(c.name, c.budget);
  }
  const methods = new Map<string, RateLimitMethodEntry>();
  for (const m of tables.methods) {
    if (m.rateLimitClass != null && !classBudget.has(m.rateLimitClass))
      throw new Error(`method ${m.name} has rate-limit class '${m.rateLimitClass}', which the rate-limit classes lack`);
    if (m.rateLimitBudget != null) windowId(m.rateLimitBudget, `method ${m.name}`);
    const rule = m.rateLimitRule;
    if (rule && !('decrement' in rule)) {
      windowId(rule.singleInstrument, `the rate-limit rule of ${m.name}`);
      windowId(rule.otherwise, `the rate-limit rule of ${m.name}`);
    }
    methods.set(m.name, m);
  }
  return { windows, classBudget, methods };
}

/**
 * The rules of `tables`. Throws an Error naming the table and entry when a class, method or rule names
 * a budget that is not a window limit, or a method names a class the tables lack, so a slip in a spec
 * stops where the tables are read and not at the first request.
 */
export function rateLimitRules(tables: RateLimitTables): RateLimitRules {
  const { windows, classBudget, methods } = readTables(tables);
  const byKey = new Map([...methods.values()].filter((m) => m.rateLimitKey).map((m) => [m.rateLimitKey!, m.name]));
  const classes = tables.rateLimitClasses ?? [];
  const defaultClass = classes.find((c) => c.default)?.name ?? null;
  const publicBudget = [...windows.values()].find((w) => w.scope === 'ip')?.id ?? null;
  // A window's scope is what its budget is counted per; an unknown scope counts per wallet (the narrowest a client
  // knows).
  const keyOf = (id: string): BudgetKey => {
    const scope = windows.get(id)?.scope ?? 'wallet';
    return (KEYS.includes(scope) ? scope : 'wallet') as BudgetKey;
  };
  const classBudgetOf = (className: string): string | null => {
    const b = classBudget.get(className);
    return b === undefined || b === PER_METHOD || b === OWN_LOGIC ? null : b;
  };
  // The authenticated budget: class → budget → the method's own budget (per-method) or its rule (own-logic).
  const walletBudget = (methodName: string, params: unknown): string | null => {
    const m = methods.get(methodName);
    const cls = m?.rateLimitClass ?? defaultClass;
    if (cls === null) return null;
    const budget = classBudget.get(cls);
    if (budget === PER_METHOD) return m?.rateLimitBudget ?? null;
    if (budget === OWN_LOGIC) {
      const rule = m?.rateLimitRule ?? null;
      if (!rule || 'decrement' in rule) return null;
      return namesInstrument(params) ? rule.singleInstrument : rule.otherwise;
    }
    return classBudgetOf(cls);
  };
  return {
    defaultClass,
    publicBudget,
    classBudgetOf,
    budgetOf(methodName, params, authenticated) {
      const budget = walletBudget(methodName, params);
      if (budget === null) return null;
      // Before login the server knows no wallet: every decremented request draws on the per-IP budget.
      if (!authenticated) return publicBudget === null ? null : { budget: publicBudget, key: 'ip' };
      return { budget, key: keyOf(budget) };
    },
    endpointBudgetOf(methodName) {
      const m = methods.get(methodName);
      if (!m) return null;
      if (m.rateLimitBudget != null) return m.rateLimitBudget;
      return m.rateLimitRule && !('decrement' in m.rateLimitRule) ? m.rateLimitRule.otherwise : null;
    },
    endpointKeyOf: (methodName) => methods.get(methodName)?.rateLimitKey ?? methodName,
    methodOfEndpointKey: (key) => byKey.get(key) ?? key,
  };
}

/** Whether the params name one instrument (`instrument_name`, a string): what own-logic rules branch on. */
export function namesInstrument(params: unknown): boolean {
  return (
    typeof params === 'object' &&
    params !== null &&
    typeof (params as { instrument_name?: unknown }).instrument_name === 'string'
  );
}

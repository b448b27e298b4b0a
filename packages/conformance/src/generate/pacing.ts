/**
 * Pacing a generated run: each budget of the spec's limit table (x-limits) refined from the server's own
 * getRateLimits answer where the spec has that method, like the hand runner's discovery. The answer's
 * `remaining_<class>` objects are the class budgets (before login the default class reports the per-IP
 * budget), `remaining_per_endpoint` the per-method ones. A budget's size is what the server reports
 * (remainingPoints + consumedPoints); its window the server's only when the answer was the first request
 * of it (msBeforeNext is then the whole window), else the spec's. Never faster than the server says.
 */
import type { GenLimit, GenSpec } from './spec';

/** One budget as a run paces under it. */
export interface PaceBudget {
  /** The limit id of the spec's table (`public`, `non_matching`, …). */
  id: string;
  points: number;
  windowMs: number;
  /** Where the points come from. */
  source: 'server' | 'spec';
  /**
   * Set when the window is the server's too (else the spec's: getRateLimits gives it only in the window's first
   * answer).
   */
  windowFromServer?: true;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The getRateLimits method of a spec (public/getRateLimits), when it has one. */
export function rateLimitsMethod(spec: GenSpec): GenSpec['methods'][number] | undefined {
  return spec.methods.find((m) => m.name === 'public/getRateLimits');
}

/** One budget object of the answer read against the spec's limit, or null when it does not say. */
export function budgetFrom(limit: GenLimit, raw: unknown): PaceBudget | null {
  if (!isObj(raw)) return null;
  const { remainingPoints: left, consumedPoints: used, msBeforeNext: next, isFirstInDuration: first } = raw;
  if (!Number.isInteger(left) || !Number.isInteger(used)) return null;
  const points = (left as number) + (used as number);
  if (points < 1) return null;
  // Right after the request that opened the window, msBeforeNext is the window less the time the answer
  // took: rounded up to a tenth of a second, so the pacer's window is never shorter than the server's.
  if (first === true && typeof next === 'number' && next > 0)
    return { id: limit.id, points, windowMs: Math.ceil(next / 100) * 100, source: 'server', windowFromServer: true };
  return { id: limit.id, points, windowMs: limit.windowMs, source: 'server' };
}

/** The per-IP budget from an answer on a connection without login (the default class reports it). */
export function ipBudgetFrom(spec: GenSpec, result: unknown): PaceBudget | null {
  const ip = spec.limits.find((l) => l.scope === 'ip');
  if (!ip || !isObj(result)) return null;
  const classes = spec.defaultClass ? [spec.defaultClass] : Object.keys(spec.classBudgets);
  for (const c of classes) {
    const b = budgetFrom(ip, result[`remaining_${c}`]);
    if (b) return b;
  }
  return null;
}

/** The per-wallet budgets from an answer on a logged-in connection: each class's, each method's own. */
export function walletBudgetsFrom(spec: GenSpec, result: unknown): PaceBudget[] {
  if (!isObj(result)) return [];
  const out: PaceBudget[] = [];
  for (const [c, id] of Object.entries(spec.classBudgets)) {
    const limit = spec.limits.find((l) => l.id === id && l.scope !== 'ip');
    const b = limit ? budgetFrom(limit, result[`remaining_${c}`]) : null;
    if (b) out.push(b);
  }
  const perMethod = isObj(result.remaining_per_endpoint) ? result.remaining_per_endpoint : {};
  for (const [key, raw] of Object.entries(perMethod)) {
    const limit = spec.limits.find((l) => l.id === key && l.scope !== 'ip');
    const b = limit ? budgetFrom(limit, raw) : null;
    if (b) out.push(b);
  }
  return out;
}

/** A budget as a line: `public 25 per 5000 ms (the server's getRateLimits)`. */
export function budgetLine(b: PaceBudget): string {
  const from =
    b.source === 'spec'
      ? "the spec's reference"
      : `the server's getRateLimits${b.windowFromServer ? '' : "; the window is the spec's"}`;
  return `${b.id} ${b.points} per ${b.windowMs} ms (${from})`;
}

/** A run's results counted by status, in all and per area: the report's summary and areas, for both kinds of run. */
import type { CheckResult, Counts } from './model';

/** The results counted by status. */
export function countResults(results: readonly CheckResult[]): Counts {
  const by = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
  return {
    total: results.length,
    passed: by('pass'),
    failed: by('fail'),
    skipped: by('skip'),
    inconclusive: by('inconclusive'),
  };
}

/** The results counted per area, in the order the areas first appear. */
export function areaCounts(results: readonly CheckResult[]): (Counts & { area: string })[] {
  return [...new Set(results.map((r) => r.area))].map((area) => ({
    area,
    ...countResults(results.filter((r) => r.area === area)),
  }));
}

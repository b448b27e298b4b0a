/**
 * The coverage of a target as it runs: its cases by input class (valid edge, valid random, invalid by the
 * JSON Schema keyword broken, a channel's addresses), how many ran, passed and failed, and what was not
 * reached with the reason. The reporters render it (reporters/coverage.ts).
 */
import type { ClassCount } from '../model';

/** Counts cases by class as they are generated and run. */
export class ClassTally {
  private readonly rows = new Map<string, ClassCount>();

  private row(cls: string): ClassCount {
    let r = this.rows.get(cls);
    if (!r) this.rows.set(cls, (r = { cls, cases: 0, run: 0, pass: 0, fail: 0 }));
    return r;
  }

  generated(cls: string, n = 1): void {
    this.row(cls).cases += n;
  }

  ran(cls: string, status: 'pass' | 'fail' | 'inconclusive' | 'note'): void {
    const r = this.row(cls);
    r.run++;
    if (status === 'pass') r.pass++;
    if (status === 'fail') r.fail++;
  }

  /** Every class with cases left unrun gets this reason (the first reason given stays). */
  notReached(reason: string): void {
    for (const r of this.rows.values()) if (r.run < r.cases && !r.notReached) r.notReached = reason;
  }

  list(): ClassCount[] {
    return [...this.rows.values()];
  }
}

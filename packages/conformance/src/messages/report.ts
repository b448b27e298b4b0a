/**
 * The report of a message run, in the shape every run reports (model.ts): exit 1 when a check failed, and
 * 2 when none passed either (a run that checked nothing is no pass) or the server stopped answering.
 */
import { areaCounts, countResults } from '../tally';
import type { MessageRunOptions } from './options';
import type { CheckResult, Report, TargetCounts } from '../model';

/** Why a run's exit is 2 though nothing failed: the report says it (and the command prints it). */
export const NOTHING_CHECKED = 'nothing was checked: no check passed (every one was inconclusive or not chosen)';

function generatedOf(o: MessageRunOptions, targets: TargetCounts[], late: boolean): Report['generated'] {
  const sum = (k: 'pass' | 'fail' | 'inconclusive' | 'note' | 'notRun') => targets.reduce((n, t) => n + t[k], 0);
  const written = o.replays ?? { written: [], notWritten: [] };
  return {
    seed: o.seed,
    spec: { file: o.spec.file, title: o.spec.title, version: o.spec.version },
    cases: targets.filter((t) => t.kind === 'method').reduce((n, t) => n + t.valid + t.invalid, 0),
    totals: {
      pass: sum('pass'),
      fail: sum('fail'),
      inconclusive: sum('inconclusive'),
      note: sum('note'),
      notRun: sum('notRun'),
    },
    targets,
    replays: written.written,
    ...(written.notWritten.length ? { replaysNotWritten: written.notWritten } : {}),
    ...(late ? { stoppedEarly: `--duration ${o.durationS} s passed: later cases were not run` } : {}),
  };
}

export function reportOf(
  o: MessageRunOptions,
  t0: number,
  results: CheckResult[],
  targets: TargetCounts[],
  interrupted: Report['interrupted'],
): Report {
  const summary = countResults(results);
  const exitCode = interrupted ? 2 : summary.failed > 0 ? 1 : summary.passed === 0 ? 2 : 0;
  return {
    format: 'exchange-api-conformance-report',
    formatVersion: 1,
    spec: { title: o.spec.title, version: o.spec.version },
    target: { ws: o.ws, http: null },
    startedAt: new Date(t0).toISOString(),
    durationMs: Date.now() - t0,
    exitCode,
    summary,
    areas: areaCounts(results),
    ...(interrupted ? { interrupted } : {}),
    assumptions: [],
    checks: results,
    ...(o.generate ? { generated: generatedOf(o, targets, Date.now() > t0 + o.durationS * 1000) } : {}),
  };
}

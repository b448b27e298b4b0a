/**
 * Report destinations of the command line: parsed from `--report`, checked before the run (so a run is
 * never lost to a path that cannot be written), and written after it. Failures are one line each.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { reportPathProblem } from './report-path';
import { jsonReport } from './reporters/json';
import { junitReport } from './reporters/junit';
import { htmlReport } from './reporters/html';
import type { Report } from './model';

/** A report destination: the console, or a file in one of the formats. */
export type ReportTarget = { kind: 'console' } | { kind: 'json' | 'junit' | 'html'; path: string };

/** One `--report` value as a target, or the error line. */
export function parseTarget(value: string): ReportTarget | { error: string } {
  if (value === 'console') return { kind: 'console' };
  const m = /^(json|junit|html):(.+)$/.exec(value);
  if (!m) return { error: `--report ${JSON.stringify(value)}: use console, json:<path>, junit:<path> or html:<path>` };
  return { kind: m[1] as 'json' | 'junit' | 'html', path: m[2]! };
}

/** The first report target that cannot be written, as an error line (checked before the run), or null. */
export function checkTargets(targets: readonly ReportTarget[]): string | null {
  const seen = new Set<string>();
  for (const t of targets) {
    if (t.kind === 'console') continue;
    const why = seen.has(resolve(t.path)) ? 'another --report writes there too' : reportPathProblem(t.path);
    if (why) return `--report ${t.kind}:${t.path} cannot be written: ${why}`;
    seen.add(resolve(t.path));
  }
  return null;
}

/** Write the file reports of a finished run; returns the lines to print, or the error line of the first that failed. */
export function writeReports(
  report: Report,
  targets: readonly ReportTarget[],
): { written: string[]; error: string | null } {
  const written: string[] = [];
  for (const t of targets) {
    if (t.kind === 'console') continue;
    const text = t.kind === 'json' ? jsonReport(report) : t.kind === 'junit' ? junitReport(report) : htmlReport(report);
    try {
      writeFileSync(t.path, text);
    } catch (err) {
      return {
        written,
        error: `--report ${t.kind}:${t.path} could not be written: ${(err as Error).message.split('\n')[0]}`,
      };
    }
    written.push(`${t.kind} report: ${t.path}`);
  }
  return { written, error: null };
}

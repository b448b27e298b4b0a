/**
 * Report destinations of the command line: parsed from `--report`, checked before the run (so a run is
 * never lost to a path that cannot be written), and written after it. Failures are one line each.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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

/** Why a file report could not be written at `path` (one line), or null when it can. Writes nothing. */
function unwritable(path: string): string | null {
  const full = resolve(path);
  try {
    const st = statSync(full, { throwIfNoEntry: false });
    if (st?.isDirectory()) return 'it is a folder';
    if (st) {
      accessSync(full, constants.W_OK);
      return null;
    }
    const dir = statSync(dirname(full), { throwIfNoEntry: false });
    if (!dir) return `the folder ${dirname(full)} does not exist`;
    if (!dir.isDirectory()) return `${dirname(full)} is not a folder`;
    accessSync(dirname(full), constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return `${dirname(full)} is not a folder`;
    return code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message.split('\n')[0]!;
  }
}

/** The first report target that cannot be written, as an error line (checked before the run), or null. */
export function checkTargets(targets: readonly ReportTarget[]): string | null {
  const seen = new Set<string>();
  for (const t of targets) {
    if (t.kind === 'console') continue;
    const why = seen.has(resolve(t.path)) ? 'another --report writes there too' : unwritable(t.path);
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

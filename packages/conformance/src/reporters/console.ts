/**
 * Console output: one progress line per check as it finishes, and the summary table at the end. Every
 * line goes through visible(): reasons, findings and names carry the server's text.
 */
import type { CheckResult, Counts, Report } from '../model';
import { visible } from './visible';
import { endpointName } from '../endpoint-name';
import { generatedLines } from './generated';

const MARK: Record<CheckResult['status'], string> = {
  pass: 'PASS',
  fail: 'FAIL',
  skip: 'SKIP',
  inconclusive: 'INCONCLUSIVE',
};

/** One progress line for a finished check. */
export function progressLine(r: CheckResult, index: number, total: number): string {
  const n = `[${String(index + 1).padStart(String(total).length)}/${total}]`;
  const why = r.status === 'pass' ? '' : ` — ${r.reason ?? ''}`;
  return visible(`${n} ${MARK[r.status].padEnd(12)} ${r.id} (${r.level}, ${r.durationMs} ms)${why}`);
}

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
}

/** The summary table (per area and total), then each failure with its findings. */
export function consoleReport(report: Report): string {
  const header = ['area', 'passed', 'failed', 'skipped', 'inconclusive', 'total'];
  const rows = [...report.areas.map((a) => [a.area, ...nums(a)]), ['all', ...nums(report.summary)]];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const lines = [
    ...targetLines(report),
    '',
    row(header, widths),
    row(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
    ...rows.slice(0, -1).map((r) => row(r, widths)),
    row(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
    row(rows.at(-1)!, widths),
  ];
  const failed = report.checks.filter((c) => c.status === 'fail');
  if (failed.length > 0) {
    lines.push('', 'Failures:');
    for (const c of failed) {
      lines.push(`  ${c.id} (${c.level}, ${c.section})`);
      for (const f of c.findings)
        lines.push(`    ${f.pointer || '-'}: ${f.rule} — expected ${f.expected}, got ${f.got}`);
    }
  }
  if (report.generated) lines.push(...generatedLines(report.generated));
  if (report.keyRefused) lines.push('', `Not run: ${report.keyRefused.reason}.`);
  if (report.interrupted)
    lines.push(
      '',
      `The server stopped answering during ${report.interrupted.check} (${report.interrupted.reason}` +
        `); the checks after it were not run.`,
    );
  const verdict = report.interrupted
    ? 'INTERRUPTED'
    : report.keyRefused
      ? 'KEY REFUSED'
      : report.summary.failed === 0
        ? 'OK'
        : 'FAILED';
  lines.push(
    '',
    `${verdict}` +
      `: ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped}` +
      ` skipped, ${report.summary.inconclusive} inconclusive in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  return lines.map(visible).join('\n');
}

/** What was checked: the server, or the endpoints of one deployment, one a line. */
function targetLines(report: Report): string[] {
  const spec = `${report.spec.title} ${report.spec.version}`;
  const one = (e: { ws: string; http: string | null }) => `${e.ws}${e.http ? ` and ${e.http}` : ''}`;
  const all = report.target.endpoints;
  if (!all || all.length < 2) return [`Conformance of ${one(report.target)} to ${spec}`];
  return [
    `Conformance of one deployment of ${all.length} endpoints to ${spec}:`,
    ...all.map((e, i) => `  ${endpointName(i)}: ${one(e)}`),
  ];
}

function nums(c: Counts): string[] {
  return [c.passed, c.failed, c.skipped, c.inconclusive, c.total].map(String);
}

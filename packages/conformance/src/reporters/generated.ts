/**
 * The generated cases counted by target and verdict, for the reporters: console lines, an HTML table and
 * the JUnit properties and per-testcase line. (The JSON report carries `generated` as it is.)
 */
import type { GeneratedSummary, TargetCounts } from '../model';
import { coverageHtml, coverageLines } from './coverage';

const COLUMNS = ['target', 'via', 'valid', 'invalid', 'pass', 'fail', 'inconclusive', 'note', 'not run'] as const;

function cells(t: TargetCounts): string[] {
  return [t.target, t.transport ?? '-', t.valid, t.invalid, t.pass, t.fail, t.inconclusive, t.note, t.notRun].map(
    String,
  );
}

/** One line of a target's counts. */
export function countsLine(t: TargetCounts): string {
  if (t.skipped) return `${t.target} (${t.transport ?? '-'}): skipped, ${t.skipped}`;
  return (
    `${t.target} (${t.transport ?? '-'}): ${t.valid} valid, ${t.invalid} invalid; ` +
    `${t.pass} pass, ${t.fail} fail, ${t.inconclusive} inconclusive, ${t.note} notes, ${t.notRun} not run`
  );
}

/** The skipped targets, one line per reason. */
function skippedLines(skipped: TargetCounts[]): string[] {
  const reasons = [...new Set(skipped.map((t) => t.skipped!))];
  return reasons.map((r) => {
    const names = skipped
      .filter((t) => t.skipped === r)
      .map((t) => `${t.target}${t.transport ? `@${t.transport}` : ''}`);
    return `skipped (${r}): ${names.join(', ')}`;
  });
}

/** The console section: the seed, a table of every target's counts, the totals and the replay files. */
export function generatedLines(g: GeneratedSummary): string[] {
  const rows = g.targets.filter((t) => !t.skipped).map(cells);
  const widths = COLUMNS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const row = (r: readonly string[]) =>
    r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const skipped = g.targets.filter((t) => t.skipped);
  return [
    '',
    `Generated inputs (seed ${g.seed}; --seed ${g.seed} reproduces them) ` +
      `from ${g.spec.title} ${g.spec.version}: ${g.cases} cases`,
    row(COLUMNS),
    ...rows.map(row),
    `totals: ${g.totals.pass} pass, ${g.totals.fail} fail, ${g.totals.inconclusive} inconclusive, ` +
      `${g.totals.note} notes, ${g.totals.notRun} not run`,
    ...skippedLines(skipped),
    ...coverageLines(g),
    ...(g.stoppedEarly ? [`stopped early: ${g.stoppedEarly}`] : []),
    ...(g.replays.length
      ? ['replay files (exchange-api conformance --replay FILE …):', ...g.replays.map((p) => `  ${p}`)]
      : []),
  ];
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The HTML section: the seed and a table of every target's counts. */
export function generatedHtml(g: GeneratedSummary): string {
  const head = `<tr>${COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr>`;
  const rows = g.targets
    .map(
      (t) =>
        `<tr${t.fail ? ' class="failrow"' : ''}>${cells(t)
          .map((c) => `<td>${esc(c)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  const replays = g.replays.length
    ? `<p>Replay files: ${g.replays.map((p) => `<code>${esc(p)}</code>`).join(' · ')}</p>`
    : '';
  const t = g.totals;
  return (
    `<h2>Generated inputs</h2><p>seed <b>${g.seed}</b> · ${g.cases} cases · ${t.pass} pass · ${t.fail} fail · ` +
    `${t.inconclusive} inconclusive · ${t.note} notes · ${t.notRun} not run</p>` +
    `<table class="generated">${head}${rows}</table>${coverageHtml(g)}${replays}`
  );
}

/** The JUnit properties of the generated run (seed and totals). */
export function generatedProperties(g: GeneratedSummary): [string, string][] {
  return [
    ['seed', String(g.seed)],
    ['cases', String(g.cases)],
    ...Object.entries(g.totals).map(([k, v]) => [k, String(v)] as [string, string]),
  ];
}

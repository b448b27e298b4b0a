/**
 * The coverage table: for every target, its cases by input class (valid edge, valid random, invalid by
 * the JSON Schema keyword broken, a channel's addresses, a state sequence), each with how many ran,
 * passed and failed, and what was not reached with the reason. A user reads "generated testing passed"
 * together with what it did not exercise.
 */
import type { ClassCount, GeneratedSummary, TargetCounts } from '../model';

/** The class rows of a target that carries none of its own (sequences, invariants): one row from its counts. */
export function classesOf(t: TargetCounts): ClassCount[] {
  if (t.classes) return t.classes;
  const cls = t.kind === 'sequence' ? 'state sequence' : t.kind === 'invariant' ? 'invariants' : t.kind;
  const run = t.pass + t.fail + t.inconclusive + t.note;
  const cases = Math.max(run + t.notRun, t.skipped ? 1 : 0);
  const notReached = t.skipped ?? (t.notRun ? 'the --duration passed' : undefined);
  return [{ cls, cases, run, pass: t.pass, fail: t.fail, ...(notReached ? { notReached } : {}) }];
}

const where = (t: TargetCounts) => `${t.target}${t.transport ? `@${t.transport}` : ''}`;

/** Every row of the table: target, transport, class and counts. */
export function coverageRows(g: GeneratedSummary): { target: string; row: ClassCount }[] {
  return g.targets.flatMap((t) => classesOf(t).map((row) => ({ target: where(t), row })));
}

/** The console lines: how many regions were reached, then what was not, grouped by reason. */
export function coverageLines(g: GeneratedSummary): string[] {
  const rows = coverageRows(g);
  const missed = rows.filter((r) => r.row.notReached);
  const reached = rows.filter((r) => r.row.run > 0).length;
  const lines = [`coverage: ${reached} of ${rows.length} regions (target × input class) reached`];
  const reasons = [...new Set(missed.map((r) => r.row.notReached!))];
  for (const reason of reasons) {
    const names = missed.filter((r) => r.row.notReached === reason).map((r) => `${r.target} [${r.row.cls}]`);
    const shown = names.slice(0, 8).join(', ');
    lines.push(`not reached (${reason}): ${shown}${names.length > 8 ? `, and ${names.length - 8} more` : ''}`);
  }
  return lines;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The HTML table: every row, the unreached ones marked. */
export function coverageHtml(g: GeneratedSummary): string {
  const head =
    '<tr><th>target</th><th>class</th><th>cases</th><th>run</th><th>pass</th><th>fail</th><th>not reached</th></tr>';
  const body = coverageRows(g)
    .map(({ target, row: r }) => {
      const cells = [target, r.cls, r.cases, r.run, r.pass, r.fail, r.notReached ?? ''].map(
        (c) => `<td>${esc(String(c))}</td>`,
      );
      return `<tr${r.fail ? ' class="failrow"' : r.notReached ? ' class="skiprow"' : ''}>${cells.join('')}</tr>`;
    })
    .join('');
  return `<h2>Coverage</h2><p>${esc(coverageLines(g)[0]!)}</p><table class="coverage">${head}${body}</table>`;
}

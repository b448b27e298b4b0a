/** The diff's reports: console (grouped by side and class), JSON, and Markdown for a pull-request comment. */
import { SEVERITIES, atLeast, type Severity } from './rules';
import type { Change } from './change';
import type { SpecDiff } from './diff-specs';
import { mdCell, mdCodeSpan, mdText } from '../text/markdown-escape';
import { terminalText } from '../text/terminal-text';

export type Side = 'client' | 'server';
export const SIDES: readonly Side[] = ['client', 'server'];

/** How many changes of each class a side has. */
export function countsOf(changes: readonly Change[], side: Side): Record<Severity, number> {
  const counts = { breaking: 0, dangerous: 0, safe: 0 };
  for (const c of changes) counts[c[side]]++;
  return counts;
}

const countsLine = (changes: readonly Change[], side: Side) => {
  const n = countsOf(changes, side);
  return `${side}: ${n.breaking} breaking, ${n.dangerous} dangerous, ${n.safe} safe`;
};

/** The first line of every console report: what was compared and the counts per side. */
export function summaryLine(d: SpecDiff, sides: readonly Side[]): string {
  return (
    `diff ${d.before.version} → ${d.after.version}: ${d.changes.length} change(s); ` +
    `${sides.map((s) => countsLine(d.changes, s)).join('; ')}`
  );
}

/** Whether any change on the given sides is at least `bar`. */
export function failsOn(d: SpecDiff, sides: readonly Side[], bar: Severity): boolean {
  return d.changes.some((c) => sides.some((s) => atLeast(c[s], bar)));
}

/** Every generated name that changes or disappears, once, in order. */
export function namesToFix(changes: readonly Change[], sides: readonly Side[] = ['client']): string[] {
  const names = changes.filter((c) => sides.some((s) => c[s] !== 'safe')).flatMap((c) => c.names);
  return [...new Set(names)];
}

/**
 * The report for a terminal: every line through terminalText, since subjects, details and file names
 * carry the specs' own text (a control character there would redraw the report, a line break add a line).
 */
export function consoleReport(d: SpecDiff, sides: readonly Side[]): string {
  const lines = [summaryLine(d, sides), `  old: ${d.before.file}`, `  new: ${d.after.file}`];
  for (const side of sides) {
    for (const severity of SEVERITIES) {
      const group = d.changes.filter((c) => c[side] === severity);
      if (group.length === 0) continue;
      lines.push('', `${side} side, ${severity} (${group.length}):`);
      for (const c of group) {
        lines.push(`  ${c.rule}  ${c.subject}: ${c.detail}`);
        if (severity !== 'safe') lines.push(`      why: ${c.why}`);
      }
    }
  }
  if (sides.includes('client')) {
    const names = namesToFix(d.changes);
    if (names.length)
      lines.push('', `generated TypeScript names that change or disappear (${names.length}): ${names.join(', ')}`);
  }
  lines.push('', rawLine(d));
  return lines.map(terminalText).join('\n');
}

function rawLine(d: SpecDiff): string {
  const n = (t: string) => d.raw.filter((r) => r.type === t).length;
  return (
    `@asyncapi/diff: ${d.raw.length} raw change(s) by JSON path (it calls ${n('breaking')}` +
    ` breaking, ${n('non-breaking')} non-breaking, ${n('unclassified')} unclassified)`
  );
}

export function jsonReport(d: SpecDiff, sides: readonly Side[]): string {
  const summary = Object.fromEntries(sides.map((s) => [s, countsOf(d.changes, s)]));
  return (
    JSON.stringify(
      {
        before: d.before,
        after: d.after,
        sides,
        summary,
        changes: d.changes,
        generatedNames: namesToFix(d.changes),
        raw: d.raw,
      },
      null,
      2,
    ) + '\n'
  );
}

/** Spec text in a table cell of the Markdown report: as text, never markup or HTML (emit/markdown-escape.ts). */
const cell = (s: string) => mdCell(mdText(s));

/** The Markdown report, for a pull-request comment: every spec text escaped for its place. */
export function markdownReport(d: SpecDiff, sides: readonly Side[]): string {
  const out = [
    `## Spec changes: ${mdText(d.before.version)} → ${mdText(d.after.version)}`,
    '',
    '| side | breaking | dangerous | safe |',
    '|---|---|---|---|',
  ];
  for (const s of sides) {
    const n = countsOf(d.changes, s);
    out.push(`| ${s} | ${n.breaking} | ${n.dangerous} | ${n.safe} |`);
  }
  for (const side of sides) {
    for (const severity of SEVERITIES) {
      const group = d.changes.filter((c) => c[side] === severity);
      if (group.length === 0) continue;
      const table = [
        '| rule | what | change | why |',
        '|---|---|---|---|',
        ...group.map(
          (c) => `| ${mdCell(mdCodeSpan(c.rule))} | ${cell(c.subject)} | ${cell(c.detail)} | ${cell(c.why)} |`,
        ),
      ];
      if (severity === 'safe')
        out.push('', `<details><summary>${side}: ${group.length} safe</summary>`, '', ...table, '', '</details>');
      else out.push('', `### ${side}: ${severity} (${group.length})`, '', ...table);
    }
  }
  const names = sides.includes('client') ? namesToFix(d.changes) : [];
  if (names.length)
    out.push(
      '',
      '### Generated TypeScript names to fix after regenerating',
      '',
      ...names.map((n) => `- ${mdCodeSpan(n)}`),
    );
  out.push('', `_${mdText(rawLine(d))}._`, '');
  return out.join('\n');
}

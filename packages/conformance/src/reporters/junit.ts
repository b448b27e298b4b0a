/** JUnit XML: one testsuite per area, one testcase per check; transcripts of failures in system-out. */
import type { CheckResult, Report } from '../model';
import { countsLine, generatedProperties } from './generated';

/** What XML 1.0 cannot carry: anything but tab, newline, carriage return and the printable ranges. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD]/g;

/** Escape text for XML attributes and content (and drop characters XML 1.0 cannot carry). */
export function xml(s: string): string {
  return s
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function transcriptText(c: CheckResult): string {
  return c.transcript
    .map((e) => `+${e.t}ms ${e.conn} ${e.dir === 'sent' ? '>>' : e.dir === 'received' ? '<<' : '--'} ${e.data}`)
    .join('\n');
}

function testcase(c: CheckResult, report: Report): string {
  const open =
    `    <testcase classname="conformance.${xml(c.area)}" name="${xml(c.id)}" ` +
    `time="${(c.durationMs / 1000).toFixed(3)}">`;
  const body: string[] = [];
  if (c.status === 'fail') {
    const details = c.findings
      .map((f) => `${f.pointer || '-'}: ${f.rule}\n  expected: ${f.expected}\n  got: ${f.got}`)
      .join('\n');
    body.push(
      `      <failure message="${xml(c.reason ?? 'failed')}" type="${c.level}">` +
        `${xml(`${c.section}\n${details}`)}</failure>`,
    );
    body.push(`      <system-out>${xml(transcriptText(c))}</system-out>`);
  } else if (c.status === 'skip') body.push(`      <skipped message="${xml(c.reason ?? '')}"/>`);
  else if (c.status === 'inconclusive')
    body.push(`      <skipped message="${xml(`inconclusive: ${c.reason ?? ''}`)}"/>`);
  const counts = report.generated?.targets.find((t) => t.id === c.id);
  if (counts && c.status !== 'fail') body.push(`      <system-out>${xml(countsLine(counts))}</system-out>`);
  return body.length ? `${open}\n${body.join('\n')}\n    </testcase>` : `${open}</testcase>`;
}

/** The generated run's seed and totals as the properties of its suite. */
function properties(report: Report, area: string): string {
  if (!report.generated || area !== 'generated') return '';
  const props = generatedProperties(report.generated).map(
    ([k, v]) => `      <property name="${xml(k)}" value="${xml(v)}"/>`,
  );
  return `    <properties>\n${props.join('\n')}\n    </properties>\n`;
}

/** The report as JUnit XML. Inconclusive checks are reported as skipped with the word "inconclusive". */
export function junitReport(report: Report): string {
  const suites = report.areas.map((a) => {
    const cases = report.checks.filter((c) => c.area === a.area);
    const time = cases.reduce((s, c) => s + c.durationMs, 0) / 1000;
    return (
      `  <testsuite name="conformance.${xml(a.area)}" tests="${a.total}" failures="` +
      `${a.failed}" errors="0" skipped="${a.skipped + a.inconclusive}" time="${time.toFixed(3)}` +
      `" timestamp="${report.startedAt}">\n${properties(report, a.area)}` +
      cases.map((c) => testcase(c, report)).join('\n') +
      `\n  </testsuite>`
    );
  });
  const s = report.summary;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="exchange-api conformance: ` +
    `${xml(report.target.ws)}" tests="${s.total}" failures="${s.failed}" errors="0" ` +
    `skipped="${s.skipped + s.inconclusive}" time="${(report.durationMs / 1000).toFixed(3)}` +
    `">\n${suites.join('\n')}\n</testsuites>\n`
  );
}

/**
 * One self-contained HTML page: summary, a filter box, failures first, each check with its transcript.
 * It looks like the docs site (a small inline stylesheet of the same colours and type), wraps long
 * frames instead of cutting them at the right edge, shows every finding's value whole (escaped), and
 * stays light: transcripts are collapsed (open for a failure), and a transcript, or a run of its
 * entries, another check already shows is linked to, not repeated (shared probes attach theirs to
 * many checks). It opens at its top, on the summary: no element takes the focus on load (an autofocused
 * filter box below a long generated table scrolled the page past the summary, and a headless
 * `--screenshot` of it came out blank).
 */
import type { CheckResult, Report, TranscriptEntry } from '../model';
import { generatedHtml } from './generated';

/** Text in an element: `&`, `<` and `>` escaped (quotes need no escape outside attributes). */
function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value, double-quoted. */
const attr = (s: string) => esc(s).replace(/"/g, '&quot;');

const ORDER: Record<CheckResult['status'], number> = { fail: 0, inconclusive: 1, pass: 2, skip: 3 };

/** Entries shown under another check are linked to, not repeated, where together they are at least this long. */
const LONG = 240;

const DIR: Record<TranscriptEntry['dir'], [cls: string, arrow: string]> = {
  sent: ['s', '&gt;&gt;'],
  received: ['r', '&lt;&lt;'],
  event: ['e', '--'],
};

const line = (e: TranscriptEntry) => {
  const [cls, arrow] = DIR[e.dir];
  return `<span class="${cls}">+${e.t}ms ${esc(e.conn)} ${arrow} ${esc(e.data)}</span>`;
};

/** What the page has shown already: whole transcripts and single entries, with the check that shows each. */
class Shown {
  private readonly transcripts = new Map<string, string>();
  private readonly entries = new Map<string, string>();

  /** The check that already shows this very transcript, else null (and this one is remembered). */
  transcript(c: CheckResult): string | null {
    const key = JSON.stringify(c.transcript);
    const first = this.transcripts.get(key);
    if (first === undefined) this.transcripts.set(key, c.id);
    return first ?? null;
  }

  /**
   * The lines of a transcript: each run of entries another check shows already (a shared probe's,
   * attached to many checks) is one line linking there, when the run is long enough to be worth it.
   */
  lines(c: CheckResult): string[] {
    const where = c.transcript.map((e) => {
      const key = `${e.t} ${e.conn} ${e.dir} ${e.data}`;
      const first = this.entries.get(key);
      if (first === undefined) this.entries.set(key, c.id);
      return first === undefined || first === c.id ? null : first;
    });
    const out: string[] = [];
    for (let i = 0; i < c.transcript.length;) {
      let j = i + 1;
      while (where[i] !== null && j < c.transcript.length && where[j] === where[i]) j++;
      const run = c.transcript.slice(i, j);
      if (where[i] !== null && run.reduce((n, e) => n + e.data.length, 0) >= LONG)
        out.push(
          `<span class="e">+${run[0]!.t}…${run.at(-1)!.t}ms: ${run.length} ${run.length === 1 ? 'entry' : 'entries'}` +
            ` shown under <a href="#${attr(`c-${where[i]}`)}">${esc(where[i]!)}</a></span>`,
        );
      else out.push(...run.map(line));
      i = j;
    }
    return out;
  }
}

function transcriptOf(c: CheckResult, shown: Shown): string {
  if (c.transcript.length === 0) return '';
  const same = shown.transcript(c);
  if (same !== null)
    return (
      `<p class="same">Transcript (${c.transcript.length}): the same as <a href="#` +
      `${attr(`c-${same}`)}">${esc(same)}</a>'s.</p>`
    );
  return (
    `<details${c.status === 'fail' ? ' open' : ''}><summary>transcript (${c.transcript.length}` +
    `)</summary><pre class="tr">${shown.lines(c).join('\n')}</pre></details>`
  );
}

function findingsOf(c: CheckResult): string {
  if (c.findings.length === 0) return '';
  const rows = c.findings.map(
    (f) =>
      `<tr><td><code>${esc(f.pointer || '-')}</code></td><td>${esc(f.rule)}</td><td>` +
      `${esc(f.expected)}</td><td><code class="v">${esc(f.got)}</code></td></tr>`,
  );
  return (
    `<table class="findings"><tr><th>pointer</th><th>rule</th><th>expected</th><th>got</th></tr>` +
    `${rows.join('')}</table>`
  );
}

function observationsOf(c: CheckResult): string {
  // A generated target's summary is both its reason and its first observation: said once.
  const said = c.observations.filter((o) => o.assumption || o.schema || o.text !== c.reason);
  if (said.length === 0) return '';
  const items = said.map((o) => {
    const mark = o.conforms === undefined ? '' : o.conforms ? ' ✓' : ' ✗';
    const about = o.assumption ? `<b>${esc(o.assumption)}</b>${mark}: ` : '';
    const schema = o.schema ? `<pre>${esc(JSON.stringify(o.schema, null, 2))}</pre>` : '';
    return `<li>${about}${esc(o.text)}${schema}</li>`;
  });
  return `<ul class="obs">${items.join('')}</ul>`;
}

function check(c: CheckResult, shown: Shown): string {
  const text = `${c.id} ${c.status} ${c.level} ${c.section} ${c.title} ${c.reason ?? ''}`.toLowerCase();
  const needs = c.needs.length ? ` · needs ${esc(c.needs.join(', '))}` : '';
  const meta = `${c.level} · ${esc(c.section)} · ${c.durationMs} ms${needs}`;
  const reason = c.reason ? `<p class="reason">${esc(c.reason)}</p>` : '';
  return (
    `<section class="check ${c.status}" id="${attr(`c-${c.id}`)}" data-text="` +
    `${attr(text)}"><h3><span class="badge">${c.status.toUpperCase()}</span> ` +
    `${esc(c.id)} <small>${meta}</small></h3><p>${esc(c.title)}</p>${reason}` +
    `${findingsOf(c)}${observationsOf(c)}${transcriptOf(c, shown)}</section>`
  );
}

/** The docs site's colours and type (tools/codegen/src/emit/docs/assets.ts), for a report that reads like the docs. */
const STYLE = `:root{--fg:#1d2733;
--muted:#5b6776;
--line:#dde3ea;
--soft:#f5f7fa;
--link:#0a58b8;
--code-bg:#f1f4f8;
--top:#14202e;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
body{margin:0;
color:var(--fg);
font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header{background:var(--top);color:#e8eef5;padding:.7rem 1.25rem}
header h1{margin:0;font-size:1.15rem;color:#fff}
header p{margin:.2rem 0 0;color:#9fb0c3;font-size:.86rem;overflow-wrap:anywhere}
main{max-width:84rem;margin:0 auto;padding:1rem 1.25rem 3rem}
a{color:var(--link);text-decoration:none}
a:hover{text-decoration:underline}
code,pre{font-family:var(--mono);font-size:.86em}
code{background:var(--code-bg);border-radius:4px;padding:.05em .3em;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.6rem 0}
td,th{border-bottom:1px solid var(--line);padding:.3rem .7rem;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
tr.failrow td{background:#fff1f1}
tr.skiprow td{background:#f6f6f6;color:#666}
.check{border:1px solid var(--line);border-left:5px solid #9aa5b1;border-radius:8px;padding:.4rem 1rem;margin:.8rem 0}
.check.pass{border-left-color:#2f8f46}
.check.fail{border-left-color:#c62828;background:#fff8f8}
.check.inconclusive{border-left-color:#d08a00}
.badge{font-size:.7rem;padding:.1rem .45rem;border-radius:4px;background:var(--code-bg);font-weight:600}
.fail .badge{background:#c62828;color:#fff}
.pass .badge{background:#2f8f46;color:#fff}
.inconclusive .badge{background:#d08a00;color:#fff}
h3{margin:.3rem 0;font-size:1rem;overflow-wrap:anywhere}
small{color:var(--muted);font-weight:normal}
.reason{color:#a31515}
.same{color:var(--muted);font-size:.86rem}
.findings{width:100%;table-layout:fixed}
.findings td:nth-child(-n+2){width:18%}
.findings code.v{white-space:pre-wrap;overflow-wrap:anywhere}
pre{margin:.4rem 0;
padding:.7rem .9rem;
background:#0f1b29;
color:#e3ebf5;
border-radius:8px;
white-space:pre-wrap;
overflow-wrap:anywhere;
max-height:32rem;
overflow:auto;
line-height:1.45}
.tr .s{color:#9cd0ff}
.tr .r{color:#b5e3a8}
.tr .e{color:#9fb0c3}
.tr a{color:#ffd479}
summary{cursor:pointer;color:var(--muted)}
#filter{width:min(30rem,100%);padding:.45rem .7rem;border:1px solid var(--line);border-radius:6px;font:inherit}`;

/** The filter box's script: it shows the checks whose text holds every word typed. */
const FILTER_SCRIPT = [
  "const f=document.getElementById('filter'),n=document.getElementById('shown')," +
    "all=[...document.querySelectorAll('.check')];",
  'function apply(){const q=f.value.toLowerCase().split(/\\s+/).filter(Boolean);let k=0;' +
    "for(const c of all){const ok=q.every(w=>c.dataset.text.includes(w));c.style.display=ok?'':'none';if(ok)k++;}" +
    "n.textContent=k+' of '+all.length;}",
  "f.addEventListener('input',apply);apply();",
].join('\n');

const AREA_COLUMNS = ['area', 'passed', 'failed', 'skipped', 'inconclusive', 'total'];
const AREA_HEAD = `<tr>${AREA_COLUMNS.map((h) => `<th>${h}</th>`).join('')}</tr>`;

/** The page's header: what was checked, against which spec, when and for how long. */
function headerOf(report: Report): string {
  const http = report.target.http ? ` · ${esc(report.target.http)}` : '';
  return (
    `<header><h1>Conformance report</h1><p>${esc(report.target.ws)}${http} against ${esc(report.spec.title)} ` +
    `${esc(report.spec.version)} · started ${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s` +
    '</p></header>'
  );
}

/** The counts: the run's, a refused key's reason, and a table of the areas. */
function summaryOf(report: Report): string {
  const s = report.summary;
  const areas = report.areas
    .map(
      (a) =>
        `<tr><td>${esc(a.area)}</td><td>${a.passed}</td><td>${a.failed}</td><td>${a.skipped}` +
        `</td><td>${a.inconclusive}</td><td>${a.total}</td></tr>`,
    )
    .join('');
  const refused = report.keyRefused ? `<p class="reason">${esc(report.keyRefused.reason)}.</p>\n` : '';
  return (
    `<p><b>${s.passed}</b> passed · <b>${s.failed}</b> failed · <b>${s.skipped}</b> skipped · ` +
    `<b>${s.inconclusive}</b> inconclusive · ${s.total} checks</p>\n${refused}<table>${AREA_HEAD}${areas}</table>`
  );
}

/** The report as one HTML page with no external assets. */
export function htmlReport(report: Report): string {
  const shown = new Shown();
  const checks = [...report.checks].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance: ${esc(report.target.ws)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
${STYLE}
</style></head><body>
${headerOf(report)}
<main>
${summaryOf(report)}
${report.generated ? generatedHtml(report.generated) : ''}
<p><input id="filter" placeholder="filter: id, status, section, text…"> <span id="shown"></span></p>
<div id="checks">${checks.map((c) => check(c, shown)).join('\n')}</div>
</main>
<script>
${FILTER_SCRIPT}
</script>
</body></html>
`;
}

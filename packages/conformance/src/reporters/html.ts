/** One self-contained HTML page: summary, a filter box, failures first, each check with its transcript. */
import type { CheckResult, Report } from '../model';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const ORDER: Record<CheckResult['status'], number> = { fail: 0, inconclusive: 1, pass: 2, skip: 3 };

function check(c: CheckResult): string {
  const findings = c.findings.length
    ? `<table class="findings"><tr><th>pointer</th><th>rule</th><th>expected</th><th>got</th></tr>${c.findings.map((f) => `<tr><td><code>${esc(f.pointer || '-')}</code></td><td>${esc(f.rule)}</td><td>${esc(f.expected)}</td><td>${esc(f.got)}</td></tr>`).join('')}</table>`
    : '';
  const observations = c.observations.length
    ? `<ul class="obs">${c.observations.map((o) => `<li>${o.assumption ? `<b>${esc(o.assumption)}</b>${o.conforms === undefined ? '' : o.conforms ? ' ✓' : ' ✗'}: ` : ''}${esc(o.text)}${o.schema ? `<pre>${esc(JSON.stringify(o.schema, null, 2))}</pre>` : ''}</li>`).join('')}</ul>`
    : '';
  const transcript = c.transcript.length
    ? `<details${c.status === 'fail' ? ' open' : ''}><summary>transcript (${c.transcript.length})</summary><pre class="tr">${c.transcript.map((e) => `<span class="${e.dir}">+${e.t}ms ${esc(e.conn)} ${e.dir === 'sent' ? '&gt;&gt;' : e.dir === 'received' ? '&lt;&lt;' : '--'} ${esc(e.data)}</span>`).join('\n')}</pre></details>`
    : '';
  const text = `${c.id} ${c.status} ${c.level} ${c.section} ${c.title} ${c.reason ?? ''}`.toLowerCase();
  return `<section class="check ${c.status}" data-text="${esc(text)}"><h3><span class="badge">${c.status.toUpperCase()}</span> ${esc(c.id)} <small>${c.level} · ${esc(c.section)} · ${c.durationMs} ms${c.needs.length ? ` · needs ${esc(c.needs.join(', '))}` : ''}</small></h3><p>${esc(c.title)}</p>${c.reason ? `<p class="reason">${esc(c.reason)}</p>` : ''}${findings}${observations}${transcript}</section>`;
}

/** The report as one HTML page with no external assets. */
export function htmlReport(report: Report): string {
  const s = report.summary;
  const checks = [...report.checks].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  const areas = report.areas
    .map(
      (a) =>
        `<tr><td>${esc(a.area)}</td><td>${a.passed}</td><td>${a.failed}</td><td>${a.skipped}</td><td>${a.inconclusive}</td><td>${a.total}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance: ${esc(report.target.ws)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}
.check{border-left:6px solid #999;padding:4px 12px;margin:10px 0;background:#fafafa}
.check.pass{border-color:#2a2}.check.fail{border-color:#d22;background:#fff4f4}.check.skip{border-color:#aaa}.check.inconclusive{border-color:#d90}
.badge{font-size:11px;padding:1px 6px;border-radius:3px;background:#ddd}.fail .badge{background:#d22;color:#fff}.pass .badge{background:#2a2;color:#fff}.inconclusive .badge{background:#d90;color:#fff}
h3{margin:4px 0;font-size:15px}small{color:#666;font-weight:normal}.reason{color:#a00}
pre.tr{max-height:400px;overflow:auto;background:#f0f0f0;padding:6px;font-size:12px}.tr .sent{color:#035}.tr .received{color:#350}.tr .event{color:#777}
#filter{width:30em;padding:4px;font-size:14px}
</style></head><body>
<h1>Conformance report</h1>
<p>${esc(report.target.ws)}${report.target.http ? ` · ${esc(report.target.http)}` : ''} against ${esc(report.spec.title)} ${esc(report.spec.version)} · started ${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s</p>
<p><b>${s.passed}</b> passed · <b>${s.failed}</b> failed · <b>${s.skipped}</b> skipped · <b>${s.inconclusive}</b> inconclusive · ${s.total} checks</p>
${report.keyRefused ? `<p class="reason">${esc(report.keyRefused.reason)}.</p>\n` : ''}<table><tr><th>area</th><th>passed</th><th>failed</th><th>skipped</th><th>inconclusive</th><th>total</th></tr>${areas}</table>
<p><input id="filter" placeholder="filter: id, status, section, text…" autofocus> <span id="shown"></span></p>
<div id="checks">${checks.map(check).join('\n')}</div>
<script>
const f=document.getElementById('filter'),n=document.getElementById('shown'),all=[...document.querySelectorAll('.check')];
function apply(){const q=f.value.toLowerCase().split(/\\s+/).filter(Boolean);let k=0;for(const c of all){const ok=q.every(w=>c.dataset.text.includes(w));c.style.display=ok?'':'none';if(ok)k++;}n.textContent=k+' of '+all.length;}
f.addEventListener('input',apply);apply();
</script>
</body></html>
`;
}

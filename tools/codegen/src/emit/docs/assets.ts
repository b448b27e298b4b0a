/**
 * The site's only stylesheet and script: no external assets, fonts or CDNs, so the site works offline
 * and from file://. The script only adds the search box; every page reads fine without it.
 */

/** The stylesheet: screen layout with a sticky sidebar, plus a print layout. */
export const SITE_CSS = `:root {
  --fg: #1d2733; --muted: #5b6776; --line: #dde3ea; --bg: #ffffff; --soft: #f5f7fa;
  --link: #0a58b8; --code-bg: #f1f4f8; --top: #14202e;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { scroll-padding-top: 4.5rem; }
body { margin: 0; color: var(--fg); background: var(--bg); font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
code, .mono, pre { font-family: var(--mono); font-size: 0.86em; }
code { background: var(--code-bg); border-radius: 4px; padding: 0.05em 0.3em; overflow-wrap: break-word; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 0.5rem; z-index: 20; background: #fff; padding: 0.3rem 0.6rem; }

.top { position: sticky; top: 0; z-index: 10; display: flex; align-items: center; gap: 0.75rem; padding: 0.6rem 1.25rem; background: var(--top); color: #e8eef5; }
.top .brand { color: #fff; font-weight: 650; font-size: 1.05rem; }
.top .version { color: #9fb0c3; font-family: var(--mono); font-size: 0.8rem; }
.search { position: relative; margin-left: auto; width: min(30rem, 55vw); }
.search input { width: 100%; padding: 0.45rem 0.7rem; border: 1px solid #3a4a5c; border-radius: 6px; background: #22303f; color: #fff; font: inherit; }
.search input::placeholder { color: #9fb0c3; }
.search input:focus { outline: 2px solid #6aa8f0; background: #fff; color: var(--fg); }
#search-results { position: absolute; right: 0; left: 0; top: 2.6rem; margin: 0; padding: 0.3rem 0; list-style: none; max-height: 70vh; overflow: auto; background: #fff; color: var(--fg); border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 10px 30px rgba(10, 20, 30, 0.18); }
#search-results li a { display: flex; flex-wrap: wrap; gap: 0 0.5rem; align-items: baseline; padding: 0.35rem 0.75rem; color: var(--fg); }
#search-results li a:hover, #search-results li[aria-selected="true"] a { background: #eaf2fd; text-decoration: none; }
#search-results .k { flex: none; width: 5.2rem; color: var(--muted); font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.03em; }
#search-results .l { flex: 1 1 0; font-family: var(--mono); font-size: 0.85rem; overflow-wrap: break-word; min-width: 0; }
#search-results .d { flex: 1 0 100%; padding-left: 5.7rem; color: var(--muted); font-size: 0.8rem; overflow-wrap: break-word; }
#search-results .none { padding: 0.4rem 0.75rem; color: var(--muted); }

.layout { display: grid; grid-template-columns: 17rem minmax(0, 1fr); max-width: 84rem; margin: 0 auto; }
.side { position: sticky; top: 3.1rem; align-self: start; max-height: calc(100vh - 3.1rem); overflow: auto; padding: 1rem 1rem 2rem 1.25rem; border-right: 1px solid var(--line); font-size: 0.86rem; }
.side h2 { margin: 1rem 0 0.3rem; font-size: 0.72rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); }
.side h2 a { color: inherit; }
.side h2 a[aria-current="page"] { color: #0a3f85; }
.side ul.mono { font-size: 0.8rem; }
.side ul { list-style: none; margin: 0; padding: 0; }
.side li ul { padding-left: 0.75rem; }
.side li a { display: block; padding: 0.12rem 0.5rem; border-radius: 5px; color: var(--fg); overflow-wrap: break-word; }
.side li a:hover { background: var(--soft); text-decoration: none; }
.side li a[aria-current="page"] { background: #e4eefb; color: #0a3f85; font-weight: 600; }
main { padding: 1.5rem 2.5rem 4rem; min-width: 0; }
main > :first-child { margin-top: 0.4rem; }
h1 { font-size: 1.65rem; line-height: 1.25; margin: 0 0 0.8rem; }
h1 code, h2 code, h3 code { font-size: 0.9em; background: none; padding: 0; }
h2 { font-size: 1.25rem; margin: 2.2rem 0 0.6rem; padding-bottom: 0.3rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.08rem; margin: 2rem 0 0.4rem; }
h1 .self, h2 .self, h3 .self { visibility: hidden; color: var(--muted); font-weight: 400; }
h1:hover .self, h2:hover .self, h3:hover .self, .self:focus { visibility: visible; }
.tg { display: inline-flex; align-items: center; gap: 0.35rem; vertical-align: middle; margin-left: 0.4rem; }
.t { display: inline-block; padding: 0.05rem 0.5rem; border-radius: 999px; font-size: 0.72rem; font-weight: 600; line-height: 1.5; letter-spacing: 0.02em; vertical-align: middle; }
.t.public { background: #e3f5e9; color: #17683a; }
.t.private { background: #efe7fb; color: #5b2aa0; }
.t.kind { background: #edf0f4; color: #44505e; }
.t.not-shown { background: #fff1d6; color: #8a5300; }
.t.assumption { background: #e2eefc; color: #1d4f91; }
a.t:hover { text-decoration: none; filter: brightness(0.95); }
p { margin: 0.6rem 0; max-width: 52rem; }
.n { padding: 0.55rem 0.85rem; border-left: 4px solid; border-radius: 0 6px 6px 0; font-size: 0.92rem; }
.n.not-shown { border-color: #e0a030; background: #fff8ea; }
.n.assumption { border-color: #4f8fdc; background: #f0f6fe; }
.n.info { border-color: #9aa7b5; background: var(--soft); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.3rem 1.2rem; margin: 1rem 0; padding: 0.8rem 1rem; background: var(--soft); border: 1px solid var(--line); border-radius: 8px; max-width: 52rem; }
dl.facts dt { color: var(--muted); font-weight: 600; font-size: 0.86rem; }
dl.facts dd { margin: 0; }
.tw { overflow-x: auto; margin: 0.8rem 0 1rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th { text-align: left; font-weight: 600; color: var(--muted); font-size: 0.78rem; text-transform: uppercase; letter-spacing: 0.04em; border-bottom: 2px solid var(--line); padding: 0.4rem 0.6rem; }
td { border-bottom: 1px solid var(--line); padding: 0.4rem 0.6rem; vertical-align: top; }
td:last-child code { overflow-wrap: anywhere; }
tbody tr:hover { background: #fafbfd; }
tr:target, li:target { background: #fff6cc; }
tr[id] > td:first-child code, .m1 td:first-child, .m2 td:first-child { font-weight: 600; }
.m1 td:first-child, .m2 td:nth-child(-n+2), .ml td:last-child { font-family: var(--mono); font-size: 0.82rem; }
.ml td:last-child { overflow-wrap: anywhere; }
ul { padding-left: 1.3rem; }
ul.chips { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.35rem; margin: 0.5rem 0 1rem; }
ul.chips li { font-family: var(--mono); font-size: 0.86em; background: var(--code-bg); border-radius: 4px; padding: 0.1rem 0.45rem; overflow-wrap: anywhere; }
.nm a { font-family: var(--mono); font-size: 0.86em; overflow-wrap: anywhere; }
figure { margin: 0.8rem 0 1.2rem; max-width: 56rem; }
figcaption { font-size: 0.85rem; color: var(--muted); margin-bottom: 0.3rem; }
pre { margin: 0; padding: 0.85rem 1rem; background: #0f1b29; color: #e3ebf5; border-radius: 8px; overflow: auto; line-height: 1.45; }
pre code { background: none; padding: 0; font-size: 0.82rem; color: inherit; overflow-wrap: normal; }

@media (max-width: 860px) {
  .layout { display: block; }
  .side { position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); }
  main { padding: 1rem; }
  .search { width: 100%; }
  /* A result's kind above its name, so a long name has the whole width. */
  #search-results .k { flex-basis: 100%; }
  #search-results .d { padding-left: 0; }
  .top { flex-wrap: wrap; }
  /* The header wraps (the search box below the title): a heading jumped to stays below it. */
  html { scroll-padding-top: 0; }
  [id] { scroll-margin-top: 10.5rem; }
}

@media print {
  body { font-size: 10.5pt; color: #000; }
  .top, .side, .skip, .self, .search { display: none !important; }
  .layout { display: block; max-width: none; }
  main { padding: 0; }
  a { color: #000; }
  pre { background: #fff; color: #000; border: 1px solid #999; white-space: pre-wrap; }
  .n, dl.facts { background: #fff; }
  tr, figure, .n, dl.facts { break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; }
  tr:target, li:target { background: none; }
}
`;

/** The search: filters the generated index as one types, links to the anchors; Enter opens the first hit. */
export const SEARCH_JS = `(function () {
  'use strict';
  // A "#" link beside each heading with an anchor, to copy a deep link: added here, not in every page's
  // HTML, to keep the site light; without JavaScript the anchors work, only this shortcut is absent.
  var heads = document.querySelectorAll('main h1[id], main h2[id], main h3[id]');
  for (var h = 0; h < heads.length; h++) {
    var self = document.createElement('a');
    self.className = 'self';
    self.href = '#' + heads[h].id;
    self.textContent = '#';
    var tags = heads[h].querySelector('.tg');
    heads[h].insertBefore(document.createTextNode(' '), tags);
    heads[h].insertBefore(self, tags);
  }
  var data = window.DOCS_SEARCH;
  var top = document.querySelector('header.top');
  if (!data || !top) return;
  // The search box exists only where it works: this script adds it (without JavaScript there is none).
  var form = document.createElement('form');
  form.className = 'search';
  form.setAttribute('role', 'search');
  form.innerHTML = '<input id="search" type="search" placeholder="Search channels, methods, records, fields, errors, examples" autocomplete="off" spellcheck="false" aria-label="Search the reference" aria-controls="search-results"><ul id="search-results" role="listbox" hidden></ul>';
  top.appendChild(form);
  var input = document.getElementById('search');
  var list = document.getElementById('search-results');
  var root = document.body.getAttribute('data-root') || '';
  var kinds = data.kinds;
  var pages = data.pages;
  // Rows that start with a name hold a record's fields or an enumeration's values (search.ts).
  var entries = [];
  data.entries.forEach(function (e) {
    if (typeof e[0] !== 'string') { entries.push(e); return; }
    for (var i = 3; i < e.length; i += 2) entries.push([e[1], e[0] + '.' + e[i], e[2], '', data.details[e[i + 1]]]);
  });
  var selected = -1;

  function rank(label, q) {
    var l = label.toLowerCase();
    if (l === q) return 0;
    var tail = l.split(/[./]/).pop();
    if (tail === q) return 1;
    if (l.indexOf(q) === 0) return 2;
    if (tail.indexOf(q) === 0) return 3;
    if (l.indexOf(q) >= 0) return 4;
    return -1;
  }

  function find(q) {
    var hits = [];
    for (var i = 0; i < entries.length; i++) {
      var e = entries[i];
      var r = rank(e[1], q);
      if (r < 0 && e[4] && e[4].toLowerCase().indexOf(q) >= 0) r = 5;
      if (r >= 0) hits.push([r, e[0], i]);
    }
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
    return hits.slice(0, 40).map(function (h) { return entries[h[2]]; });
  }

  function select(n) {
    var items = list.querySelectorAll('li[role="option"]');
    if (items.length === 0) return;
    selected = (n + items.length) % items.length;
    for (var i = 0; i < items.length; i++) items[i].setAttribute('aria-selected', String(i === selected));
    items[selected].scrollIntoView({ block: 'nearest' });
  }

  function show() {
    var q = input.value.trim().toLowerCase();
    list.textContent = '';
    selected = -1;
    if (!q) { list.hidden = true; return; }
    var hits = find(q);
    if (hits.length === 0) {
      var none = document.createElement('li');
      none.className = 'none';
      none.textContent = 'Nothing matches \\u201c' + input.value.trim() + '\\u201d';
      list.appendChild(none);
    }
    hits.forEach(function (e) {
      var li = document.createElement('li');
      li.setAttribute('role', 'option');
      var a = document.createElement('a');
      var anchor = e[3] === '#' ? '' : e[3] || e[1];
      a.href = root + pages[e[2]] + (anchor ? '#' + anchor : '');
      var k = document.createElement('span'); k.className = 'k'; k.textContent = kinds[e[0]];
      // A name breaks at a dot or slash or after an underscore, never inside a word (break-word is the last resort).
      var l = document.createElement('span'); l.className = 'l';
      e[1].split(/(?<=[./_])|(?=[./])/).forEach(function (part, i) {
        if (i > 0) l.appendChild(document.createElement('wbr'));
        l.appendChild(document.createTextNode(part));
      });
      a.appendChild(k); a.appendChild(l);
      if (e[4]) { var d = document.createElement('span'); d.className = 'd'; d.textContent = e[4]; a.appendChild(d); }
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  }

  input.addEventListener('input', show);
  input.addEventListener('focus', function () { if (input.value.trim()) show(); });
  input.addEventListener('keydown', function (ev) {
    if (ev.key === 'ArrowDown') { ev.preventDefault(); select(selected + 1); }
    else if (ev.key === 'ArrowUp') { ev.preventDefault(); select(selected - 1); }
    else if (ev.key === 'Escape') { list.hidden = true; input.blur(); }
  });
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var items = list.querySelectorAll('li[role="option"] a');
    var a = items[selected >= 0 ? selected : 0];
    if (a) window.location.href = a.href;
  });
  document.addEventListener('click', function (ev) { if (!form.contains(ev.target)) list.hidden = true; });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === '/' && document.activeElement !== input) { ev.preventDefault(); input.focus(); }
  });
})();
`;

/**
 * The stylesheet as shipped: white space around punctuation dropped, one rule a line (the source above
 * stays laid out for reading). Spaces between selectors and inside values are kept.
 */
export const compactCss = (css: string): string =>
  css
    .replace(/\n\s+/g, '\n')
    .replace(/ *([{};,>]) */g, '$1')
    .replace(/: /g, ':')
    .replace(/;}/g, '}');

/** The script as shipped: its indentation and whole-line comments dropped (no string spans lines). */
export const compactJs = (js: string): string =>
  js
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('//'))
    .join('\n') + '\n';

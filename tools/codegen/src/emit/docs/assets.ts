/**
 * The site's only stylesheet and script: no external assets, fonts or CDNs, so the site works offline
 * and from file://. The script only adds the search box; every page reads fine without it.
 */
import { template } from '../../templates';

/** The stylesheet (templates/site.css): screen layout with a sticky sidebar, plus a print layout. */
export const siteCss = (): string => template('site.css');

/** The search box the script adds to the header (one line of HTML in the script's string). */
const SEARCH_FORM =
  '<input id="search" type="search" placeholder="Search channels, methods, records, fields, errors, examples" ' +
  'autocomplete="off" spellcheck="false" aria-label="Search the reference" aria-controls="search-results">' +
  '<ul id="search-results" role="listbox" hidden></ul>';

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
  form.innerHTML = '${SEARCH_FORM}';
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
 * The stylesheet as shipped: white space around punctuation dropped, one rule a line (the source,
 * templates/site.css, stays laid out for reading). Spaces between selectors and inside values are kept.
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

/**
 * The docs site's search results in Chromium (test/support/chromium.ts), at desktop and phone widths
 * (issue 23, item 33): no detail clipped (six example rows once read alike, their method names cut
 * off by an ellipsis) and no name broken inside a word (only at a dot or slash, or after an underscore,
 * hyphen or space).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { emitDocs, searchEntries, SiteMap, SEARCH_KINDS } from '../src/index';
import { findBrowser } from '../../../test/support/chromium';
import { repoModel } from './docs-helpers';
import { scratchDir } from './helpers';

let browser: Browser;
let dir: string;
let queries: string[];

beforeAll(async () => {
  const model = await repoModel();
  dir = scratchDir('search-');
  for (const f of emitDocs(model)) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
  // The example hits (their details are method names) and long names of every kind.
  const examples = searchEntries(model, new SiteMap(model)).filter((e) => e[0] === SEARCH_KINDS.indexOf('example'));
  expect(examples.length).toBeGreaterThan(5);
  queries = ['(params)', '(result)', 'instrument_name', 'get_', 'subaccount'];
  const found = await findBrowser();
  browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** For each result row: whether its detail is clipped, and where its label's lines break inside a word. */
function rowsOf(): Array<{ label: string; detail: string; clipped: boolean; midWord: string[] }> {
  return Array.from(document.querySelectorAll('#search-results li[role="option"]')).map((li) => {
    const l = li.querySelector('.l')!;
    const d = li.querySelector('.d');
    const text = l.textContent ?? '';
    // The top of each character's box: a line break is where the top changes.
    const tops: number[] = [];
    const walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      for (let i = 0; i < n.textContent!.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        tops.push(Math.round(r.getBoundingClientRect().top));
      }
    const midWord: string[] = [];
    for (let i = 1; i < tops.length; i++)
      if (tops[i] !== tops[i - 1] && !/[./_ -]/.test(text[i - 1]!) && !/[./]/.test(text[i]!))
        midWord.push(`${text.slice(0, i)}|${text.slice(i)}`);
    return {
      label: text,
      detail: d?.textContent ?? '',
      clipped: d !== null && (d.scrollWidth > d.clientWidth + 1 || getComputedStyle(d).textOverflow === 'ellipsis'),
      midWord,
    };
  });
}

describe('docs search results', () => {
  for (const width of [1280, 390])
    it(`at ${width} px: every detail whole, every name broken only between its parts`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(pathToFileURL(join(dir, 'index.html')).href);
        for (const q of queries) {
          await page.fill('#search', q);
          const rows = await page.evaluate(rowsOf);
          expect(rows.length, q).toBeGreaterThan(0);
          expect(
            rows.filter((r) => r.clipped).map((r) => `${r.label} — ${r.detail}`),
            q,
          ).toEqual([]);
          expect(
            rows.flatMap((r) => r.midWord),
            q,
          ).toEqual([]);
          // Rows that differ in what they lead to read differently.
          const seen = rows.map((r) => `${r.label} ${r.detail}`);
          expect(new Set(seen).size, q).toBe(seen.length);
        }
      } finally {
        await context.close();
      }
    }, 120_000);
});

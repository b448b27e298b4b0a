/**
 * Our docs site beside the AsyncAPI project's HTML docs, on our spec: weight (HTML + CSS + JS) and the
 * time to the load event in Chromium (median of five). The official tool is fetched on demand into a
 * temporary folder, never a dependency of this project:
 *
 *   node --import tsx scripts/compare-official-docs.ts
 *
 * It needs the npm registry and a Chromium (test/support/chromium.ts finds one). @asyncapi/generator
 * declares Node 24; it runs on Node 20 here, with PUPPETEER_SKIP_DOWNLOAD=1 (it would fetch a browser).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { parse } from 'yaml';
import { findBrowser } from '../test/support/chromium';

const root = new URL('..', import.meta.url).pathname;
const spec = join(root, 'spec', 'asyncapi.yaml');
const ours = join(root, 'packages', 'docs', 'site');
const work = mkdtempSync(join(tmpdir(), 'official-asyncapi-docs-'));

/** Bytes of the HTML, CSS and JS under a folder. */
function weight(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(html|css|js)$/.test(f))
    .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

/** What a reader should find of the spec: each probe is a list of strings, counted as found or not. */
function probesOf(specText: string): Record<string, string[]> {
  const doc = parse(specText) as any;
  const messages = Object.values(doc.components?.messages ?? {}) as any[];
  const patterns: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'pattern' && typeof x === 'string') patterns.push(x);
        else walk(x);
      }
  };
  walk(doc.components?.schemas);
  return {
    'example names': messages.flatMap((m) => (m.examples ?? []).map((e: any) => e.name).filter(Boolean)),
    'message titles': messages.map((m) => m.title).filter(Boolean),
    'error names': (doc['x-errors']?.codes ?? []).map((c: any) => c.name),
    'patterns as written': [...new Set(patterns)],
    'exact 64-bit bounds': ['9223372036854775807', '18446744073709551615'],
    // What each class applies to: the class names alone ("matching") occur in any text.
    'rate-limit classes': (doc['x-rate-limit-classes'] ?? []).map((c: any) => c.appliesTo).filter(Boolean),
    'login headers': Object.values(doc['x-login']?.headers ?? {}) as string[],
    'assumption reasons': (doc['x-assumptions'] ?? []).map((a: any) => a.reason).filter(Boolean),
  };
}

/**
 * The text of every page of a site (hidden parts too: a collapsed section is still on the page), after its
 * scripts ran.
 */
async function siteText(browser: Browser, dir: string, javaScriptEnabled = true): Promise<string> {
  const context = await browser.newContext({ javaScriptEnabled });
  let text = '';
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'))) {
    const page = await context.newPage();
    await page.goto(`file://${join(dir, f)}`, { waitUntil: 'load', timeout: 60_000 });
    text += `${await page.evaluate(() => document.body.textContent ?? '')}\n`;
    await page.close();
  }
  await context.close();
  return text;
}

try {
  const env = { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' };
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefix',
      work,
      '@asyncapi/generator@3.4.1',
      '@asyncapi/html-template@3.5.6',
    ],
    { env, stdio: 'ignore', timeout: 600_000 },
  );
  const out = join(work, 'out');
  writeFileSync(
    join(work, 'gen.cjs'),
    `const G = require('@asyncapi/generator');
const options = { forceWrite: true, install: false, templateParams: { singleFile: 'false' } };
new G('@asyncapi/html-template', ${JSON.stringify(out)}, options)
  .generateFromFile(${JSON.stringify(spec)}).catch((e) => { console.error(e.message); process.exit(1); });`,
  );
  const started = Date.now();
  execFileSync(process.execPath, [join(work, 'gen.cjs')], { cwd: work, env, stdio: 'ignore', timeout: 300_000 });
  console.log(`@asyncapi/html-template 3.5.6: generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const found = await findBrowser();
  const browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
  const loadMs = async (file: string) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`file://${file}`, { waitUntil: 'load', timeout: 60_000 });
      times.push(await page.evaluate(() => performance.getEntriesByType('navigation')[0]!.duration));
      await context.close();
    }
    return Math.round(times.sort((a, b) => a - b)[2]!);
  };
  const rows = [
    [
      'exchange-api docs',
      weight(ours),
      await loadMs(join(ours, 'index.html')),
      await siteText(browser, ours),
      await siteText(browser, ours, false),
    ],
    [
      '@asyncapi/html-template 3.5.6',
      weight(out),
      await loadMs(join(out, 'index.html')),
      await siteText(browser, out),
      await siteText(browser, out, false),
    ],
  ] as const;
  await browser.close();
  const probes = probesOf(readFileSync(spec, 'utf8'));
  for (const [name, bytes, ms, text, noJs] of rows) {
    console.log(`${name}: ${(bytes / 1024).toFixed(0)} kB HTML+CSS+JS, load event ${ms} ms (median of 5)`);
    for (const [probe, wanted] of Object.entries(probes)) {
      const missing = wanted.filter((w) => !text.includes(w));
      const found = wanted.filter((w) => text.includes(w));
      const e = (xs: string[]) =>
        xs
          .slice(0, 2)
          .map((x) => JSON.stringify(x.slice(0, 40)))
          .join(', ');
      console.log(
        `  ${probe}: ${found.length} of ${wanted.length}` +
          (missing.length && found.length ? ` (found ${e(found)})` : '') +
          `${missing.length ? ` (missing e.g. ${e(missing)})` : ''}`,
      );
    }
    // JavaScript numbers round 64-bit bounds: what a site prints instead of the exact value.
    const rounded = ['9223372036854776000', '18446744073709552000'].filter((n) => text.includes(n));
    console.log(`  rounded 64-bit bounds: ${rounded.length ? rounded.join(', ') : 'none'}`);
    const names = probes['example names']!;
    console.log(
      `  without JavaScript: ${names.filter((n) => noJs.includes(n)).length} of ` +
        `${names.length} example names, ${noJs.length} characters of text`,
    );
  }
  console.log(
    `ratio: ${(rows[1][1] / rows[0][1]).toFixed(1)}x the weight, ${(rows[1][2] / rows[0][2]).toFixed(1)}` +
      `x the load time`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The repository's site (packages/docs/site, as `npm run generate` wrote it) in a real browser
 * (headless Chromium through playwright-core; which one: test/support/chromium.ts), loaded from file:// as a
 * reader would open it: no console errors, every internal link lands, search finds what it should, every
 * channel and method has its section, and screenshots for a person to look at.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SiteMap, modelFromSpec, type ApiModel } from '@exchange-api/codegen';
// The codegen tests' variant of their ledger fixture: a second API with a method and named examples.
import { ledgerVariant, taggedModel } from '../../../tools/codegen/test/docs-helpers';
import { filesUnder, repoModel, root, siteDir, writeSite } from './helpers';
// Shared with the repository's other browser tests: one order of finding a browser everywhere.
import { findBrowser } from '../../../test/support/chromium';

const shots = join(root, 'test-output', 'docs');
/** A place in the site: a page and an anchor. */
type Ref = ReturnType<SiteMap['channel']>;

let browser: Browser;
let model: ApiModel;
let site: SiteMap;
const dir = siteDir;
let htmlPages: string[];
/** The file:// URL of a site path, its `#anchor` kept as a fragment. */
const url = (path: string) => {
  const [file, anchor] = path.split('#') as [string, string | undefined];
  return pathToFileURL(join(dir, file)).href + (anchor === undefined ? '' : `#${anchor}`);
};
/**
 * A place's path in the site, `page.html#anchor`: the site map says which page (a channel's, method's
 * and record's page is its group's where the spec tags its operations).
 */
const at = (ref: Ref) => `${ref.page}.html${ref.anchor ? `#${ref.anchor}` : ''}`;
const methodNamed = (name: string) => model.methods.find((m) => m.name === name)!;

beforeAll(async () => {
  model = await repoModel();
  site = new SiteMap(model);
  htmlPages = filesUnder(dir).filter((p) => p.endsWith('.html'));
  mkdirSync(shots, { recursive: true });
  // No silent skip: findBrowser always yields a browser (else the packaged one) or fails the suite.
  const found = await findBrowser();
  browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
});

afterAll(() => browser?.close());

async function open(
  path: string,
  options: { javaScriptEnabled?: boolean; width?: number } = {},
): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 860 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(url(path), { waitUntil: 'load' });
  return { page, problems, close: () => context.close() };
}

describe('docs site in chromium', () => {
  it('loads the index with no console errors, and with the search box once scripts run', async () => {
    const { page, problems, close } = await open('index.html');
    try {
      expect(await page.locator('form.search').isVisible()).toBe(true);
      expect(await page.title()).toContain(model.title);
      await page.screenshot({ path: join(shots, 'index.png') });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('resolves every internal link of every page to an existing file and anchor', async () => {
    const { page, problems, close } = await open('index.html');
    try {
      const ids = new Map<string, Set<string>>();
      const links: Array<{ from: string; href: string }> = [];
      for (const path of htmlPages) {
        await page.goto(url(path));
        const found = await page.evaluate(() => ({
          ids: Array.from(document.querySelectorAll('[id]'), (e) => e.id),
          hrefs: Array.from(document.querySelectorAll('a[href]'), (a) => (a as HTMLAnchorElement).href),
        }));
        ids.set(url(path), new Set(found.ids));
        for (const href of found.hrefs) links.push({ from: path, href });
      }
      expect(links.length).toBeGreaterThan(500);
      const broken = links.filter(({ href }) => {
        const [file, anchor] = href.split('#') as [string, string | undefined];
        if (!file.startsWith('file:')) return true; // nothing may leave the site
        const onPage = ids.get(file);
        return !onPage || (anchor !== undefined && anchor !== '' && !onPage.has(decodeURIComponent(anchor)));
      });
      expect(broken.map((l) => `${l.from} → ${l.href}`)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it.each([
    ['cancel_all', () => at(site.method(methodNamed('private/cancel_all')))],
    ['publish_id', () => at(site.fieldRef('OrderbookPayload', 'publish_id'))],
    ['insufficient_margin', () => 'enums.html#CancelReason.insufficient_margin'],
    // An error by its stable name, as programs and their readers know it.
    ['RATE_LIMITED', () => 'errors.html#error--32000'],
  ])('searching %s finds it and the hit opens its anchor', async (query, targetOf) => {
    const target = targetOf();
    const { page, problems, close } = await open('channels.html');
    try {
      await page.fill('#search', query);
      const hits = page.locator('#search-results li[role="option"] a');
      await hits.first().waitFor({ state: 'visible', timeout: 5000 });
      const hrefs = await hits.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(hrefs).toContain(url(target));
      await hits.nth(hrefs.indexOf(url(target))).click();
      await page.waitForURL(url(target));
      const anchor = decodeURIComponent(target.split('#')[1]!);
      expect(await page.evaluate((id) => document.getElementById(id)?.textContent ?? null, anchor)).toContain(query);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('searching an example by its name finds it, and the hit opens the example, captioned with that name', async () => {
    const { page, problems, close } = await open('index.html');
    try {
      await page.fill('#search', 'failure through the error member');
      const hits = page.locator('#search-results li[role="option"] a');
      await hits.first().waitFor({ state: 'visible', timeout: 5000 });
      const hrefs = await hits.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      const quotes = model.channels.find((c) => c.id === 'subaccountBestQuotes')!;
      const target = hrefs.find((h) =>
        h.startsWith(url(`${site.channel(quotes).page}.html#subaccountBestQuotes-example-`)),
      );
      expect(target).toBeDefined();
      await hits.nth(hrefs.indexOf(target!)).click();
      await page.waitForURL(target!);
      // Each example has its own anchor, on its figure: the hit lands on that example, not the first.
      const caption = await page.evaluate(
        (id) => document.getElementById(id)?.querySelector('figcaption')?.textContent ?? '',
        decodeURIComponent(target!.split('#')[1]!),
      );
      expect(caption).toContain('failure through the error member');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('gives every channel and every method of the spec its section', async () => {
    const { page, close } = await open('channels.html');
    // Each place on its own page (one page, or its group's): each page loaded once, its sections read at once.
    const texts = new Map<Ref, string | null>();
    const refs = [...model.channels.map((c) => site.channel(c)), ...model.methods.map((m) => site.method(m))];
    try {
      for (const onPage of new Set(refs.map((r) => r.page))) {
        const mine = refs.filter((r) => r.page === onPage);
        await page.goto(url(`${onPage}.html`));
        const found = await page.evaluate(
          (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? null),
          mine.map((r) => r.anchor!),
        );
        mine.forEach((r, i) => texts.set(r, found[i]!));
      }
      model.channels.forEach((c, i) => expect(texts.get(refs[i]!), c.id).toContain(c.address));
      const methods = refs.slice(model.channels.length);
      model.methods.forEach((m, i) => expect(texts.get(methods[i]!), m.name).toContain(m.name));
      await page.goto(url(at(site.channel(model.channels.find((c) => c.id === 'orderbook')!))));
      await page.screenshot({ path: join(shots, 'channel-orderbook.png') });
    } finally {
      await close();
    }
  });

  it(
    "shows each channel's payload fields in its section, one row per field with " +
      'its type and whether it is required',
    async () => {
      const { page, problems, close } = await open('channels.html');
      try {
        let tables = 0;
        for (const c of model.channels) {
          const t = model.types.find((x) => x.name === c.payload.record);
          if (t?.kind !== 'record' || !t.fields?.length) continue;
          const own = url(`${site.channel(c).page}.html`);
          if (page.url() !== own) await page.goto(own);
          // The first table between the payload heading and the next heading, as the browser parsed it
          // (its cells and rows are written without their optional end tags).
          const rows = await page.evaluate((id) => {
            for (
              let el = document.getElementById(id)?.nextElementSibling;
              el && !/^H[1-3]$/.test(el.tagName);
              el = el.nextElementSibling
            ) {
              const table = el.querySelector('table');
              if (table)
                return Array.from(table.querySelectorAll('tbody tr'), (tr) =>
                  Array.from(tr.querySelectorAll('td'), (td) => (td.textContent ?? '').trim()),
                );
            }
            return null;
          }, site.channel(c, 'payload').anchor!);
          expect(rows, c.address).not.toBeNull();
          expect(
            rows!.map((r) => r[0]),
            c.address,
          ).toEqual(t.fields.map((f) => f.name));
          expect(
            rows!.map((r) => r[2]),
            c.address,
          ).toEqual(t.fields.map((f) => (f.required ? 'yes' : 'no')));
          tables++;
        }
        expect(tables).toBeGreaterThan(5);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it('loads every page without JavaScript: its content, the sidebar to every page, no search box', async () => {
    // One browser context for all the pages; each page's sidebar links read at once.
    const { page, problems, close } = await open('index.html', { javaScriptEnabled: false });
    try {
      for (const path of htmlPages) {
        problems.splice(0);
        await page.goto(url(path), { waitUntil: 'load' });
        expect(await page.locator('form.search').count(), path).toBe(0);
        const side = await page.locator('nav.side a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
        for (const other of htmlPages.filter((p) => p !== path))
          expect(
            side.some((href) => href.endsWith(other)),
            `${path} → ${other}`,
          ).toBe(true);
        expect(await page.locator('main h1').first().isVisible(), path).toBe(true);
        expect(((await page.locator('main').textContent()) ?? '').length, path).toBeGreaterThan(200);
        expect(problems, path).toEqual([]);
      }
    } finally {
      await close();
    }
  });

  it(
    'shows the errors table whole at 1280 px (no sideways scroll), and a jumped-to ' +
      'heading below the sticky header at 390 px',
    async () => {
      const wide = await open('errors.html');
      try {
        const overflow = await wide.page.evaluate(() =>
          Array.from(document.querySelectorAll('main .tw'), (d) => d.scrollWidth - d.clientWidth),
        );
        expect(Math.max(...overflow)).toBeLessThanOrEqual(1);
        await wide.page.screenshot({ path: join(shots, 'errors-1280.png'), fullPage: true });
      } finally {
        await wide.close();
      }
      const params = site.method(methodNamed('private/order'), 'params');
      const narrow = await open(at(params), { width: 390 });
      try {
        // The page has scrolled to the anchor (a load event can come before it): polled on animation frames.
        await narrow.page.waitForFunction(() => window.scrollY > 0, undefined, { timeout: 30_000, polling: 'raf' });
        const { header, heading } = await narrow.page.evaluate(
          (id) => ({
            header: document.querySelector('header.top')!.getBoundingClientRect().bottom,
            heading: document.getElementById(id)!.getBoundingClientRect().top,
          }),
          params.anchor!,
        );
        expect(heading).toBeGreaterThanOrEqual(header);
        await narrow.page.screenshot({ path: join(shots, 'methods-390.png') });
      } finally {
        await narrow.close();
      }
    },
  );

  it(
    'reads without JavaScript (contents in the sidebar, no dead search box) and ' + 'prints without the chrome',
    async () => {
      const { page, close } = await open(`${site.typeRef('Order')!.page}.html`, { javaScriptEnabled: false });
      try {
        const visible = async (selector: string) =>
          (await page.locator(selector).count()) > 0 && page.locator(selector).first().isVisible();
        expect(await visible('form.search')).toBe(false);
        expect(await visible('nav.side a[href$="channels.html"]')).toBe(true);
        expect(await visible('[id="Order.amount"]')).toBe(true);
        await page.emulateMedia({ media: 'print' });
        expect(await visible('nav.side')).toBe(false);
        expect(await visible('header.top')).toBe(false);
        expect(await visible('[id="Order.amount"]')).toBe(true);
      } finally {
        await close();
      }
    },
  );
});

describe("a fixture spec's site in chromium (ledger variant: a method, named examples, named errors)", () => {
  let fixtureDir: string;
  let fixture: ApiModel;
  beforeAll(async () => {
    fixture = await modelFromSpec(ledgerVariant(), root);
    fixtureDir = writeSite(fixture, 'docs-fixture-');
  });
  afterAll(() => rmSync(fixtureDir, { recursive: true, force: true }));

  it.each([
    ['ACCOUNT_FROZEN', 'errors.html#error-4001'],
    ['last account', 'methods.html#balance-get-params-2'],
    ['second balance', 'methods.html#balance-get-result-2'],
    ['reversal', 'channels.html#entries-example-2'],
  ])('searching %s finds it and the hit opens its own anchor', async (query, target) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const at = (p: string) =>
      pathToFileURL(join(fixtureDir, p.split('#')[0]!)).href + (p.includes('#') ? `#${p.split('#')[1]}` : '');
    try {
      await page.goto(at('index.html'));
      await page.fill('#search', query);
      const hits = page.locator('#search-results li[role="option"] a');
      await hits.first().waitFor({ state: 'visible', timeout: 5000 });
      const hrefs = await hits.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(hrefs).toContain(at(target));
      await hits.nth(hrefs.indexOf(at(target))).click();
      await page.waitForURL(at(target));
      expect(
        await page.evaluate((id) => document.getElementById(id)?.textContent ?? null, target.split('#')[1]!),
      ).toContain(query);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('our site split by group in chromium (tagged by topic in the test, before our spec has tags)', () => {
  let splitDir: string;
  let tagged: ApiModel;
  let map: SiteMap;
  beforeAll(() => {
    tagged = taggedModel(model);
    map = new SiteMap(tagged);
    splitDir = writeSite(tagged, 'docs-split-');
  });
  afterAll(() => rmSync(splitDir, { recursive: true, force: true }));

  it(
    "search leads to a method on its group's page, whose sidebar lists the group's " + 'methods and every group',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
      const cancelAll = tagged.methods.find((m) => m.name === 'private/cancel_all')!;
      const ref = map.method(cancelAll);
      const target = pathToFileURL(join(splitDir, `${ref.page}.html`)).href + `#${ref.anchor}`;
      try {
        expect(ref.page).toMatch(/^methods-/);
        await page.goto(pathToFileURL(join(splitDir, 'records.html')).href);
        await page.fill('#search', 'cancel_all');
        const hits = page.locator('#search-results li[role="option"] a');
        await hits.first().waitFor({ state: 'visible', timeout: 5000 });
        const hrefs = await hits.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
        expect(hrefs).toContain(target);
        await hits.nth(hrefs.indexOf(target)).click();
        await page.waitForURL(target);
        expect(await page.evaluate((id) => document.getElementById(id)?.textContent ?? '', ref.anchor!)).toContain(
          'private/cancel_all',
        );
        const group = map.layout.methods.find((g) => g.page === ref.page)!;
        const listed = await page.locator('nav.side a[aria-current="page"] + ul a').allTextContents();
        expect(listed).toEqual(group.items.map((m) => m.name));
        for (const g of map.layout.methods)
          expect(await page.locator(`nav.side a[href="${g.page}.html"]`).isVisible(), g.page).toBe(true);
        await page.screenshot({ path: join(shots, 'methods-group.png') });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});

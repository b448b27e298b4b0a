/**
 * The HTML report (issue 23, item 33): the docs site's look, long frames wrapped (not cut at the right
 * edge, checked in Chromium: test/support/chromium.ts), a finding's value whole and escaped, and a
 * size that does not grow with every check a shared probe's transcript is attached to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { cut } from '@exchange-api/validators';
import { htmlReport } from '../src/reporters/html';
import { FINDING_MAX } from '../src/checks/util';
import type { CheckResult, Report, TranscriptEntry } from '../src/model';
import { findBrowser } from '../../../test/support/chromium';
import { zeroCounts } from '../src/generate/counts';

/** A server error whose data is long and hostile, as a check's finding keeps it. */
const error = {
  code: -32000,
  message: 'Rate limit',
  data: `<script>alert(1)</script> ${'wait 1000 ms; '.repeat(80)}end`,
};
const got = cut(error, FINDING_MAX);

/** A frame of the shared probe: one long line with no break opportunity for 600 characters. */
const frame = (i: number) =>
  `{"jsonrpc":"2.0","method":"subscription","params":{"channel":"t.${i}","data":"${'x'.repeat(600)}"}}`;
const shared: TranscriptEntry[] = Array.from({ length: 40 }, (_, i) => ({
  t: i,
  conn: 'c#1',
  dir: 'received',
  data: frame(i),
}));

const checkOf = (i: number, status: CheckResult['status']): CheckResult => ({
  id: `ratelimit.c${i}`,
  area: 'ratelimit',
  title: 'refuses past the budget',
  section: 'Limits',
  level: 'MUST',
  needs: [],
  status,
  durationMs: 5,
  findings: status === 'fail' ? [{ pointer: '/error', rule: 'r', expected: 'a retry hint', got, message: 'm' }] : [],
  observations: [],
  transcript: i % 2 === 0 ? shared : [...shared.slice(0, 20), { t: 99, conn: 'c#2', dir: 'sent', data: `{"i":${i}}` }],
});

function reportOf(n: number): Report {
  const checks = Array.from({ length: n }, (_, i) => checkOf(i, i === 0 ? 'fail' : 'pass'));
  return {
    format: 'exchange-api-conformance-report',
    formatVersion: 1,
    spec: { title: 'T', version: '1' },
    target: { ws: 'ws://h/v3/ws', http: null },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 10,
    exitCode: 1,
    summary: { total: n, passed: n - 1, failed: 1, skipped: 0, inconclusive: 0 },
    areas: [{ area: 'ratelimit', total: n, passed: n - 1, failed: 1, skipped: 0, inconclusive: 0 }],
    assumptions: [],
    checks,
  };
}

let browser: Browser;
beforeAll(async () => {
  const found = await findBrowser();
  browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('the HTML report', () => {
  it("keeps a finding's value whole (the server's error data included), escaped", () => {
    expect(got.endsWith('end"}')).toBe(true);
    const html = htmlReport(reportOf(2));
    expect(html).toContain(`&lt;script&gt;alert(1)&lt;/script&gt; ${'wait 1000 ms; '.repeat(80)}end`);
    expect(html).not.toContain('<script>alert(1)');
  });

  it('does not repeat a transcript or a long frame another check shows: 30 checks weigh little more than 2', () => {
    const two = Buffer.byteLength(htmlReport(reportOf(2)));
    const thirty = Buffer.byteLength(htmlReport(reportOf(30)));
    expect(thirty).toBeLessThan(two * 1.6);
    // Every check still says where its transcript is.
    const html = htmlReport(reportOf(30));
    expect(html).toContain('Transcript (40): the same as <a href="#c-ratelimit.c0">ratelimit.c0</a>');
    expect(html).toContain('+0…19ms: 20 entries shown under <a href="#c-ratelimit.c0">ratelimit.c0</a>');
  });

  it(
    'looks like the docs site and wraps long frames and values in Chromium (nothing ' + 'cut at the right edge)',
    async () => {
      const dir = join(import.meta.dirname, '..', '..', '..', 'test-output', 'conformance-html');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'report.html');
      writeFileSync(file, htmlReport(reportOf(4)));
      const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
      try {
        const page = await context.newPage();
        await page.goto(pathToFileURL(file).href);
        const seen = await page.evaluate(() => ({
          font: getComputedStyle(document.body).fontFamily,
          header: getComputedStyle(document.querySelector('header')!).backgroundColor,
          pageWider: document.documentElement.scrollWidth > document.documentElement.clientWidth,
          cut: Array.from(document.querySelectorAll('pre.tr, .findings code'))
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .filter((e) => e.scrollWidth > e.clientWidth + 1).length,
          shownPre: Array.from(document.querySelectorAll('pre.tr')).filter(
            (e) => (e as HTMLElement).offsetParent !== null,
          ).length,
        }));
        expect(seen.font).toMatch(/system-ui/);
        expect(seen.header).toBe('rgb(20, 32, 46)');
        expect(seen.shownPre).toBeGreaterThan(0);
        expect([seen.cut, seen.pageWider]).toEqual([0, false]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );

  it('opens at its top on the summary, however long the generated table; a summary is said once', async () => {
    const base = reportOf(3);
    const inconclusive: CheckResult = {
      ...checkOf(9, 'inconclusive'),
      id: 'generated.public/get_time@ws',
      area: 'generated',
      reason: '3 valid and 2 invalid inputs: 0 pass, 0 fail, 5 inconclusive, 0 notes, 0 not run',
      observations: [{ text: '3 valid and 2 invalid inputs: 0 pass, 0 fail, 5 inconclusive, 0 notes, 0 not run' }],
      transcript: [],
    };
    const targets = Array.from({ length: 80 }, (_, i) => ({
      ...zeroCounts(`generated.m${i}@ws`, `m${i}`, 'method', 'ws'),
      valid: 3,
    }));
    const report: Report = {
      ...base,
      checks: [...base.checks, inconclusive],
      generated: {
        seed: 1,
        spec: { file: 'spec.yaml', title: 'T', version: '1' },
        cases: 240,
        totals: { pass: 0, fail: 0, inconclusive: 5, note: 0, notRun: 0 },
        targets,
        replays: [],
      },
    };
    const html = htmlReport(report);
    expect(html.split(`>${inconclusive.reason!}<`).length - 1).toBe(1);
    expect(html).not.toMatch(/autofocus/);
    const dir = join(import.meta.dirname, '..', '..', '..', 'test-output', 'conformance-html');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'generated-report.html');
    writeFileSync(file, html);
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    try {
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      const seen = await page.evaluate(() => ({
        scrollY: window.scrollY,
        focused: document.activeElement?.tagName,
        summaryTop: document.querySelector('main > p')!.getBoundingClientRect().top,
        pageTaller: document.documentElement.scrollHeight > window.innerHeight * 2,
      }));
      expect(seen.pageTaller).toBe(true);
      expect(seen).toMatchObject({ scrollY: 0, focused: 'BODY' });
      expect(seen.summaryTop).toBeGreaterThan(0);
      expect(seen.summaryTop).toBeLessThan(700);
    } finally {
      await context.close();
    }
  }, 60_000);
});

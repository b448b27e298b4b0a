/**
 * The browser build in headless Chromium: esbuild bundles src/browser.ts (global WebSocket and fetch,
 * no Node built-ins), a loopback page loads it and streams order books from the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { findBrowser } from '../support/chromium';

const entry = fileURLToPath(new URL('../../packages/client/src/browser.ts', import.meta.url));

const page = `<!doctype html><meta charset="utf-8"><title>client</title>
<script type="module">
  import { createClient, channels } from '/client.js';
  const params = new URLSearchParams(location.search);
  const client = createClient({ wsUrl: params.get('ws'), httpUrl: params.get('http'), validate: 'strict' });
  const reports = [];
  client.on('validation', (r) => reports.push(r.target));
  try {
    await client.connect();
    const books = [];
    for await (const book of client.stream(channels.orderbook({ instrument_name: 'ETH-PERP', group: 1, depth: 10 }))) {
      books.push({ instrument: book.instrument_name, publishId: book.publish_id, bids: book.bids.length });
      if (books.length === 3) break;
    }
    const limits = await client.call('public/getRateLimits', {}, { transport: 'http' });
    await client.close();
    const http = typeof limits.remaining_non_matching.remainingPoints;
    window.__result = { books, reports, http, node: typeof process };
  } catch (err) {
    window.__result = { error: String(err && err.stack || err) };
  }
</script>`;

let sb: Sandbox;
let server: Server;
let browser: Browser | null = null;
let bundle: string;

beforeAll(async () => {
  // The repository's packages resolve to their sources (the consumer test bundles the built ones).
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    conditions: ['@exchange-api/source'],
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]!.text;
  sb = await startSandbox({ port: 0, market: { intervalMs: 20 } });
  server = createServer((req, res) => {
    if (req.url?.startsWith('/client.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(bundle);
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
});
afterAll(async () => {
  await browser?.close();
  // A beforeAll that failed early leaves no server: nothing to wait for then.
  if (server) await new Promise<void>((r) => server.close(() => r()));
  await sb?.close();
});

describe('browser build', () => {
  it('has no Node built-ins or ws', () => {
    expect(bundle).not.toMatch(/from\s*["'](node:[a-z_]+|ws|http|net|events)["']/);
    expect(bundle).not.toMatch(/require\(["'](node:)?(fs|net|http|crypto)["']\)/);
  });

  it('streams order books from the sandbox in headless Chromium', async () => {
    const found = await findBrowser();
    browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
    const tab = await browser.newPage();
    const logs: string[] = [];
    tab.on('console', (m) => logs.push(m.text()));
    tab.on('pageerror', (e) => logs.push(String(e)));
    const port = (server.address() as AddressInfo).port;
    await tab.goto(
      `http://127.0.0.1:${port}/?ws=${encodeURIComponent(sb.wsUrl)}&http=${encodeURIComponent(sb.httpUrl)}`,
    );
    await tab
      .waitForFunction(() => (window as { __result?: unknown }).__result !== undefined, undefined, { timeout: 30_000 })
      .catch(() => {
        throw new Error(`page gave no result; console: ${logs.join('\n')}`);
      });
    const result = (await tab.evaluate(() => (window as { __result?: unknown }).__result)) as any;
    expect(result.error, logs.join('\n')).toBeUndefined();
    expect(result.books).toHaveLength(3);
    expect(
      result.books.every((b: { instrument: string; bids: number }) => b.instrument === 'ETH-PERP' && b.bids > 0),
    ).toBe(true);
    expect(result.reports).toEqual([]);
    expect(result.http).toBe('number');
    expect(result.node).toBe('undefined');
  });
});

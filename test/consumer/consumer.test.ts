/**
 * What a user gets from npm: every publishable package packed (its `prepack` builds it), only the
 * tarballs installed into a new project outside the repository, and each promise of the packages
 * proved there, with none of the repository's development settings (no source condition, no tsx).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { Wallet } from 'ethers';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { PUBLISHABLE, consumerEnv, describeRun, makeConsumer, repoRoot, run, type Consumer } from './project';

/** The budget for the browser core: minified and gzipped, without ethers, auth and validators. */
const BROWSER_CORE_BUDGET = 15 * 1024;
const names = Object.keys(PUBLISHABLE);

let consumer: Consumer;
let sandbox: ChildProcess | undefined;
let urls: { ws: string; http: string };

/** Start the installed `exchange-api sandbox` on a free port; resolves with its URLs from its first line. */
function startInstalledSandbox(dir: string): Promise<{ ws: string; http: string }> {
  const child = spawn(join(dir, 'node_modules', '.bin', 'exchange-api'), ['sandbox', '--port', '0'], {
    cwd: dir,
    env: consumerEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  sandbox = child;
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const bound = setTimeout(() => reject(new Error(`installed sandbox printed no first line within 20 s; stderr: ${stderr}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`installed sandbox exited ${code} before listening; stderr: ${stderr}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(bound);
      const m = /^sandbox listening (ws:\/\/\S+) (http:\/\/\S+)$/.exec(line);
      if (m) resolve({ ws: m[1]!, http: m[2]! });
      else reject(new Error(`installed sandbox's first line is not "sandbox listening …": ${line}`));
    });
  });
}

beforeAll(async () => {
  consumer = makeConsumer();
  urls = await startInstalledSandbox(consumer.dir);
}, 900_000);

afterAll(() => {
  if (sandbox?.pid !== undefined && sandbox.exitCode === null) {
    try {
      process.kill(-sandbox.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  consumer?.remove();
});

describe('the packages as installed from their tarballs', () => {
  it('every package loads with Node ESM import', () => {
    const r = run(process.execPath, ['load-all.mjs', ...names], consumer.dir);
    expect(r.status, describeRun('node load-all.mjs', r)).toBe(0);
    const exportsOf = JSON.parse(r.stdout) as Record<string, string[]>;
    for (const name of names) expect(exportsOf[name]?.length, `${name} has exports`).toBeGreaterThan(0);
    expect(exportsOf['@exchange-api/client']).toEqual(expect.arrayContaining(['createClient', 'channels']));
    expect(exportsOf['@exchange-api/cli']).toContain('main');
    expect(exportsOf['@exchange-api/docs']).toContain('siteDir');
  });

  it('every package loads with CommonJS require', () => {
    const r = run(process.execPath, ['load-all.cjs', ...names], consumer.dir);
    expect(r.status, describeRun('node load-all.cjs', r)).toBe(0);
    const exportsOf = JSON.parse(r.stdout) as Record<string, string[]>;
    for (const name of names) expect(exportsOf[name]?.length, `${name} has exports`).toBeGreaterThan(0);
    expect(exportsOf['@exchange-api/types']).toEqual(expect.arrayContaining(['channels', 'matchChannel']));
    expect(exportsOf['@exchange-api/sandbox']).toContain('startSandbox');
  });

  it('the docs package points at its installed site', () => {
    const r = run(process.execPath, ['-e', "const { siteDir } = require('@exchange-api/docs'); console.log(require('node:fs').readFileSync(siteDir + '/index.html', 'utf8').length)"], consumer.dir);
    expect(r.status, describeRun('require docs siteDir', r)).toBe(0);
    expect(Number(r.stdout)).toBeGreaterThan(1000);
  });

  it('a strict TypeScript consumer, module Node16 (ESM and CommonJS files), type-checks', () => {
    const r = run(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'node16'], consumer.dir);
    expect(r.status, describeRun('tsc -p node16', r)).toBe(0);
  });

  it('a strict TypeScript consumer, module bundler, type-checks', () => {
    const r = run(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'bundler'], consumer.dir);
    expect(r.status, describeRun('tsc -p bundler', r)).toBe(0);
  });

  it("the consumer's @ts-expect-error on group 7 stays an error", () => {
    // Without the directive, the same call must fail to type-check: proof that the directive is needed.
    const file = join(consumer.dir, 'bundler', 'consumer.ts');
    const withDirective = readFileSync(file, 'utf8');
    const probe = run(
      process.execPath,
      ['-e', `require('fs').writeFileSync(${JSON.stringify(join(consumer.dir, 'bundler', 'probe.ts'))}, ${JSON.stringify(withDirective.replace(/^\/\/ @ts-expect-error.*$/m, ''))})`],
      consumer.dir,
    );
    expect(probe.status).toBe(0);
    const r = run(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'bundler'], consumer.dir);
    run(process.execPath, ['-e', `require('fs').rmSync(${JSON.stringify(join(consumer.dir, 'bundler', 'probe.ts'))})`], consumer.dir);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/probe\.ts\(\d+,\d+\): error TS2322: Type '7' is not assignable/);
  });
});

describe('package lint of every tarball', () => {
  it.each(names)('publint (strict, suggestions included) reports nothing for %s', async (name) => {
    const bytes = readFileSync(consumer.tarballs[name]!);
    const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const { messages, pkg } = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
    expect(messages.map((m) => formatMessage(m, pkg, { color: false }))).toEqual([]);
  });

  it.each(names)('are-the-types-wrong (attw, strict profile) reports nothing for %s', (name) => {
    const r = run(process.execPath, [join(repoRoot, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'), consumer.tarballs[name]!, '--format', 'json'], repoRoot, 120_000);
    const problems = r.stdout ? (JSON.parse(r.stdout) as { problems?: Record<string, unknown> }).problems : undefined;
    expect(problems, describeRun(`attw ${name}`, r)).toEqual({});
    expect(r.status, describeRun(`attw ${name}`, r)).toBe(0);
  });
});

describe('the installed command and client against each other', () => {
  it('the installed exchange-api conformance passes the installed sandbox', () => {
    const report = join(consumer.dir, 'conformance.json');
    const r = run(
      join(consumer.dir, 'node_modules', '.bin', 'exchange-api'),
      ['conformance', '--ws', urls.ws, '--http', urls.http, '--report', `json:${report}`],
      consumer.dir,
      300_000,
    );
    expect(r.status, describeRun('exchange-api conformance', r)).toBe(0);
    const summary = (JSON.parse(readFileSync(report, 'utf8')) as { summary: { total: number; passed: number; failed: number } }).summary;
    expect(summary.failed).toBe(0);
    expect(summary.passed).toBeGreaterThan(40);
  });

  it('the installed conformance logs in to the installed sandbox with a real signature', () => {
    const r = spawnWithKey(['conformance', '--ws', urls.ws, '--http', urls.http, '--only', 'login']);
    expect(r.status, describeRun('exchange-api conformance --only login', r)).toBe(0);
    expect(r.stdout).toMatch(/\b[1-9]\d* passed\b/);
    expect(r.stdout).toMatch(/\b0 failed\b/);
  });

  it('the installed client (ESM) streams three order books from the installed sandbox, strictly validated, without loading ethers', () => {
    const r = run(process.execPath, ['--import', './trace-ethers.mjs', 'stream-books.mjs', urls.ws, urls.http], consumer.dir, 60_000);
    expect(r.status, describeRun('node stream-books.mjs', r)).toBe(0);
    const books = JSON.parse(r.stdout) as Array<{ instrument_name: string; count: number; last: number }>;
    expect(books.map((b) => b.instrument_name)).toEqual(['ETH-PERP', 'BTC-PERP', 'ETH-USDC']);
    for (const b of books) {
      expect(b.count).toBe(3);
      expect(Number.isInteger(b.last)).toBe(true);
    }
    expect(r.stderr).not.toContain('ethers-loaded');
  });

  it('the installed client (CommonJS) reads public data without loading ethers', () => {
    const r = run(process.execPath, ['--import', './trace-ethers.mjs', 'public-data.cjs', urls.ws, urls.http], consumer.dir, 60_000);
    expect(r.status, describeRun('node public-data.cjs', r)).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expect.arrayContaining(['ETH-PERP', 'BTC-PERP']));
    expect(r.stderr).not.toContain('ethers-loaded');
  });

  it('the ethers trace sees ethers when it is loaded (import and require): the two checks above can fail', () => {
    const esm = run(process.execPath, ['--import', './trace-ethers.mjs', 'load-all.mjs', '@exchange-api/auth'], consumer.dir);
    expect(esm.status, describeRun('load auth (ESM)', esm)).toBe(0);
    expect(esm.stderr).toContain('ethers-loaded import');
    const cjs = run(process.execPath, ['--import', './trace-ethers.mjs', 'load-all.cjs', '@exchange-api/auth'], consumer.dir);
    expect(cjs.status, describeRun('load auth (CommonJS)', cjs)).toBe(0);
    expect(cjs.stderr).toContain('ethers-loaded require');
  });
});

describe('the installed client in a browser bundle', () => {
  const bundle = (external: string[]) =>
    build({
      entryPoints: [join(consumer.dir, 'browser-entry.mjs')],
      absWorkingDir: consumer.dir,
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      external,
      logLevel: 'silent',
    });

  it(`the core (without ethers, auth and validators) is at most ${BROWSER_CORE_BUDGET} bytes gzipped, with no Node built-in`, async () => {
    const out = await bundle(['ethers', '@exchange-api/auth', '@exchange-api/validators']);
    const code = out.outputFiles[0]!.contents;
    const text = new TextDecoder().decode(code);
    const gz = gzipSync(code, { level: 9 }).length;
    console.log(`installed client, browser core: ${code.length} bytes minified, ${gz} bytes gzipped (budget ${BROWSER_CORE_BUDGET})`);
    expect(text).not.toMatch(/from\s*"(node:|ws"|events"|http")/);
    expect(gz).toBeLessThanOrEqual(BROWSER_CORE_BUDGET);
  });

  it('the whole client (signing and validation included) bundles for the browser', async () => {
    const out = await bundle([]);
    const text = new TextDecoder().decode(out.outputFiles[0]!.contents);
    expect(text.length).toBeGreaterThan(BROWSER_CORE_BUDGET);
    expect(text).not.toMatch(/require\("(node:|ws|events|http)/);
  });
});

/** Run the installed command with a fresh private key in EXCHANGE_API_KEY (never on the command line). */
function spawnWithKey(args: string[]) {
  return spawnSync(join(consumer.dir, 'node_modules', '.bin', 'exchange-api'), args, {
    cwd: consumer.dir,
    env: { ...consumerEnv(), EXCHANGE_API_KEY: Wallet.createRandom().privateKey },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

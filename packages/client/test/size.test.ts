/**
 * The size budget of the browser core: the client that knows no API (createApiClient), minified and
 * gzipped, without ethers, auth and validators. This interface's generated surface (its tables, its
 * `rpc` namespace) grows with the spec, so the whole entry is measured and reported, not budgeted.
 */
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src', import.meta.url));
/** The budget: the core, minified and gzipped, without ethers and without validators. */
const BUDGET_BYTES = 15 * 1024;

/** The browser entry's bundle of what `contents` (a module in src/) imports: minified bytes and gzipped bytes. */
async function bundle(contents: string): Promise<{ code: string; minified: number; gzipped: number }> {
  const out = await build({
    stdin: { contents, resolveDir: src, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    external: ['ethers', '@exchange-api/auth', '@exchange-api/validators'],
    // The repository's packages resolve to their sources (the consumer test bundles the built ones).
    conditions: ['@exchange-api/source'],
    logLevel: 'silent',
  });
  const bytes = out.outputFiles[0]!.contents;
  return {
    code: new TextDecoder().decode(bytes),
    minified: bytes.length,
    gzipped: gzipSync(bytes, { level: 9 }).length,
  };
}

describe('size budget', () => {
  it(`browser core, minified + gzipped, without ethers/auth/validators, is at most ${BUDGET_BYTES} bytes`, async () => {
    const core = await bundle("export { createApiClient, ApiClient } from './browser';");
    const whole = await bundle("export * from './browser';");
    console.log(
      `client core: ${core.minified} bytes minified, ${core.gzipped} bytes gzipped (budget ${BUDGET_BYTES}); ` +
        `with this interface's generated surface: ${whole.minified} bytes minified, ${whole.gzipped} gzipped`,
    );
    // No Node built-ins and no ws in the browser entry.
    expect(whole.code).not.toMatch(/from\s*"(node:|ws"|events"|http")/);
    // The core carries none of this interface's tables: no method name of it is in the core's bundle.
    expect(core.code).not.toContain('private/get_open_orders');
    expect(whole.code).toContain('private/get_open_orders');
    expect(core.gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});

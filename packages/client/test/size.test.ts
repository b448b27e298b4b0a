import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../src/browser.ts', import.meta.url));
/** The budget: the core, minified and gzipped, without ethers and without validators. */
const BUDGET_BYTES = 15 * 1024;

describe('size budget', () => {
  it(`browser core, minified + gzipped, without ethers/auth/validators, is at most ${BUDGET_BYTES} bytes`, async () => {
    const out = await build({
      entryPoints: [entry],
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
    const code = out.outputFiles[0]!.contents;
    const gz = gzipSync(code, { level: 9 }).length;
    console.log(`client core: ${code.length} bytes minified, ${gz} bytes gzipped (budget ${BUDGET_BYTES})`);
    // No Node built-ins and no ws in the browser entry.
    expect(new TextDecoder().decode(code)).not.toMatch(/from\s*"(node:|ws"|events"|http")/);
    expect(gz).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});

/**
 * A consumer reading only public market data does not load ethers: the Node entry is bundled with
 * code splitting, and its static import graph (what loads with `import '@exchange-api/client'`) must
 * reach neither ethers nor @exchange-api/auth; both must still be there behind a dynamic import().
 */
import { describe, expect, it } from 'vitest';
import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const outdir = fileURLToPath(new URL('../.bundle-check', import.meta.url));
// The metafile names inputs relative to the working folder: the repository root, wherever vitest runs.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Output chunks reached from `start` through import edges of the given kinds. */
function reached(meta: Metafile, start: string, kinds: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>([start]);
  const todo = [start];
  while (todo.length) {
    for (const imp of meta.outputs[todo.pop()!]!.imports) {
      if (imp.external || !kinds.has(imp.kind) || seen.has(imp.path)) continue;
      seen.add(imp.path);
      todo.push(imp.path);
    }
  }
  return seen;
}

/** What a set of chunks loads: external packages they import statically, and the source files bundled in them. */
function contents(meta: Metafile, chunks: Set<string>) {
  const externals = new Set<string>();
  const inputs: string[] = [];
  for (const chunk of chunks) {
    const out = meta.outputs[chunk]!;
    for (const imp of out.imports) if (imp.external && imp.kind === 'import-statement') externals.add(imp.path);
    inputs.push(...Object.keys(out.inputs));
  }
  return { externals, inputs };
}

describe('lazy signing', () => {
  it('the static import graph of the Node entry holds no ethers and no @exchange-api/auth', async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir,
      absWorkingDir: repoRoot,
      write: false,
      metafile: true,
      external: ['ethers', 'ws'],
      conditions: ['@exchange-api/source'],
      logLevel: 'silent',
    });
    const meta = result.metafile!;
    const entryChunk = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint !== undefined)!;
    const eager = contents(meta, reached(meta, entryChunk, new Set(['import-statement'])));
    const all = contents(meta, reached(meta, entryChunk, new Set(['import-statement', 'dynamic-import'])));
    // Loaded with the package: the client, ws, the tables; never the signing stack.
    expect(eager.inputs.some((i) => i.includes('client/src/client.ts'))).toBe(true);
    expect(eager.externals.has('ws')).toBe(true);
    expect([...eager.externals]).not.toContain('ethers');
    expect(eager.inputs.filter((i) => i.includes('auth/src/'))).toEqual([]);
    // Positive evidence that the graph was read right: signing still reaches auth and ethers, lazily.
    expect(all.inputs.some((i) => i.includes('auth/src/login.ts'))).toBe(true);
    expect(all.externals.has('ethers')).toBe(true);
  });
});

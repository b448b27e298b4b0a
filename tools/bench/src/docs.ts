/**
 * The docs site: how long emitting it takes (the first call in the process, which pays for compiling
 * the example validators, as `npm run generate` does) and what the site weighs (HTML, CSS and JS;
 * the Markdown copy is not served).
 */
import { join } from 'node:path';
import { emitDocs, headerFor, modelFromSpec } from '@exchange-api/codegen';
import type { BenchResult } from './report';

/** Docs generation time (target < 1 s) and site weight (target < 300 kB, 300,000 bytes) for the repository's spec. */
export async function runDocs(root: string): Promise<BenchResult[]> {
  const model = await modelFromSpec(join(root, 'spec', 'asyncapi.yaml'), root);
  const t0 = performance.now();
  const files = emitDocs(model);
  const seconds = (performance.now() - t0) / 1000;
  // As written to disk: the writer's header line is part of each file's weight.
  const bytes = files
    .filter((f) => !f.path.startsWith('md/'))
    .reduce((n, f) => n + Buffer.byteLength(headerFor(f.path, 'spec/asyncapi.yaml') + '\n' + f.content), 0);
  return [
    { name: 'docs generation (emitDocs, first call)', value: seconds, unit: ' s', op: '<', target: 1 },
    { name: 'docs site weight (HTML+CSS+JS)', value: bytes, unit: ' bytes', op: '<', target: 300_000 },
  ];
}

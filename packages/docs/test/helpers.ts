/** Shared by the tests of the site: the repository root, its model loaded once, a site written for a model. */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitDocs, findRepoRoot, modelFromSpec, type ApiModel } from '@exchange-api/codegen';

export const root = findRepoRoot(dirname(fileURLToPath(import.meta.url)))!;
export const specFile = join(root, 'spec', 'asyncapi.yaml');
/** The repository's copy of the site, as `npm run generate` writes it. */
export const siteDir = join(root, 'packages', 'docs', 'site');

let cached: Promise<ApiModel> | null = null;
/** The model of the repository's spec (the one the site was generated from). */
export function repoModel(): Promise<ApiModel> {
  cached ??= modelFromSpec(specFile, root);
  return cached;
}

/** The site of a model, written to a new temporary folder; that folder. */
export function writeSite(model: ApiModel, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const f of emitDocs(model)) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
  return dir;
}

/** Every file under a folder, as paths relative to it. */
export function filesUnder(dir: string, d = dir): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(dir, join(d, e.name)) : [relative(dir, join(d, e.name))],
  );
}

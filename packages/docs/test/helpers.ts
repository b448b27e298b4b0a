/** Shared by the tests of the site: the repository root, and its model loaded once per test file. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot, modelFromSpec, type ApiModel } from '@exchange-api/codegen';

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

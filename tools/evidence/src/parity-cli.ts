/**
 * `npm run parity -w @exchange-api/evidence [-- --check]`: writes docs/derive-ts-parity.md from the
 * evidence and the spec (or, with --check, exits 1 when the page differs from what it would write).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelFromSpec } from '@exchange-api/codegen';
import { loadEvidence } from './load-evidence';
import { parityPage } from './parity';
import { REPO_ROOT } from './paths';

export const PARITY_PAGE = join(REPO_ROOT, 'docs', 'derive-ts-parity.md');

async function main(): Promise<void> {
  const model = await modelFromSpec(join(REPO_ROOT, 'spec', 'asyncapi.yaml'), REPO_ROOT);
  const page = parityPage(loadEvidence().derive, model);
  if (!process.argv.includes('--check')) {
    writeFileSync(PARITY_PAGE, page);
    console.log(`wrote ${PARITY_PAGE}`);
    return;
  }
  if (readFileSync(PARITY_PAGE, 'utf8') !== page) {
    console.error(
      `${PARITY_PAGE} differs from the evidence and the spec: run npm run parity -w @exchange-api/evidence`,
    );
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  console.error(`parity: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});

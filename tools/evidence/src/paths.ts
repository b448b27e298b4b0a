import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is tools/evidence/src/paths.ts). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Where the evidence and the decisions live. */
export const EVIDENCE_DIR = join(REPO_ROOT, 'spec', 'evidence');

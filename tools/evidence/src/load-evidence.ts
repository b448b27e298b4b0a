import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVIDENCE_DIR } from './paths';
import type { CcxtEvidence, DeriveTsEvidence } from './shape';

/** The client versions the checked-in evidence is from. */
export const DERIVE_TS_VERSION = '3.0.13';
export const CCXT_VERSION = '4.5.84';

/** The checked-in evidence files and the decisions file. */
export const EVIDENCE_FILES = {
  deriveTs: join(EVIDENCE_DIR, `derive-ts-${DERIVE_TS_VERSION}.json`),
  ccxt: join(EVIDENCE_DIR, `ccxt-${CCXT_VERSION}.json`),
  decisions: join(EVIDENCE_DIR, 'decisions.yaml'),
};

/** Reads the checked-in evidence. */
export function loadEvidence(): { derive: DeriveTsEvidence; ccxt: CcxtEvidence } {
  return {
    derive: JSON.parse(readFileSync(EVIDENCE_FILES.deriveTs, 'utf8')) as DeriveTsEvidence,
    ccxt: JSON.parse(readFileSync(EVIDENCE_FILES.ccxt, 'utf8')) as CcxtEvidence,
  };
}

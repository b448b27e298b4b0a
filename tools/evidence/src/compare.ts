/**
 * `npm run compare -w @exchange-api/evidence [-- --spec <file>] [--all]`: the spec against the
 * checked-in evidence. Prints the summary line and every disagreement without a written decision
 * (`--all`: with the decided ones too); exits 1 when any is undecided.
 */
import { join } from 'node:path';
import { modelFromSpec } from '@exchange-api/codegen';
import { decisionName, readDecisions } from './decisions';
import { EVIDENCE_FILES, loadEvidence } from './load-evidence';
import { REPO_ROOT } from './paths';
import { compareEvidence, summaryLine, undecidedLines } from './report';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--spec');
  const spec = at >= 0 && argv[at + 1] ? argv[at + 1]! : join(REPO_ROOT, 'spec', 'asyncapi.yaml');
  const model = await modelFromSpec(spec, REPO_ROOT);
  const { derive, ccxt } = loadEvidence();
  const report = compareEvidence(model, derive, ccxt, readDecisions(EVIDENCE_FILES.decisions));
  if (argv.includes('--all')) {
    for (const [name, m] of Object.entries(report.methods)) {
      for (const part of ['params', 'result'] as const) {
        for (const d of m[part]?.disagreements ?? []) {
          console.log(
            `${d.decided ? 'decided' : 'UNDECIDED'} ${name} ${part} ${d.path || '(whole)'}: ${d.kind}: ` +
              `client ${d.evidence}, spec ${d.spec}`,
          );
        }
      }
    }
  }
  const lines = undecidedLines(report);
  for (const l of lines) console.log(l);
  for (const d of report.unusedDecisions) console.log(`decision covers nothing: ${decisionName(d)}`);
  console.log(summaryLine(report));
  if (lines.length > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(`compare: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});

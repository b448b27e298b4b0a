import { parseCommand, usageError, reportFailure } from '../args';
import { join } from 'node:path';
import { findRepoRoot, formatProblem, loadSpec, buildModel, checkExamples, defaultNote } from '@exchange-api/codegen';

export const SPEC_HELP = `Usage: exchange-api spec [--spec <file>]

Checks an AsyncAPI 3.0 spec (the parser and our conventions) and prints its summary: servers, channels,
methods, records, enumerations, limits, errors, assumptions and the places the document leaves open.

Examples:
  npx exchange-api spec
  npx exchange-api spec --spec ./other.asyncapi.yaml

Exit codes: 0 valid, 2 usage or spec errors.`;

export async function runSpecSummary(argv: string[]): Promise<number> {
  const values = parseCommand<{ spec?: string }>('spec', SPEC_HELP, argv, { spec: { type: 'string' } });
  if (typeof values === 'number') return values;
  const root = findRepoRoot();
  const file = values.spec ?? (root ? join(root, 'spec', 'asyncapi.yaml') : null);
  if (!file) return usageError('spec', 'no spec/asyncapi.yaml above this folder; pass --spec <file>');
  try {
    const loaded = await loadSpec(file, { cwd: root ?? process.cwd() });
    const m = buildModel(loaded);
    checkExamples(loaded, m);
    console.log(`spec ok: ${m.title} ${m.version} (${loaded.file})`);
    for (const n of loaded.notes) console.log(`  ${formatProblem(n)}`);
    for (const d of m.defaults) console.log(`  ${defaultNote(d)}`);
    const records = m.types.filter((t) => t.kind === 'record');
    const enums = m.types.filter((t) => t.kind === 'enum');
    console.log(`servers (${m.servers.length}): ${m.servers.map((s) => `${s.id} ${s.protocol}://${s.host}${s.pathname}`).join(', ')}`);
    console.log(`channels (${m.channels.length}):`);
    for (const c of m.channels) console.log(`  ${c.access.padEnd(7)} ${c.address.padEnd(44)} ${c.payload.record ?? '?'}${c.payload.array ? '[]' : ''}`);
    console.log(`methods (${m.methods.length}):`);
    for (const x of m.methods) console.log(`  ${x.name.padEnd(32)} ${(x.rateLimitClass ?? 'none').padEnd(13)} ${x.transports.join('+').padEnd(8)} auth ${x.auth}`);
    console.log(`records (${records.length}): ${records.map((r) => r.name).join(', ')}`);
    console.log(`enumerations (${enums.length}): ${enums.map((e) => e.name).join(', ')}`);
    console.log(`limits (${m.limits.length}): ${m.limits.map((l) => l.id).join(', ')}`);
    console.log(`errors (${m.errors.codes.length}): ${m.errors.codes.map((e) => e.code).join(', ')}`);
    console.log(`assumptions (${m.assumptions.length}):`);
    for (const a of m.assumptions) console.log(`  ${a.id}: ${a.title}`);
    console.log(`not shown (${m.notShown.length} places): see spec/README.md`);
    return 0;
  } catch (err) {
    return reportFailure('spec', err);
  }
}

import { parseCommand, usageError, reportFailure } from '../args';
import { join, resolve } from 'node:path';
import {
  findRepoRoot,
  formatProblem,
  loadSpec,
  buildModel,
  checkExamples,
  defaultNote,
  placedError,
  messageVariants,
  type ApiModel,
} from '@exchange-api/codegen';

export const SPEC_HELP = `Usage: exchange-api spec [--spec <file>]

Checks an AsyncAPI 3.x spec (the parser and our conventions) and prints its summary: servers, channels,
methods, records, enumerations, limits, errors, assumptions and the places the document leaves open.
A spec without the exchange-api x- extensions is fine: each absent one takes its default, printed as a
note (the defaults are listed in the exchange-api repository's spec/README.md, "Our extension vocabulary").

Examples:
  npx exchange-api spec
  npx exchange-api spec --spec ./other.asyncapi.yaml

Exit codes: 0 valid, 2 usage or spec errors.`;

/** A channel's payload for people: its record, or (several messages) the records of each, else unknown. */
function payloadName(p: { schema: Record<string, unknown>; record: string | null; array: boolean }): string {
  if (p.record) return `${p.record}${p.array ? '[]' : ''}`;
  const options = (messageVariants(p.schema) ?? []) as Array<{ $ref?: unknown }>;
  const names = options.map((o) => (typeof o.$ref === 'string' ? o.$ref.split('/').pop()! : null));
  return names.length > 0 && names.every((n) => n !== null) ? names.join(' | ') : 'unknown';
}

export async function runSpecSummary(argv: string[]): Promise<number> {
  const values = parseCommand<{ spec?: string }>('spec', SPEC_HELP, argv, { spec: { type: 'string' } });
  if (typeof values === 'number') return values;
  const root = findRepoRoot();
  const file = values.spec ?? (root ? join(root, 'spec', 'asyncapi.yaml') : null);
  if (!file) return usageError('spec', 'no spec/asyncapi.yaml above this folder; pass --spec <file>');
  try {
    const loaded = await loadSpec(file, { cwd: root ?? process.cwd() });
    let m: ApiModel;
    try {
      m = buildModel(loaded);
      checkExamples(loaded, m);
    } catch (err) {
      // A problem in a file the spec refers to names that file, as generate does.
      throw placedError(err, loaded);
    }
    console.log(`spec ok: ${m.title} ${m.version} (${loaded.file})`);
    for (const n of loaded.notes) console.log(`  ${formatProblem(n)}`);
    for (const d of m.defaults) console.log(`  ${defaultNote(d)}`);
    const records = m.types.filter((t) => t.kind === 'record');
    const enums = m.types.filter((t) => t.kind === 'enum');
    console.log(
      `servers (${m.servers.length}): ${m.servers.map((s) => `${s.id} ${s.protocol}://${s.host}${s.pathname}`).join(', ')}`,
    );
    console.log(`channels (${m.channels.length}):`);
    for (const c of m.channels)
      console.log(`  ${c.access.padEnd(7)} ${c.address.padEnd(44)} ${payloadName(c.payload)}`);
    console.log(`methods (${m.methods.length}):`);
    for (const x of m.methods)
      console.log(
        `  ${x.name.padEnd(32)} ${(x.rateLimitClass ?? 'none').padEnd(13)} ${x.transports.join('+').padEnd(8)} auth ${x.auth}`,
      );
    console.log(`records (${records.length}): ${records.map((r) => r.name).join(', ')}`);
    console.log(`enumerations (${enums.length}): ${enums.map((e) => e.name).join(', ')}`);
    console.log(`limits (${m.limits.length}): ${m.limits.map((l) => l.id).join(', ')}`);
    console.log(`errors (${m.errors.codes.length}): ${m.errors.codes.map((e) => e.code).join(', ')}`);
    console.log(`assumptions (${m.assumptions.length}):`);
    for (const a of m.assumptions) console.log(`  ${a.id}: ${a.title}`);
    // This repository's own spec explains its open places in spec/README.md; any other spec's are its x-not-shown markers.
    const ours = root !== null && resolve(root, 'spec', 'asyncapi.yaml') === resolve(root ?? process.cwd(), file);
    if (ours) console.log(`not shown (${m.notShown.length} places): see spec/README.md, "Not shown"`);
    else {
      console.log(
        `not shown (${m.notShown.length} places${m.notShown.length > 0 ? ', the x-not-shown markers' : ''}):`,
      );
      for (const n of m.notShown) console.log(`  ${n.where}: ${n.text}`);
    }
    return 0;
  } catch (err) {
    return reportFailure('spec', err);
  }
}

import { consoleIo, parseCommand, usageError, reportFailure, type Io } from '../args';
import { resolve } from 'node:path';
import {
  formatProblem,
  loadSpec,
  buildModel,
  checkExamples,
  defaultNote,
  placedError,
  messageVariants,
  terminalText,
  type ApiModel,
} from '@exchange-api/codegen';
import { defaultSpec } from '../default-spec';

export const SPEC_HELP = `Usage: exchange-api spec [--spec <file>]

Without --spec: in a clone of exchange-api, its spec/asyncapi.yaml; elsewhere, the spec the installed
@exchange-api/types was generated from.

Checks an AsyncAPI spec (3.x; a 1.x or 2.x document is converted to 3.0.0 first, and a line says so) with
the parser and our conventions, and prints its summary: servers, channels, methods, records,
enumerations, limits, errors, assumptions and the places the document leaves open.
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

/** Runs the `spec` subcommand; resolves to the exit code. */
export async function runSpecSummary(argv: string[], given: Io = consoleIo): Promise<number> {
  // Every line of the summary quotes the spec (titles, names, notes): its control characters print as escapes.
  const io: Io = { out: (line) => given.out(terminalText(line)), err: (line) => given.err(line) };
  const values = parseCommand<{ spec?: string }>('spec', SPEC_HELP, argv, { spec: { type: 'string' } }, given);
  if (typeof values === 'number') return values;
  const fallback = defaultSpec();
  if (values.spec === undefined && 'error' in fallback) return usageError('spec', fallback.error, io);
  const root = 'clone' in fallback ? fallback.clone : null;
  const file = values.spec ?? (fallback as { file: string }).file;
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
    io.out(`spec ok: ${m.title} ${m.version} (${loaded.file})`);
    for (const n of loaded.notes) io.out(`  ${formatProblem(n)}`);
    for (const d of m.defaults) io.out(`  ${defaultNote(d)}`);
    const records = m.types.filter((t) => t.kind === 'record');
    const enums = m.types.filter((t) => t.kind === 'enum');
    const servers = m.servers.map((s) => `${s.id} ${s.protocol}://${s.host}${s.pathname}`);
    io.out(`servers (${m.servers.length}): ${servers.join(', ')}`);
    io.out(`channels (${m.channels.length}):`);
    for (const c of m.channels) io.out(`  ${c.access.padEnd(7)} ${c.address.padEnd(44)} ${payloadName(c.payload)}`);
    io.out(`methods (${m.methods.length}):`);
    for (const x of m.methods)
      io.out(
        `  ${x.name.padEnd(32)} ${(x.rateLimitClass ?? 'none').padEnd(13)} ${x.transports.join('+').padEnd(8)}` +
          ` auth ${x.auth}`,
      );
    io.out(`records (${records.length}): ${records.map((r) => r.name).join(', ')}`);
    io.out(`enumerations (${enums.length}): ${enums.map((e) => e.name).join(', ')}`);
    io.out(`limits (${m.limits.length}): ${m.limits.map((l) => l.id).join(', ')}`);
    io.out(`errors (${m.errors.codes.length}): ${m.errors.codes.map((e) => e.code).join(', ')}`);
    io.out(`assumptions (${m.assumptions.length}):`);
    for (const a of m.assumptions) io.out(`  ${a.id}: ${a.title}`);
    // This repository's own spec (a clone's or the installed one) explains its open places in spec/README.md;
    // any other spec's are its x-not-shown markers.
    const ours = 'file' in fallback && resolve(fallback.file) === resolve(root ?? process.cwd(), file);
    if (ours)
      io.out(
        `not shown (${m.notShown.length} places): see spec/README.md${root ? '' : ' of the exchange-api repository'}` +
          `, "Not shown"`,
      );
    else {
      io.out(`not shown (${m.notShown.length} places${m.notShown.length > 0 ? ', the x-not-shown markers' : ''}):`);
      for (const n of m.notShown) io.out(`  ${n.where}: ${n.text}`);
    }
    return 0;
  } catch (err) {
    return reportFailure('spec', err, io);
  }
}

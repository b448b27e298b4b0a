/**
 * `exchange-api docs [--spec <file>] [--out <dir>]`: writes the reference site of any conforming spec.
 * Exit 0 written, 2 usage or spec errors (an invalid example counts as a spec error). Never a stack trace.
 */
import { join, relative, resolve } from 'node:path';
import { parseCommand, usageError, type Io, reportFailure } from '../args';
import { diffSpecFiles, emitDocs, modelFromSpec, writeFiles, type DocsChanges } from '@exchange-api/codegen';
import { defaultSpec } from '../default-spec';

export const DOCS_HELP = `Usage: exchange-api docs [--spec <file>] [--out <dir>] [--since <old spec>]

Writes the reference documentation of an AsyncAPI spec (3.x; a 1.x or 2.x document is converted to
3.0.0 first): a static HTML site (open index.html from disk or serve the folder from any static host)
and the same pages as Markdown under md/.
Every example is validated against the spec's schemas first; an invalid one stops generation.

  --spec <file>   the spec (default: in a clone of exchange-api its spec/asyncapi.yaml, elsewhere
                  the spec the installed @exchange-api/types was generated from)
  --out <dir>     where to write the site (default: ./exchange-api-output/docs, a folder the
                  exchange-api repository ignores): a new or empty folder, or one a site was
                  written to before (files that site no longer has are removed; nothing else is)
  --since <file>  add a Changes page: what changed since that earlier version of the spec and for whom
                  it breaks (the classification of \`exchange-api diff\`)
  -h, --help      this text

Examples:
  npx exchange-api docs
  npx exchange-api docs --spec ./staging.asyncapi.yaml --out ./public/api-docs
  npx exchange-api docs --out ./public/api-docs --since ./released.asyncapi.yaml
  npm run generate          (keeps the repository's copy in packages/docs/site current)

Exit codes: 0 written, 2 usage or spec errors.`;

/**
 * Where the site goes without --out: the folder of everything the command line writes by default (the
 * conformance reports of `start` too), which the repository ignores, so a run leaves nothing untracked.
 */
const DEFAULT_OUT = join('exchange-api-output', 'docs');

/** Runs the `docs` subcommand; resolves to the exit code. */
export async function runDocs(argv: string[], io: Io = { out: console.log, err: console.error }): Promise<number> {
  const values = parseCommand<{ spec?: string; out?: string; since?: string }>(
    'docs',
    DOCS_HELP,
    argv,
    { spec: { type: 'string' }, out: { type: 'string' }, since: { type: 'string' } },
    io,
  );
  if (typeof values === 'number') return values;
  const cwd = process.cwd();
  const fallback = values.spec === undefined ? defaultSpec(cwd) : null;
  if (fallback && 'error' in fallback) return usageError('docs', fallback.error, io);
  const spec = values.spec ?? (fallback as { file: string }).file;
  if (values.out !== undefined && values.out.trim() === '')
    return usageError('docs', '--out needs a folder (got an empty path); use --out . for the current folder', io);
  const out = resolve(cwd, values.out ?? DEFAULT_OUT);
  const shown = relative(cwd, out).startsWith('..') ? out : relative(cwd, out) || '.';
  const started = performance.now();
  try {
    const [model, changes] = await Promise.all([
      modelFromSpec(spec, cwd),
      values.since === undefined ? undefined : changesSince(values.since, spec, cwd, out),
    ]);
    const files = emitDocs(model, { changes });
    const fromSite = (file: string) => relative(out, resolve(cwd, file)) || file;
    const specName = fromSite(spec);
    // The header says how to write these files again: this command, run in the site's folder, so its
    // paths mean the same whichever folder it first ran from.
    const regenerate = [
      'npx exchange-api docs --spec',
      specName,
      '--out .',
      ...(values.since ? ['--since', fromSite(values.since)] : []),
    ].join(' ');
    const result = writeFiles(files, { docs: out }, { check: false, specName, cwd, regenerate });
    const kB = (filter: (p: string) => boolean) =>
      (files.filter((f) => filter(f.path)).reduce((n, f) => n + Buffer.byteLength(f.content), 0) / 1024).toFixed(0);
    io.out(
      `docs written to ${shown}: ${files.length} files (site ${kB((p) => !p.startsWith('md/'))}` +
        ` kB, Markdown ${kB((p) => p.startsWith('md/'))} kB), ` +
        `${result.written.length} changed, ${result.removed.length} removed ` +
        `(${Math.round(performance.now() - started)} ms)`,
    );
    io.out(`open ${join(shown, 'index.html')}`);
    return 0;
  } catch (err) {
    return reportFailure('docs', err, io);
  }
}

/**
 * The diff from an earlier version of the spec, for the Changes page (which names that spec relative to the
 * site, as its headers do).
 */
async function changesSince(since: string, spec: string, cwd: string, out: string): Promise<DocsChanges> {
  const d = await diffSpecFiles(since, spec, { cwd });
  return {
    since: { file: relative(out, resolve(cwd, d.before.file)) || since, version: d.before.version },
    changes: d.changes,
  };
}

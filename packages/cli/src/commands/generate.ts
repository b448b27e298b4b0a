/**
 * `exchange-api generate [--spec <file> --out <dir> [--lang <languages>]] [--check]`: the command-line contract.
 * Exit 0 done (or current), 1 drift under --check, 2 usage or spec errors. Never a stack trace.
 */
import {
  findRepoRoot,
  generateInto,
  generateRepository,
  langFlag,
  parseLanguages,
  terminalText,
  UnknownLanguage,
  type LanguageTarget,
} from '@exchange-api/codegen';
import { consoleIo, parseCommand, usageError, type Io, reportFailure } from '../args';
import { defaultSpec } from '../default-spec';

// The usage line is one line of the help; held in two here to fit the source's width.
const USAGE =
  'Usage: exchange-api generate [--spec <file> --out <dir> [--name <pkg>] [--docs] [--lang <languages>] ' +
  '[--strict-examples] [--force]] [--check]';

export const GENERATE_HELP = `${USAGE}

Regenerates types, validators and tables (and, in this repository, the client's surface and the docs
site) from an AsyncAPI spec (3.x; a 1.x or 2.x document is converted to 3.0.0 first).

  (no flags)         in a clone of exchange-api: regenerate its packages from spec/asyncapi.yaml
  --spec <file>      generate for any AsyncAPI spec, 3.x or 1.x/2.x converted (with --out only: in a
                     clone its spec/asyncapi.yaml, elsewhere the spec the installed
                     @exchange-api/types was generated from) (our x- extensions are optional: an
                     absent one takes its default, noted once per kind; the exchange-api repository's
                     spec/README.md, "Our extension vocabulary", lists them) ...
  --out <dir>        ... an npm package into this folder: package.json, README.md, src/ (types,
                     validators, tables, a typed client over @exchange-api/client); \`npm pack\` there
                     builds it. The folder must be new, empty or written by generate before (it keeps
                     a manifest, .generated-files.json, and replaces or removes only those files)
  --name <pkg>       the package's name (default: derived from info.title)
  --docs             add the docs site (docs/)
  --lang <languages> also write the models (records and enumerations, with JSON (de)serialisation)
                     in these languages, each into <dir>/<language>/: python, go (repeat the flag or
                     separate with commas; TypeScript is always written)
  --strict-examples  an example that does not fit its schema stops generation (without it, each
                     such example of another spec is a warning with its file, line and pointer,
                     and the SDK is generated; this repository's own spec is always strict)
  --force            write into a folder that also holds other files; they are never replaced or removed
  --check            write nothing; exit 1 and list the files that differ
  -h, --help         this text

Examples:
  npm run generate
  npm run generate -- --check
  npx exchange-api generate --spec ./staging.asyncapi.yaml --out ./exchange-sdk --name @acme/exchange-sdk --docs
  npx exchange-api generate --spec ./staging.asyncapi.yaml --out ./sdk --lang python,go

Exit codes: 0 done or current, 1 generated files differ (--check), 2 usage or spec errors.`;

type GenerateFlags = {
  spec?: string;
  out?: string;
  check?: boolean;
  force?: boolean;
  name?: string;
  docs?: boolean;
  lang?: string[];
  'strict-examples'?: boolean;
};

type Outcome = { written: string[]; removed: string[]; differing: string[] };

/** The flags that only make sense together, checked before anything is read: a usage error, or null. */
function flagProblem(values: GenerateFlags): string | null {
  if (values.spec !== undefined && values.out === undefined)
    return '--spec and --out go together (--out alone takes the default spec)';
  if (values.out !== undefined && values.out.trim() === '')
    return '--out needs a folder (got an empty path); use --out . for the current folder';
  if (values.force && values.out === undefined) return '--force goes with --spec and --out';
  if ((values.name !== undefined || values.docs) && values.out === undefined)
    return '--name and --docs go with --spec and --out';
  if (values.lang && values.out === undefined) return '--lang goes with --spec and --out';
  if (values['strict-examples'] && values.out === undefined)
    return "--strict-examples goes with --out (the repository's own packages are always generated strictly)";
  return null;
}

/** An SDK package for --spec (or the default spec) in --out; the fix names the same command. */
async function generateSdk(
  values: GenerateFlags & { out: string },
  languages: LanguageTarget[],
  io: Io,
): Promise<{ result: Outcome; fix: string } | string> {
  const fallback = values.spec === undefined ? defaultSpec() : null;
  if (fallback && 'error' in fallback) return fallback.error;
  const spec = values.spec ?? (fallback as { file: string }).file;
  const result = await generateInto(spec, values.out, {
    check: values.check === true,
    force: values.force === true,
    name: values.name,
    docs: values.docs === true,
    languages,
    // The default spec is this repository's (a clone's or the installed one): its examples must fit.
    strictExamples: values['strict-examples'] === true || fallback !== null,
  });
  // One line per kind of default applied (not per place), on stderr: stdout keeps its first line. A
  // note quotes the spec (or the parser's kept verdict): its control characters print as escapes.
  for (const note of result.notes) io.err(terminalText(note));
  const fix =
    `npx exchange-api generate${values.spec !== undefined ? ` --spec ${values.spec}` : ''}` +
    ` --out ${values.out}${values.name !== undefined ? ` --name ${values.name}` : ''}` +
    `${values.docs ? ' --docs' : ''}${langFlag(languages)}${values['strict-examples'] ? ' --strict-examples' : ''}`;
  return { result, fix };
}

/** The repository's own packages, from its spec: only inside a clone. */
async function generateOwn(check: boolean): Promise<{ result: Outcome; fix: string } | string> {
  const root = findRepoRoot();
  if (!root)
    return (
      'not in a clone of exchange-api (no spec/asyncapi.yaml with packages/types ' +
      'above this folder): give --out <dir> for an SDK of the installed spec, or ' +
      '--spec <file> --out <dir>'
    );
  return { result: await generateRepository(root, { check }), fix: 'npm run generate' };
}

/** What was written, or under --check what differs (exit 1 with the fix) or that all is current. */
function report(result: Outcome, check: boolean, fix: string, started: number, io: Io): number {
  const ms = Date.now() - started;
  if (check) {
    if (result.differing.length === 0) {
      io.out(`generated files are current (${ms} ms)`);
      return 0;
    }
    io.err(`generated files differ from the spec (${result.differing.length}):`);
    for (const f of result.differing) io.err(`  ${f}`);
    io.err(`fix: ${fix}`);
    return 1;
  }
  const changed = result.written.length + result.removed.length;
  io.out(
    changed === 0
      ? `generated files were already current (${ms} ms)`
      : `generated ${result.written.length} file(s), removed ${result.removed.length} (${ms} ms)`,
  );
  for (const f of result.written) io.out(`  wrote ${f}`);
  for (const f of result.removed) io.out(`  removed ${f}`);
  return 0;
}

/** Runs the `generate` subcommand; resolves to the exit code. */
export async function runGenerate(argv: string[], io: Io = consoleIo): Promise<number> {
  const values = parseCommand<GenerateFlags>(
    'generate',
    GENERATE_HELP,
    argv,
    {
      spec: { type: 'string' },
      out: { type: 'string' },
      check: { type: 'boolean' },
      force: { type: 'boolean' },
      name: { type: 'string' },
      docs: { type: 'boolean' },
      lang: { type: 'string', multiple: true },
      'strict-examples': { type: 'boolean' },
    },
    io,
  );
  if (typeof values === 'number') return values;
  const problem = flagProblem(values);
  if (problem) return usageError('generate', problem, io);
  let languages: LanguageTarget[];
  try {
    languages = parseLanguages(values.lang ?? []);
  } catch (err) {
    if (err instanceof UnknownLanguage) return usageError('generate', err.message, io);
    throw err;
  }
  const check = values.check === true;
  const started = Date.now();
  try {
    const done =
      values.out !== undefined
        ? await generateSdk({ ...values, out: values.out }, languages, io)
        : await generateOwn(check);
    if (typeof done === 'string') return usageError('generate', done, io);
    return report(done.result, check, done.fix, started, io);
  } catch (err) {
    return reportFailure('generate', err, io);
  }
}

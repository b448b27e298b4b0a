/** `exchange-api conformance`: check a server against the interface (flags and exit codes: see --help). */
import { runCli, type SpecModel } from '@exchange-api/conformance';
import { consoleIo, usageError, type Io } from '../args';
import { defaultSpec } from '../default-spec';

/**
 * Run the conformance command; resolves to the exit code (0 no failure: passed or inconclusive, 1 failures, 2
 * usage or unreachable).
 */
export function runConformanceCommand(argv: string[], io: Io = consoleIo): Promise<number> {
  const given = withDefaultSpec(argv);
  if ('error' in given) return Promise.resolve(usageError('conformance', given.error, io));
  return runCli(given.argv, io, process.env, loadSpecModel);
}

/**
 * The runner reads a spec (--generate, --replay) through the generator's loader and model, so that a
 * spec reads the same in every tool; the runner may not import the generator, so the command passes it.
 * A spec with errors is one line: the first error, and how many more.
 */
export async function loadSpecModel(file: string): Promise<SpecModel> {
  // Imported here: a run of the hand-written checks reads no spec and need not load the generator.
  const { SpecError, formatProblem, modelFromSpec, lenientModelFromSpec } = await import('@exchange-api/codegen');
  try {
    // A spec that speaks its own messages is read as the mock reads it: an example its schema refuses is a
    // warning (the runner does not send it), since public specs carry such examples. Ours stays strict.
    const { model, warnings } = await lenientModelFromSpec(file);
    if (model.wire) return warnings.length ? { ...model, warnings } : model;
    return warnings.length ? await modelFromSpec(file) : model;
  } catch (err) {
    if (!(err instanceof SpecError)) throw err;
    const more = err.problems.length > 1 ? ` (and ${err.problems.length - 1} more: exchange-api spec ${file})` : '';
    throw new Error(`the spec ${file} has errors: ${formatProblem(err.problems[0]!)}${more}`, { cause: err });
  }
}

/**
 * `--generate` without `--spec` reads the spec every command reads by default (default-spec.ts: the
 * clone's, else the one the installed @exchange-api/types ships, found from this package, not from the
 * current folder), given to the runner as `--spec`; when there is none, the error names where it looked.
 */
export function withDefaultSpec(argv: string[], cwd = process.cwd()): { argv: string[] } | { error: string } {
  const asked = (flag: string) => argv.some((a) => a === flag || a.startsWith(`${flag}=`));
  if (!asked('--generate') || asked('--spec') || asked('--help') || argv.includes('-h')) return { argv };
  const found = defaultSpec(cwd);
  if ('error' in found) return { error: `--generate reads a spec: ${found.error}` };
  return { argv: [...argv, '--spec', found.file] };
}

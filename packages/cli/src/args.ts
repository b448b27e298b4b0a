/**
 * The argument handling every subcommand shares, so that each keeps the same contract: `--help`
 * prints the command's text and exits 0; an unknown flag, a missing value or a stray positional
 * prints one line on stderr and exits 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SpecError, formatProblem } from '@exchange-api/codegen';

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

export const consoleIo: Io = { out: (l) => console.log(l), err: (l) => console.error(l) };

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parse a subcommand's flags. Returns the values, or the exit code when the command is already done
 * (help printed: 0; usage error reported: 2).
 */
export function parseCommand<T extends Record<string, string | boolean | string[] | undefined>>(
  command: string,
  help: string,
  argv: string[],
  options: Options,
  io: Io = consoleIo,
): T | number {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    io.err(`exchange-api ${command}: ${(err as Error).message.split('\n')[0]}`);
    return 2;
  }
  if (values.help) {
    io.out(help);
    return 0;
  }
  return values as T;
}

/** Report a usage error in the one-line form and give its exit code. */
export function usageError(command: string, message: string, io: Io = consoleIo): number {
  io.err(`exchange-api ${command}: ${message}`);
  return 2;
}

/**
 * Report a command's failure and give exit 2: a spec error as its list of places (file, line,
 * pointer), anything else as one line. Never a stack trace.
 */
export function reportFailure(command: string, err: unknown, io: Io = consoleIo): number {
  if (err instanceof SpecError) {
    io.err(`exchange-api ${command}: the spec has ${err.problems.length} error(s)`);
    for (const p of err.problems) io.err(formatProblem(p));
  } else {
    io.err(`exchange-api ${command}: ${(err as Error).message}`);
  }
  return 2;
}

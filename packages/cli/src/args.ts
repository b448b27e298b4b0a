/**
 * The argument handling every subcommand shares, so that each keeps the same contract: `--help`
 * prints the command's text and exits 0; an unknown flag, a missing value or a stray positional
 * prints one line on stderr and exits 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SpecError, formatProblem, terminalLines, terminalText } from '@exchange-api/codegen';

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
  /** How many positional arguments the command takes (given back as `positionals`); none unless said. */
  maxPositionals = 0,
): T | number {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: withNegativeValues(argv, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: maxPositionals > 0,
    }));
  } catch (err) {
    io.err(`exchange-api ${command}: ${(err as Error).message.split('\n')[0]}`);
    return 2;
  }
  if (values.help) {
    io.out(help);
    return 0;
  }
  if (positionals.length > maxPositionals) {
    io.err(
      `exchange-api ${command}: unexpected argument ${JSON.stringify(positionals[maxPositionals])}` +
        ` (it takes ${maxPositionals === 0 ? 'none' : `at most ${maxPositionals}`})`,
    );
    return 2;
  }
  return (maxPositionals > 0 ? { ...values, positionals } : values) as T;
}

/**
 * `--port -1` as `--port=-1`: parseArgs reads a value that starts with a dash as a missing value
 * ("argument is ambiguous"), so the command could not say which values the flag takes. A dash and
 * a digit after a flag that takes a value is that flag's value, for the command to judge.
 */
function withNegativeValues(argv: string[], options: Options): string[] {
  const takesValue = (arg: string) => {
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    return name !== null && !name.includes('=') && options[name]?.type === 'string';
  };
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (takesValue(arg) && next !== undefined && /^-[0-9.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** What a numeric flag accepts: its bounds, and whether it must be a whole number. */
export interface NumberRule {
  min: number;
  max: number;
  integer?: boolean;
  /** The value must be above `min`, not equal to it. */
  aboveMin?: boolean;
  /** How the value is counted in the message, e.g. `seconds`. */
  unit?: string;
}

/**
 * Read a numeric flag's value, or give the one-line message naming the flag and what it takes.
 * Accepts plain decimal numbers only (no hex, exponents, blanks or `Infinity`).
 */
export function numberFlag(flag: string, raw: string, rule: NumberRule): number | { error: string } {
  const pattern = rule.integer ? /^-?[0-9]+$/ : /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;
  const value = Number(raw);
  if (pattern.test(raw) && (rule.aboveMin ? value > rule.min : value >= rule.min) && value <= rule.max) return value;
  const what = rule.integer ? 'a whole number' : 'a number';
  const range = rule.aboveMin ? `above ${rule.min} and at most ${rule.max}` : `from ${rule.min} to ${rule.max}`;
  return {
    error: `--${flag} must be ${what}${rule.unit ? ` of ${rule.unit}` : ''} ${range} (got ${JSON.stringify(raw)})`,
  };
}

/** Report a usage error in the one-line form and give its exit code. */
export function usageError(command: string, message: string, io: Io = consoleIo): number {
  io.err(`exchange-api ${command}: ${message}`);
  return 2;
}

/**
 * Report a command's failure and give exit 2: a spec error as its list of places (file, line,
 * pointer), anything else as one line. Never a stack trace. A problem's message quotes the spec (or a
 * kept parser verdict), so each line goes through terminalText: its control characters print as escapes.
 */
export function reportFailure(command: string, err: unknown, io: Io = consoleIo): number {
  if (err instanceof SpecError) {
    io.err(`exchange-api ${command}: the spec has ${err.problems.length} error(s)`);
    for (const p of err.problems) io.err(terminalText(formatProblem(p)));
  } else if (err instanceof RangeError && /Maximum call stack size exceeded/.test(err.message)) {
    // Where the spec is known, codegen names it (placedError); this is the last resort, still one line.
    io.err(
      `exchange-api ${command}: the spec is too large or too deeply nested to process ` +
        `(Maximum call stack size exceeded); see docs/generating.md, "Limits"`,
    );
  } else {
    io.err(terminalLines(`exchange-api ${command}: ${(err as Error).message}`));
  }
  return 2;
}

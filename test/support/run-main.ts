/**
 * The exchange-api command line run in this process: its main() with its lines captured, shaped as
 * cli() (./cli.ts) gives them. For tests of flags, usage errors, exit codes and messages, where the
 * process is not the subject: a fresh process per case pays Node, tsx and the AsyncAPI parser again,
 * about 2 s each on a quiet machine and many times that on a busy one. What only a real process shows
 * (the built bin, signals, pipes, a stack trace of an uncaught error) stays with cli().
 */
import { fileURLToPath } from 'node:url';

type Io = { out: (line: string) => void; err: (line: string) => void };
type Main = (argv: string[], io: Io) => Promise<number>;

// Imported by path, not by name: the command sits above the packages whose tests use this (codegen),
// and a static import would make their type-check walk the whole command line.
const mainFile = fileURLToPath(new URL('../../packages/cli/src/main.ts', import.meta.url));
let loaded: Promise<Main> | undefined;

/** `exchange-api ...args` through main() in this process: its exit code and what it printed. */
export async function runMain(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  loaded ??= import(mainFile).then((m: { main: Main }) => m.main);
  const main = await loaded;
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(args, { out: (l) => out.push(`${l}\n`), err: (l) => err.push(`${l}\n`) });
  return { status, stdout: out.join(''), stderr: err.join('') };
}

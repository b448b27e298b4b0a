/**
 * `exchange-api`: one command line over the packages. Each subcommand keeps its public contract
 * (flags, first line printed, exit codes); unknown subcommands and flags exit 2 with one line.
 *
 * This module imports nothing at load: every subcommand (and the packages behind it, such as the
 * AsyncAPI parser) loads only when it runs, so `exchange-api --help` starts about as fast as node.
 */

import type { Io } from './args';

/**
 * A subcommand: its one-line summary for the usage text, and how to run it. Its messages go to `io`,
 * so a program (or a test) can run it in its own process and read what it said.
 */
export type Command = { summary: string; run: (argv: string[], io: Io) => Promise<number> };

/** The process's own console; defined here, not imported, as this module imports nothing at load. */
const consoleIo: Io = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** Every subcommand, in the order the usage text lists them. */
export const commands: Record<string, Command> = {
  generate: {
    summary: 'regenerate types, validators, tables and the docs site from an AsyncAPI spec',
    run: (a, io) => import('./commands/generate').then((m) => m.runGenerate(a, io)),
  },
  diff: {
    summary: 'what a new version of a spec breaks, for clients and for servers',
    run: (a, io) => import('./commands/diff').then((m) => m.runDiff(a, io)),
  },
  spec: {
    summary: 'check the spec and print its summary',
    run: (a, io) => import('./commands/spec').then((m) => m.runSpecSummary(a, io)),
  },
  docs: {
    summary: 'write the reference docs site (HTML + Markdown) of a spec',
    run: (a, io) => import('./commands/docs').then((m) => m.runDocs(a, io)),
  },
  sandbox: {
    summary: 'run the local exchange (WebSocket + HTTP, simulated market)',
    run: (a, io) => import('./commands/sandbox').then((m) => m.runSandbox(a, io)),
  },
  mock: {
    summary: 'serve a mock of an AsyncAPI WebSocket API that speaks its own messages (replies, pushes, all valid)',
    run: (a, io) => import('./commands/mock').then((m) => m.runMock(a, io)),
  },
  conformance: {
    summary: 'check a server against the interface, rule by rule (reports: console, JSON, JUnit, HTML)',
    run: (a, io) => import('./commands/conformance').then((m) => m.runConformanceCommand(a, io)),
  },
  start: {
    summary: 'the main job: regenerate, start the sandbox, run the conformance suite, stream live data',
    run: (a, io) => import('./commands/start').then((m) => m.runStart(a, io)),
  },
};

/** The top-level usage text. */
export function usage(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    'Usage: exchange-api <command> [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `exchange-api <command> --help` for a command's options and examples.",
  ].join('\n');
}

/** Run the command line `argv` (without node and the script) and give the exit code. */
export async function main(argv: string[], io: Io = consoleIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.err(`exchange-api: unknown command "${name}" (commands: ${Object.keys(commands).join(', ')})`);
    return 2;
  }
  return command.run(rest, io);
}

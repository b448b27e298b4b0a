/**
 * `exchange-api`: one command line over the packages. Each subcommand keeps its public contract
 * (flags, first line printed, exit codes); unknown subcommands and flags exit 2 with one line.
 */
import { runSpecSummary } from './commands/spec';

type Command = { summary: string; run: (argv: string[]) => Promise<number> };

export const commands: Record<string, Command> = {
  generate: { summary: 'regenerate types, validators, tables and the docs site from an AsyncAPI 3.0 spec', run: async (a) => (await import('./commands/generate')).runGenerate(a, undefined, [(await import('@exchange-api/docs')).emitDocs]) },
  spec: { summary: 'check the spec and print its summary', run: runSpecSummary },
  docs: { summary: 'write the reference docs site (HTML + Markdown) of a spec', run: (a) => import('./commands/docs').then((m) => m.runDocs(a)) },
  sandbox: { summary: 'run the local exchange (WebSocket + HTTP, simulated market)', run: (a) => import('./commands/sandbox').then((m) => m.runSandbox(a)) },
  conformance: { summary: 'check a server against the interface, rule by rule (reports: console, JSON, JUnit, HTML)', run: (a) => import('./commands/conformance').then((m) => m.runConformanceCommand(a)) },
  start: { summary: 'the main job: regenerate, start the sandbox, run the conformance suite, stream live data', run: (a) => import('./commands/start').then((m) => m.runStart(a)) },
};

export function usage(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    'Usage: exchange-api <command> [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `exchange-api <command> --help` for a command\'s options and examples.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    console.error(`exchange-api: unknown command "${name}" (commands: ${Object.keys(commands).join(', ')})`);
    return 2;
  }
  return command.run(rest);
}

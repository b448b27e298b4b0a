/** `exchange-api conformance`: check a server against the interface (flags and exit codes: see --help). */
import { runCli } from '@exchange-api/conformance';
import { consoleIo, type Io } from '../args';

/** Run the conformance command; resolves to the exit code (0 no failure: passed or inconclusive, 1 failures, 2 usage or unreachable). */
export function runConformanceCommand(argv: string[], io: Io = consoleIo): Promise<number> {
  return runCli(argv, io);
}

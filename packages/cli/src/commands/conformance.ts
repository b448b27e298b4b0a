/** `exchange-api conformance`: check a server against the interface (flags and exit codes: see --help). */
import { runCli } from '@exchange-api/conformance';

/** Run the conformance command; resolves to the exit code (0 no failure: passed or inconclusive, 1 failures, 2 usage or unreachable). */
export function runConformanceCommand(argv: string[]): Promise<number> {
  return runCli(argv);
}

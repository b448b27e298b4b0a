#!/usr/bin/env node
// The command runs the compiled JavaScript in dist/. Inside the repository, scripts and tests run
// the sources instead: `node --conditions=@exchange-api/source --import tsx bin/exchange-api.js`
// resolves `#main` to src/main.ts (package.json "imports").
import { readFileSync } from 'node:fs';

// Who launched us, read before anything else loads: `exchange-api sandbox` stops when its launcher
// exits, and a launcher that exits while the modules below load (a second or more) has been replaced
// by init by then. The command reads this record (launcherChain in src/commands/sandbox.ts).
const launcher = { ppid: process.ppid, parentStat: null };
try {
  launcher.parentStat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
} catch {
  // No /proc (not Linux): the parent alone is watched.
}
globalThis[Symbol.for('exchange-api.launcher')] = launcher;

let main;
try {
  ({ main } = await import('#main'));
} catch (err) {
  // Only in a checkout that was never built: an installed package always has its dist/.
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('/cli/dist/')) throw err;
  console.error(
    'exchange-api: this checkout is not built (packages/cli/dist is missing): ' +
      'run `npm run build` first; `npm start` and `npm run generate` run the sources ' +
      'and need no build',
  );
  process.exit(2);
}
// A reader that goes away (`exchange-api diff a b --fail-on breaking | head -1`) closes the pipe under
// us. That is the reader's choice: nothing more is written to that stream and no EPIPE trace is printed.
// But the exit code stays the run's, since a gate read under `pipefail` must never pass because its
// reader stopped early: the command goes on to its end, silently, and exits with the code of what it
// found (0 only when the whole run passed). Ending at once with 2 instead would be quicker, but would
// fail every passing run whose output is longer than the reader wanted, and lose its file reports.
// Installed here, once, for the real process: a program that calls main() itself keeps its own
// stdout/stderr handling.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    stream.write = () => true;
  });
}
process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
// The command runs the compiled JavaScript in dist/. Inside the repository, scripts and tests run
// the sources instead: `node --conditions=@exchange-api/source --import tsx bin/exchange-api.js`
// resolves `#main` to src/main.ts (package.json "imports").
let main;
try {
  ({ main } = await import('#main'));
} catch (err) {
  // Only in a checkout that was never built: an installed package always has its dist/.
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('/cli/dist/')) throw err;
  console.error(
    'exchange-api: this checkout is not built (packages/cli/dist is missing): run `npm run build` first; `npm start` and `npm run generate` run the sources and need no build',
  );
  process.exit(2);
}
// A reader that goes away (`exchange-api spec | head -1`) closes the pipe under us: that is the
// reader's choice, not a failure, so the command ends quietly with exit 0 instead of an EPIPE trace.
// Installed here, once, for the real process: a program that calls main() itself keeps its own
// stdout/stderr handling.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
process.exitCode = await main(process.argv.slice(2));

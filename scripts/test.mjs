#!/usr/bin/env node
// `npm test`: generated files current, every package type-checks and builds, then one vitest run over
// every package (a cached turbo task). The tests run the sources; test/consumer packs and installs the
// built packages. Ends with a plain `N passed, N failed` line, replayed or not, so any CI reader can
// count the tests.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', SCARF_ANALYTICS: 'false' };
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

// From the sources: on a fresh clone nothing is built yet, and the generator must run before the build.
const fromSources = ['--conditions=@exchange-api/source', '--import', 'tsx'];
let status = run(process.execPath, ['scripts/versions.mjs']);
if (status !== 0) process.exit(status);
status = run(process.execPath, [...fromSources, 'packages/cli/bin/exchange-api.js', 'generate', '--check']);
if (status !== 0) process.exit(status);
// Layout is prettier's and the rest of the house rules eslint's (npm run lint; npm run format mends).
status = run('npx', ['prettier', '--check', '--log-level=warn', '.']);
if (status !== 0) process.exit(status);
status = run('npx', ['eslint', '.']);
if (status !== 0) process.exit(status);
// The type-check reads sources and tests, the build sources only: editing a test rebuilds nothing.
status = run('npx', ['turbo', 'run', 'typecheck', 'build', '--output-logs=errors-only']);
if (status !== 0) process.exit(status);
// No import cycle, and imports in the layer order (.dependency-cruiser.cjs; docs/architecture.md, "Layers").
const sources = ['packages', 'tools']
  .flatMap((g) => readdirSync(g).map((p) => `${g}/${p}/src`))
  .filter((d) => existsSync(d));
status = run('npx', [
  'depcruise',
  '--config',
  '.dependency-cruiser.cjs',
  '--output-type',
  'err',
  ...sources,
  'packages/cli/bin',
]);
if (status !== 0) process.exit(status);
// House sizes: files within 400 lines, functions within 60, or named in CONTRIBUTING.md with the reason.
status = run(process.execPath, ['scripts/sizes.mjs']);
if (status !== 0) process.exit(status);
// test/ is not a workspace package; type-check it here.
status = run('npx', ['tsc', '-p', 'test/tsconfig.json']);
if (status !== 0) process.exit(status);

// One vitest run over every package and test/, as the turbo task //#test:all: cached on every file of
// the repository and every package's build, so a second run with nothing changed replays its result
// (its report, restored, and its log). The report is removed first, so the count is always this run's.
const report = 'test-output/vitest.json';
const extra = process.argv.slice(2);
rmSync(report, { force: true });
status = run('npx', [
  'turbo',
  'run',
  'test:all',
  // Tests read the environment (CI, PATH for go, mypy and Chromium); turbo's strict mode would hide it.
  '--env-mode=loose',
  '--output-logs=new-only',
  // turbo hands what follows `--` to every task of the run, the builds too (a changed build hash: each
  // package built twice), so the reporters live in the test:all script and only a caller's own
  // arguments pass here.
  ...(extra.length > 0 ? ['--', ...extra] : []),
]);
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(
    `\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
  );
}
process.exit(status);

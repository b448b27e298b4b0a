#!/usr/bin/env node
// `npm test`: generated files current, layout, lint, one type-check of everything, every package
// built, import layers and sizes, then each package's tests and test/'s (cached turbo tasks). The
// tests run the sources; test/consumer packs and installs the built packages. Ends with a plain
// `N passed, N failed` line, replayed or not, so any CI reader can count the tests.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { NO_COLOR_FLAGS, plainEnv, plainOutput } from './plain-output.mjs';
import { runTestTasks } from './test-tasks.mjs';

// Plain (no colour codes) when stdout is not a terminal, or NO_COLOR or CI is set: a log in a file is text.
const plain = plainOutput();
const base = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', SCARF_ANALYTICS: 'false' };
const env = plain ? plainEnv(base) : base;
/** A tool's arguments, with its no-colour flag first on a plain run. */
const flags = (tool, args) => (plain ? [...NO_COLOR_FLAGS[tool], ...args] : args);
const run = (cmd, args, more = {}) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...more } }).status ?? 1;

/**
 * The niceness of the checks that mostly take what CPU the tests leave (Unix's 0 to 19). 5, a third of the
 * normal share, not the lowest: on a machine busy with other work at the normal priority (a CI runner
 * shared with six busy processes, as item 8 of issue 34 tries it) a niceness of 15 gave the checks about
 * 3 % of the CPU, and they would have ended many minutes after the tests.
 */
const LOW_PRIORITY = 5;

/**
 * Lower a child's scheduling priority, before it starts its own (npx's tool inherits it). Where the
 * system refuses, it runs at the normal one: slower to fill the gaps, not wrong.
 */
function lower(child, priority) {
  if (priority === undefined || child.pid === undefined) return;
  try {
    setPriority(child.pid, priority);
  } catch {
    // Left at the normal priority (see above); nothing else depends on it.
  }
}

/**
 * One check, its output captured so that checks running side by side do not interleave: when it ends,
 * one line (`✓ eslint (12.3 s)`, or `✗ eslint (12.3 s), exit 1`), then what it printed, if anything.
 * Resolves to its exit status.
 */
const check = (name, cmd, args, priority) =>
  new Promise((resolve) => {
    const start = Date.now();
    const output = [];
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    lower(child, priority);
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`))); // not started at all
    child.on('close', (code, signal) => {
      const status = code === 0 ? 0 : code > 0 ? code : 1;
      const time = `${((Date.now() - start) / 1000).toFixed(1)} s`;
      console.log(
        status === 0
          ? `✓ ${name} (${time})`
          : `✗ ${name} (${time}), ${signal ? `killed by ${signal}` : `exit ${code}`}`,
      );
      const text = Buffer.concat(output).toString();
      if (text !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      resolve(status);
    });
  });

// Versions first, alone: a second's work, and a version out of step with the spec would also fail
// generate --check (the generated tables carry it), for a reason said less plainly there.
const versions = run(process.execPath, ['scripts/versions.mjs']);
if (versions !== 0) process.exit(versions);

// The other checks side by side, and the tests as soon as the build is done: none writes what another
// reads (the build writes dist/, which prettier, eslint and depcruise ignore, and for a moment each
// package's tsup.config.bundled_*.mjs, which prettier and eslint ignore too; the type-check resolves our
// packages to their sources, not to dist/; the tests write under test-output/ and the temporary folder,
// which the checks ignore). The build (the tests need it) and generate --check (its parse of our spec
// leaves the verdict the tests' loads then read: test workers starting first each parsed it, 12 s of CPU
// apiece) run at the normal priority; prettier, eslint, the type-check, depcruise and sizes at a lower one
// (LOW_PRIORITY), so they take the CPU the tests leave. The tests wait on sockets and child processes as
// much as they compute, and a fresh clone's run left a core half idle for minutes: the checks, first
// alone for 90 s, now fill those gaps instead. Each check reports when it ends, and all run to the end:
// a change that breaks two of them shows both at once.
const sources = ['packages', 'tools']
  .flatMap((g) => readdirSync(g).map((p) => `${g}/${p}/src`))
  .filter((d) => existsSync(d));
const checks = [
  // From the sources: on a fresh clone nothing is built yet.
  [
    'generate --check',
    process.execPath,
    ['--conditions=@exchange-api/source', '--import', 'tsx', 'packages/cli/bin/exchange-api.js', 'generate', '--check'],
  ],
  // Layout is prettier's and the rest of the house rules eslint's (npm run lint; npm run format mends).
  ['prettier', 'npx', ['prettier', ...flags('prettier', ['--check', '--log-level=warn', '.'])], LOW_PRIORITY],
  ['eslint', 'npx', ['eslint', ...flags('eslint', ['.'])], LOW_PRIORITY],
  // One program over every package's sources and tests, the tools and test/ (tsconfig.check.json):
  // a package's own tsconfig.json (its `typecheck` script) also checks every package it imports, so the
  // per-package programs checked the lower packages up to ten times over.
  ['tsc -p tsconfig.check.json', 'npx', ['tsc', ...flags('tsc', ['-p', 'tsconfig.check.json'])], LOW_PRIORITY],
  // The build reads sources only (cached by turbo): editing a test rebuilds nothing, and the test runs
  // below find every build a cache hit (turbo.json's envMode: see those runs).
  ['turbo run build', 'npx', ['turbo', 'run', 'build', ...flags('turbo', ['--output-logs=errors-only'])]],
  // No import cycle, and imports in the layer order (.dependency-cruiser.cjs; docs/architecture.md, "Layers").
  [
    'depcruise',
    'npx',
    ['depcruise', '--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...sources, 'packages/cli/bin'],
    LOW_PRIORITY,
  ],
  // House sizes: files within 400 lines, functions within 60, or named in CONTRIBUTING.md with the reason.
  ['sizes', process.execPath, ['scripts/sizes.mjs'], LOW_PRIORITY],
];
console.log(
  `${checks.length} checks side by side, the tests after the build: ${checks.map(([name]) => name).join(', ')}`,
);
const running = checks.map(([name, cmd, args, priority]) => check(name, cmd, args, priority));
const built = await running[checks.findIndex(([name]) => name === 'turbo run build')];

// The tests, as turbo tasks: each package's own (`test`, its vitest run, cached on its files, the shared
// test support and spec, and its dependencies' builds) and test/'s (//#test:e2e, on every file but the
// packages' own tests), so an edit reruns the tests of its package and of those that depend on it, and a
// second run with nothing changed replays every report and log. Each task writes its vitest report;
// they are removed first, so every count is this run's (a replayed task's report is restored), and
// summed into test-output/vitest.json.
const testing = ['packages', 'tools']
  .flatMap((g) => readdirSync(g).map((p) => `${g}/${p}`))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) }))
  .filter(({ manifest }) => manifest.scripts?.test !== undefined);
const reports = [...testing.map(({ dir }) => `${dir}/test-output/vitest.json`), 'test-output/vitest-e2e.json'];
const report = 'test-output/vitest.json';
const extra = process.argv.slice(2);
for (const file of [...reports, report]) rmSync(file, { force: true });
const testStatus = async () => {
  if (built !== 0) {
    console.log('\nthe tests did not run: the build failed (above)');
    return built;
  }
  return runTestTasks([...testing.map(({ manifest }) => `${manifest.name}#test`), '//#test:e2e'], {
    // Three test tasks at a time, a package's with two vitest workers (VITEST_MAX_WORKERS, below), test/'s
    // with three (its script: the longest task, its files mostly waiting on sockets and processes). With two
    // at a time a fresh clone's run used 1.1 of 2 cores on average (15.5 min of CPU in 14 min): the tasks
    // wait more than they compute. Ten at a time, each with its workers, would starve the tests that wait
    // on time.
    slots: 3,
    flags: [
      ...flags('turbo', []),
      // Tests read the environment (CI, PATH for go, mypy and Chromium): turbo.json sets envMode loose, for
      // every turbo run alike. The mode is part of each task's hash: with it set here only, the builds above
      // were misses here and built again, and the consumer test's `npm pack` (each package's prepack runs
      // turbo build) rebuilt dist/ under the tests that were running the built command.
      '--output-logs=new-only',
      // What follows `--` reaches the test task only (--only: no build runs here); the reporters live in
      // each test script, so only a caller's own arguments pass.
      ...(extra.length > 0 ? ['--', ...extra] : []),
    ],
    env: { ...env, VITEST_MAX_WORKERS: process.env.VITEST_MAX_WORKERS ?? '2' },
  });
};
const status = await testStatus();
const statuses = await Promise.all(running);
const failed = checks.filter((_, i) => statuses[i] !== 0).map(([name]) => name);
if (failed.length > 0) console.log(`\nfailed checks: ${failed.join(', ')}`);

/** The sum of the packages' reports (vitest's JSON report, its counts added and its files listed). */
const found = reports.filter((file) => existsSync(file)).map((file) => JSON.parse(readFileSync(file, 'utf8')));
if (found.length > 0) {
  const sum = (key) => found.reduce((total, r) => total + (r[key] ?? 0), 0);
  const keys = Object.keys(found[0]).filter((key) => key.startsWith('num'));
  const r = {
    ...Object.fromEntries(keys.map((key) => [key, sum(key)])),
    success: found.every((x) => x.success) && found.length === reports.length,
    startTime: Math.min(...found.map((x) => x.startTime)),
    testResults: found.flatMap((x) => x.testResults),
  };
  mkdirSync('test-output', { recursive: true });
  writeFileSync(report, `${JSON.stringify(r)}\n`);
  const missing = reports.filter((file) => !existsSync(file));
  if (missing.length > 0) console.log(`\nno report (the task did not finish): ${missing.join(', ')}`);
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(
    `\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
  );
}
// The first failing check's status, in the order listed above, whichever ended first; else the tests'.
process.exit(statuses.find((s) => s !== 0) ?? status);

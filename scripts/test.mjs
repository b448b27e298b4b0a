#!/usr/bin/env node
// `npm test`: generated files current, every package type-checks (turbo, cached), then one vitest run.
// Ends with a plain `N passed, N failed` line so any CI reader can count the tests.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, existsSync } from 'node:fs';

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', SCARF_ANALYTICS: 'false' };
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

let status = run('npx', ['exchange-api', 'generate', '--check']);
if (status !== 0) process.exit(status);
status = run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only']);
if (status !== 0) process.exit(status);
// test/ is not a workspace package; type-check it here.
status = run('npx', ['tsc', '-p', 'test/tsconfig.json']);
if (status !== 0) process.exit(status);

mkdirSync('test-output', { recursive: true });
const extra = process.argv.slice(2);
status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-output/vitest.json', ...extra]);
if (existsSync('test-output/vitest.json')) {
  const r = JSON.parse(readFileSync('test-output/vitest.json', 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
}
process.exit(status);

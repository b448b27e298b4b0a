/**
 * `npm run bench`: every benchmark, one line each in the form
 * `bench <name>: <value> (target <op> <value>) ok|MISS`. Benchmarks, not tests: they never fail the build.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatResult, type BenchResult } from './report';
import { runValidateVsParse } from './validate-vs-parse';
import { runGeneration } from './generation';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const only = process.argv[2];

/** Later benchmarks register here. */
export const benchmarks: Array<[string, () => BenchResult[] | Promise<BenchResult[]>]> = [
  ['cold-start', () => import('./cold-start').then((m) => m.runColdStart(root))],
  ['validation', runValidateVsParse],
  ['generation', () => runGeneration(root)],
  ['client-receive', () => import('./client-receive').then((m) => m.runClientReceive())],
  ['docs', () => import('./docs').then((m) => m.runDocs(root))],
  ['sandbox-fanout', () => import('./sandbox-fanout').then((m) => m.runSandboxFanout())],
  ['sandbox-soak', () => import('./soak').then((m) => m.runSoak())],
  ['redis-limits', () => import('./redis-limits').then((m) => m.runRedisLimits())],
  ['stream-p99', () => import('./stream-p99').then((m) => m.runStreamP99())],
  ['fleet', () => import('./fleet').then((m) => m.runFleet())],
  ['order-path', () => import('./order-path').then((m) => m.runOrderPath())],
  ['main-job', () => import('./main-job').then((m) => m.runMainJob(root))],
];

// Interrupted, exit through process.exit so that 'exit' hooks (a benchmark's redis-server) run; the
// child processes of a benchmark exit by themselves once this one is gone.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)
  process.once(signal, () => process.exit(code));

for (const [name, run] of benchmarks) {
  if (only && !name.includes(only)) continue;
  for (const r of await run()) console.log(formatResult(r));
}

/**
 * Cold start of the built command: `exchange-api --help` (dist/, what a user runs after install)
 * against a bare `node -e 0`, each a fresh process, interleaved run by run so machine noise hits both.
 * The ratio of the medians is the line; the command's dist must be built (`npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { median, type BenchResult } from './report';

const RUNS = 15;

/** Wall time of one fresh process, in milliseconds; a failed run is an error, not a fast sample. */
function timeProcess(args: string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${String(r.stderr).trim()}`);
  return ms;
}

export function runColdStart(root: string): BenchResult[] {
  const bin = join(root, 'packages', 'cli', 'bin', 'exchange-api.js');
  if (!existsSync(join(root, 'packages', 'cli', 'dist', 'index.js'))) {
    throw new Error('packages/cli/dist is not built: run `npm run build` first');
  }
  // What a user's shell has: no source condition, no tsx.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const command: number[] = [];
  const control: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    control.push(timeProcess(['-e', '0'], env));
    command.push(timeProcess([bin, '--help'], env));
  }
  const ratio = median(command) / median(control);
  console.log(
    `cold start: exchange-api --help median ${median(command).toFixed(1)} ms, ` +
      `node -e 0 median ${median(control).toFixed(1)} ms (${RUNS} runs each)`,
  );
  return [{ name: 'cold-start exchange-api --help / node -e 0', value: ratio, op: '<=', target: 4 }];
}

/** Cold time of a full generation (a fresh process, as a user runs it) and of a no-op cached turbo run. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult } from './report';

function timed(cmd: string, args: string[], cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', SCARF_ANALYTICS: 'false' },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  return (performance.now() - t0) / 1000;
}

export function runGeneration(root: string): BenchResult[] {
  const out = mkdtempSync(join(tmpdir(), 'bench-gen-'));
  try {
    const bin = join(root, 'node_modules', '.bin', 'exchange-api');
    const cold = timed(bin, ['generate', '--spec', join(root, 'spec', 'asyncapi.yaml'), '--out', out], root);
    const turbo = join(root, 'node_modules', '.bin', 'turbo');
    timed(turbo, ['run', 'generate', '--output-logs=none'], root); // fill the cache
    const noop = timed(turbo, ['run', 'generate', '--output-logs=none'], root);
    return [
      { name: 'generate cold (fresh process)', value: cold, unit: ' s', op: '<', target: 3 },
      { name: 'turbo run generate no-op', value: noop, unit: ' s', op: '<', target: 1 },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * The exchange-api command as a user runs it: the built JavaScript (packages/cli/bin → dist/), in a
 * fresh process, bounded in time. The vitest global setup (./build-once.ts) has built it first.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The command's entry file; run it with `process.execPath`. */
export const bin = fileURLToPath(new URL('../../packages/cli/bin/exchange-api.js', import.meta.url));

/**
 * `exchange-api ...args` to its end; a command still running at `timeout` is killed (signal set). The
 * default only stops a hang: on a loaded 2-core machine a diff that parses two specs took minutes.
 */
export function cli(args: string[], options: { cwd?: string; timeout?: number } = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    timeout: options.timeout ?? 240_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

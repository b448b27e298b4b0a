/**
 * vitest global setup: the command-line tests spawn the built command (each package's dist/), as users
 * run it, so the build must be current before any test runs. `turbo run build` is cached: a no-op
 * when nothing changed, a rebuild of what did change when someone runs `npx vitest` after editing
 * sources. A failed build stops the run, never a stale dist. Under `npm test` each test run is a turbo
 * task that depends on the builds it needs, so there is nothing to do (and no turbo in turbo).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  if (process.env.TURBO_HASH) return;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const r = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    timeout: 600_000,
  });
  if (r.status !== 0)
    throw new Error(`turbo run build failed before the tests (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
}

/** Runs the command line as a user does, in a fresh process, on the repository's sources. */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bin = join(root, 'packages', 'cli', 'bin', 'exchange-api.js');

/** `exchange-api ...args`, bounded in time; the sources resolve through the source condition and tsx. */
export function cli(args: string[], options: { cwd?: string; timeout?: number } = {}) {
  const r = spawnSync(process.execPath, ['--conditions=@exchange-api/source', '--import', 'tsx', bin, ...args], {
    cwd: options.cwd ?? root,
    encoding: 'utf8',
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    timeout: options.timeout ?? 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

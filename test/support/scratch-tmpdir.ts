/**
 * Every vitest project's global setup: one scratch folder per run, made the run's temporary directory,
 * removed when the run ends. The tests make their folders with `mkdtemp(tmpdir())` and the commands
 * they start do the same; TMPDIR reaches both (the workers and their children inherit it, and
 * `os.tmpdir()` reads it on each call), so a run leaves nothing in the machine's /tmp: before this, each
 * `npm test` left about sixty folders there (replay files, reports, packed projects).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'exchange-api-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    // Only the folder this run made, and what its tests wrote under it.
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}

/** Creating output folders with a bound: one level at a time, never Node's recursive mkdir. */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { WriteRefused } from './manifest';

/**
 * Make a folder and the missing ones above it. Node's `mkdirSync(..., { recursive: true })` loops
 * forever under /proc (the kernel answers ENOENT for a parent that exists); one level at a time, the
 * first refusal ends it with one line.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const found = statSync(at, { throwIfNoEntry: false });
    if (found) {
      if (!found.isDirectory()) throw new WriteRefused(`${at} is a file, not a folder`);
      break;
    }
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (err) {
      throw new WriteRefused(
        `cannot create the folder ${folder}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
}

/**
 * Paths inside an output folder, never through a symbolic link: our writers (the code generator, the
 * docs, the conformance runner's replay files) make no links, so a link where one writes or removes (or
 * at any folder between the output folder and there) was put there by someone else and may point
 * anywhere (a home folder's .bashrc). It is refused, never followed and never replaced. The output folder
 * itself is resolved once by the caller (the user named it). A subpath of its own
 * (`@exchange-api/types/write-inside`) so that the generator and the runner share it: it imports nothing
 * generated and nothing but node's own modules.
 */
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';

/** Thrown when writing would touch a file the writer did not write, or a path it may not touch; one line. */
export class WriteRefused extends Error {
  override readonly name = 'WriteRefused';
}

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

/** Why `path` is not a plain relative path that stays inside its folder, or null when it is. */
export function outsideProblem(path: string): string | null {
  if (path === '' || path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\'))
    return 'not a relative path inside the folder';
  const parts = path.split('/');
  if (parts.includes('..')) return 'a path that climbs out of the folder (..)';
  if (parts.some((p) => p === '' || p === '.')) return 'not a plain relative path (an empty or . segment)';
  return null;
}

/** The folders from the root down to `path`, then `path` itself: `a/b/c.ts` → `a`, `a/b`, `a/b/c.ts`. */
const steps = (path: string): string[] => path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));

/** What is at `path` below `root`, looked at step by step without following a link. */
function look(root: string, path: string): { link: string } | 'file' | 'missing' | 'other' {
  for (const step of steps(path)) {
    const found = lstatSync(join(root, step), { throwIfNoEntry: false });
    if (!found) return 'missing';
    if (found.isSymbolicLink()) return { link: step };
    if (step === path) return found.isFile() ? 'file' : 'other';
    // A file where a folder should be: nothing of ours can be below it.
    if (!found.isDirectory()) return 'missing';
  }
  return 'missing';
}

/**
 * Refuse, in one line naming every link and where it points, a symbolic link at any of these paths or
 * at a folder between `root` and them. `shownDir` is the folder as the user named it.
 */
export function refuseLinks(root: string, shownDir: string, paths: Iterable<string>): void {
  const links = new Set<string>();
  for (const path of paths) {
    const at = look(root, path);
    if (typeof at === 'object') links.add(at.link);
  }
  if (links.size === 0) return;
  const one = links.size === 1;
  const listed = [...links].sort().map((l) => `${l} -> ${readlinkSync(join(root, l))}`);
  throw new WriteRefused(
    `${shownDir} holds ${one ? 'a symbolic link' : 'symbolic links'} where files are written or removed ` +
      `(${listed.join(', ')}); nothing is written or removed through a link: ` +
      `remove ${one ? 'it' : 'them'} or choose another folder`,
  );
}

/** The text of the plain file at `path` below `root`; null when there is none (or a folder is there). */
export function readInside(root: string, shownDir: string, path: string): string | null {
  refuseLinks(root, shownDir, [path]);
  return look(root, path) === 'file' ? readFileSync(join(root, path), 'utf8') : null;
}

/** Whether there is anything at `path` below `root` (a link there is refused). */
export function presentInside(root: string, shownDir: string, path: string): boolean {
  refuseLinks(root, shownDir, [path]);
  return look(root, path) !== 'missing';
}

/** Make the folders above `path` below `root`, one level at a time, refusing a link or a file on the way. */
function makeFoldersInside(root: string, shownDir: string, path: string): void {
  for (const step of steps(path).slice(0, -1)) {
    const at = join(root, step);
    let found = lstatSync(at, { throwIfNoEntry: false });
    if (!found) {
      try {
        mkdirSync(at);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
          throw new WriteRefused(
            `cannot create the folder ${join(shownDir, step)}: ${(err as NodeJS.ErrnoException).code}`,
          );
      }
      found = lstatSync(at);
    }
    if (found.isSymbolicLink()) refuseLinks(root, shownDir, [step]);
    if (!found.isDirectory()) throw new WriteRefused(`${join(shownDir, step)} is a file, not a folder`);
  }
}

/**
 * Put `content` at `path` below `root`. It is written to a new file beside the target and renamed over
 * it: a link planted at the target after the checks is replaced, not followed, and a reader never
 * sees half a file. The checks run again just before, so only that last instant is left open.
 */
export function replaceInside(root: string, shownDir: string, path: string, content: string): void {
  makeFoldersInside(root, shownDir, path);
  refuseLinks(root, shownDir, [path]);
  const target = join(root, path);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx' creates the file or fails: it never opens something (a link) already there.
  writeFileSync(temp, content, { flag: 'wx' });
  try {
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * Create `path` below `root` with `content`, never replacing anything: false when something (a file, a
 * link planted after the checks) is already there. The exclusive create opens no existing entry, so a
 * link is never followed even in the instant between the checks and the write.
 */
export function createInside(root: string, shownDir: string, path: string, content: string): boolean {
  makeFoldersInside(root, shownDir, path);
  refuseLinks(root, shownDir, [path]);
  try {
    writeFileSync(join(root, path), content, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new WriteRefused(`cannot write ${join(shownDir, path)}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
}

/** Remove the file at `path` below `root`; a link there or on the way is refused, never followed. */
export function removeInside(root: string, shownDir: string, path: string): void {
  refuseLinks(root, shownDir, [path]);
  unlinkSync(join(root, path));
}

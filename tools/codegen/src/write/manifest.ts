/**
 * The manifest the writer keeps in every folder it writes into: the list of files it wrote there.
 * It is the writer's only evidence of ownership, so it replaces or removes a file only when the
 * manifest lists it, and never touches anything else in the folder.
 */
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { outsideProblem } from '@exchange-api/types/write-inside';
import { WriteRefused } from './refused';

export { WriteRefused } from './refused';

/** The manifest's file name inside each output folder. */
export const MANIFEST_NAME = '.generated-files.json';

/** The text of a manifest listing these paths (relative to its folder, `/`-separated). */
export function manifestText(paths: Iterable<string>): string {
  const files = [...new Set(paths)].sort();
  return (
    JSON.stringify(
      {
        generator: '@exchange-api/codegen',
        note: 'The files the generator wrote in this folder; it replaces or removes only these. Do not edit.',
        files,
      },
      null,
      2,
    ) + '\n'
  );
}

/**
 * The paths a folder's manifest lists (empty when there is none). A manifest that is not ours is
 * refused, and so is one that is a link or lists a path outside its folder: the writer would remove
 * what such an entry names.
 */
export function readManifest(dir: string): Set<string> {
  const path = join(dir, MANIFEST_NAME);
  const found = lstatSync(path, { throwIfNoEntry: false });
  if (!found) return new Set();
  if (found.isSymbolicLink())
    throw new WriteRefused(
      `${path} is a symbolic link; the generator reads and writes its manifest ` +
        `only as a plain file (remove the link or choose another folder)`,
    );
  let files: unknown;
  try {
    files = (JSON.parse(readFileSync(path, 'utf8')) as { files?: unknown }).files;
  } catch {
    files = undefined;
  }
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'string'))
    throw new WriteRefused(`${path} is not a manifest this generator wrote; remove it or choose another folder`);
  for (const entry of files as string[]) {
    const problem = outsideProblem(entry);
    if (problem)
      throw new WriteRefused(
        `${path} lists ${JSON.stringify(entry)}, ${problem}; the generator replaces ` +
          `or removes only files inside its folder (remove the entry, or the manifest)`,
      );
  }
  return new Set(files as string[]);
}

/**
 * The entries of a folder the manifest does not account for, up to `max` of them. Only folders that
 * hold listed files are entered, so a huge or endless tree (a folder of /proc) is never walked.
 */
export function foreignEntries(
  dir: string,
  owned: ReadonlySet<string>,
  max = 5,
  skip: (path: string) => boolean = () => false,
): string[] {
  const ownedFolders = new Set(
    [...owned].flatMap((p) =>
      p
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  const found: string[] = [];
  const visit = (rel: string) => {
    for (const name of readdirSync(rel === '' ? dir : join(dir, rel)).sort()) {
      if (found.length >= max) return;
      const path = rel === '' ? name : `${rel}/${name}`;
      if (path === MANIFEST_NAME || owned.has(path) || skip(path)) continue;
      // lstat: a link to a folder is an entry of its own, never entered.
      if (ownedFolders.has(path) && lstatSync(join(dir, path)).isDirectory()) visit(path);
      else found.push(path);
    }
  };
  visit('');
  return found;
}

/**
 * Text shipped beside the code, in the package's templates/ folder (listed in package.json `files`):
 * long prose or a stylesheet reads better in a file of its own kind than inside a string in code.
 * This module sits directly under src/, so the folder is one level up both here and from the built
 * chunks in dist/ (tsup's CommonJS build shims import.meta.url).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const templatesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'templates');
const read = new Map<string, string>();

/** The text of templates/<name>, read once. */
export function template(name: string): string {
  let text = read.get(name);
  if (text === undefined) {
    text = readFileSync(join(templatesDir, name), 'utf8');
    read.set(name, text);
  }
  return text;
}

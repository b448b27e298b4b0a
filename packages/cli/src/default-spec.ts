/**
 * Which spec a command reads when no --spec is given (an explicit --spec always wins).
 *
 * In a clone of the exchange-api repository (a folder at or above the current one holds
 * spec/asyncapi.yaml and packages/types: findRepoRoot) it is that clone's spec, the one being edited.
 * Anywhere else it is the spec the installed @exchange-api/types was generated from, which that package
 * ships (dist/asyncapi.yaml, copied when it is packed): an app or a CI job that only installed the
 * packages can check, document, regenerate and diff against the interface its client speaks.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { findRepoRoot } from '@exchange-api/codegen';

/** The default spec and the clone it belongs to (null outside a clone), or why there is none. */
export type DefaultSpec = { file: string; clone: string | null } | { error: string };

/** Where the installed @exchange-api/types keeps the spec it was generated from. */
export function installedSpec(): string {
  const types = createRequire(import.meta.url).resolve('@exchange-api/types/package.json');
  return join(dirname(types), 'dist', 'asyncapi.yaml');
}

/**
 * The spec a command reads without --spec, looked for from `cwd`; `shipped` is where the installed
 * @exchange-api/types keeps its spec (a test's stand-in). The error names both places it looked.
 */
export function defaultSpec(cwd = process.cwd(), shipped: () => string = installedSpec): DefaultSpec {
  const clone = findRepoRoot(cwd);
  if (clone) return { file: join(clone, 'spec', 'asyncapi.yaml'), clone };
  let file: string | null = null;
  try {
    file = shipped();
  } catch {
    // @exchange-api/types is not installed beside this package: said below.
  }
  if (file !== null && existsSync(file)) return { file, clone: null };
  return {
    error:
      `no spec found where --spec defaults to: not in a clone of exchange-api (no ` +
      `spec/asyncapi.yaml with packages/types in ${resolve(cwd)} or any folder ` +
      'above it), and ' +
      (file === null
        ? '@exchange-api/types is not installed'
        : `the installed @exchange-api/types ships no spec (${file})`) +
      `; pass --spec <file>`,
  };
}

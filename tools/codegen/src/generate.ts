/** The pipeline: load → model → emitters → writer. */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { withCheckedSpec } from './load/load-spec';
import { formatProblem, type SpecProblem } from './load/spec-error';
import { modelOfSpec } from './model/checked-model';
import type { ApiModel } from './model/types';
import { emitTypes } from './emit/types';
import { emitValidators } from './emit/validators';
import { emitTables } from './emit/tables';
import { emitClientSurface } from './emit/client';
import { emitDocs } from './emit/docs/emit-docs';
import { langFlag, type LanguageTarget } from './emit/lang/languages';
import type { EmittedFile } from './emit/emitted-file';
import { writeFiles, WriteRefused, type WriteResult } from './write/writer';
import { emitSdk, isBuildOutput } from './generate-sdk';

/** Load a spec, build its model and check its examples: everything an emitter needs. */
export async function modelFromSpec(specFile: string, cwd = process.cwd()): Promise<ApiModel> {
  return withCheckedSpec(specFile, { cwd }, modelOfSpec);
}

/** As modelFromSpec, its examples that do not fit their schemas as warnings (formatted), not errors. */
export async function lenientModelFromSpec(
  specFile: string,
  cwd = process.cwd(),
): Promise<{ model: ApiModel; warnings: string[] }> {
  const warnings: SpecProblem[] = [];
  const model = await withCheckedSpec(specFile, { cwd }, (spec) => modelOfSpec(spec, { warnings }));
  return { model, warnings: warnings.map(formatProblem) };
}

/** The files of an SDK for any spec: types, tables and validators (validators import types from `typesImport`). */
export async function emitAll(model: ApiModel, typesImport: string): Promise<EmittedFile[]> {
  return [...(await emitTypes(model)), ...emitTables(model), ...emitValidators(model, { typesImport })];
}

/** The repository root: the nearest folder above `from` holding spec/asyncapi.yaml and packages/types. */
export function findRepoRoot(from = process.cwd()): string | null {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'spec', 'asyncapi.yaml')) && existsSync(join(dir, 'packages', 'types'))) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * Regenerate the repository's own packages (types, validators, the client's surface, the docs site) from
 * spec/asyncapi.yaml.
 */
export async function generateRepository(root: string, options: { check: boolean }): Promise<WriteResult> {
  // The package names its spec relative to itself (as its header lines do), not to where the generator ran.
  // Model and emitters run while the parser checks the spec (in its worker); nothing is written unless it passes.
  // Named relative to the root: the tables and headers name it so on every machine (an absolute path
  // would differ between clones).
  const files = await withCheckedSpec('spec/asyncapi.yaml', { cwd: root }, async (spec) => {
    const model = modelOfSpec(spec);
    // The client's surface and the docs site belong to this repository's packages, not to an SDK folder.
    return [...(await emitAll(model, '@exchange-api/types')), ...emitClientSurface(model), ...emitDocs(model)];
  });
  return writeFiles(
    files,
    {
      types: join(root, 'packages', 'types', 'src', 'generated'),
      validators: join(root, 'packages', 'validators', 'src', 'generated'),
      client: join(root, 'packages', 'client', 'src', 'generated'),
      docs: join(root, 'packages', 'docs', 'site'),
    },
    { check: options.check, specName: 'spec/asyncapi.yaml', cwd: root },
  );
}

/** Whether a spec file is the spec/asyncapi.yaml of a clone of this repository. */
function isOwnSpec(specFile: string, cwd: string): boolean {
  const file = resolve(cwd, specFile);
  const root = findRepoRoot(dirname(file));
  return root !== null && file === join(root, 'spec', 'asyncapi.yaml');
}

/** What generating an SDK did, and the notes of the defaults it applied (one line per kind). */
export type SdkResult = WriteResult & { notes: string[] };

/**
 * Generate a whole SDK package for any AsyncAPI 3.0 spec into one folder (generate-sdk.ts lists its
 * files): `name` defaults to one derived from info.title; `docs` adds the docs site; `languages`
 * adds the models in those languages, each into `<out>/<language>/`.
 */
export async function generateInto(
  specFile: string,
  outDir: string,
  options: {
    check: boolean;
    cwd?: string;
    force?: boolean;
    name?: string;
    docs?: boolean;
    languages?: readonly LanguageTarget[];
    /** An example that does not fit its schema stops generation (always so for this repository's own spec). */
    strictExamples?: boolean;
  },
): Promise<SdkResult> {
  if (outDir.trim() === '') throw new WriteRefused('--out needs a folder (got an empty path)');
  const cwd = options.cwd ?? process.cwd();
  const out = resolve(cwd, outDir);
  const specName = relative(out, resolve(cwd, specFile)) || specFile;
  const docs = options.docs === true;
  const languages = options.languages ?? [];
  // Run in the package folder, so it reads the same wherever generate ran (and --check from elsewhere sees no drift).
  const regenerate =
    `npx exchange-api generate --spec ${specName} --out .${options.name ? ` --name ${options.name}` : ''}` +
    `${docs ? ' --docs' : ''}${langFlag(languages)}`;
  // Someone else's spec is generated with its examples that do not fit as warnings; ours stays strict.
  const warnings: SpecProblem[] = [];
  const lenient = options.strictExamples === true || isOwnSpec(specFile, cwd) ? undefined : { warnings };
  // Model and emitters run while the parser checks the spec (in its worker); nothing is written unless it passes.
  const sdk = await withCheckedSpec(specFile, { cwd }, (spec) =>
    emitSdk(
      { ...modelOfSpec(spec, lenient), source: specName },
      { name: options.name, docs, languages, specName, regenerate },
    ),
  );
  const written = writeFiles(
    sdk.files,
    { package: out },
    {
      check: options.check,
      specName,
      regenerate,
      cwd,
      force: options.force,
      extra: sdk.extra(out),
      buildOutput: isBuildOutput,
    },
  );
  return { ...written, notes: [...warnings.map(formatProblem), ...sdk.notes] };
}

/**
 * The files of a whole SDK package for any spec (`generate --spec X --out D`): D/package.json,
 * D/tsconfig.json, D/README.md, the sources in D/src (types, validators, tables, the typed client
 * surface, index.ts) and, with docs, the site in D/docs. The notes say which defaults applied.
 */
import type { ApiModel } from './model/types';
import { defaultNote } from './model/plain-spec';
import { emitTypes } from './emit/types';
import { emitValidators, usesFormatsModule } from './emit/validators';
import { emitTables } from './emit/tables';
import { emitSdkClient } from './emit/sdk-client';
import { emitPackageReadme } from './emit/package-readme';
import { emitDocs } from './emit/docs/emit-docs';
import { emitLanguages } from './emit/lang/emit-languages';
import type { LanguageTarget } from './emit/lang/languages';
import { packageIndex, packageJson, packageTsconfig, packageVersionOf } from './emit/package';
import { derivePackageName, packageNameProblem } from './package-name';
import type { EmittedFile } from './emit/emitted-file';
import { WriteRefused, headerFor, type WriteOptions } from './write/writer';

/** What the SDK is called and carries, and how its header lines name the spec and the command. */
export interface SdkSettings {
  name?: string;
  docs: boolean;
  /** Models in other languages, each into `<language>/` at the package's root (and in its npm `files`). */
  languages?: readonly LanguageTarget[];
  specName: string;
  regenerate: string;
}

/** An SDK ready for the writer: emitted files, the files written as given, and the notes to print. */
export interface Sdk {
  files: EmittedFile[];
  extra: (out: string) => NonNullable<WriteOptions['extra']>;
  notes: string[];
}

/** What `npm pack` and `npm install` make beside the generated files: the writer neither minds nor touches them. */
export const isBuildOutput = (path: string): boolean =>
  ['dist', 'node_modules', 'package-lock.json'].includes(path) || /^[^/]+\.tgz$/.test(path);

/** Where each slot's files go inside the package folder: sources in src/, the site in docs/. */
const PREFIX: Partial<Record<EmittedFile['slot'], string>> = {
  types: 'src/',
  validators: 'src/',
  sdk: 'src/',
  docs: 'docs/',
  package: '',
  lang: '',
};

/** The files in one folder (one manifest for the whole package, so src/ and docs/ are its own). */
const inPackage = (files: EmittedFile[]): EmittedFile[] =>
  files.map((f) => ({ ...f, slot: 'package', path: `${PREFIX[f.slot] ?? ''}${f.path}` }));

/**
 * Every file of the SDK package of `model`. Throws WriteRefused for a `--name` npm would refuse; a
 * name derived from the title that npm would refuse is made safe, with a note.
 */
export async function emitSdk(model: ApiModel, settings: SdkSettings): Promise<Sdk> {
  const derived = derivePackageName(model.title);
  const name = settings.name ?? derived.name;
  const problem = packageNameProblem(name);
  if (problem) throw new WriteRefused(problem);
  const notes = model.defaults.map(defaultNote);
  if (settings.name === undefined && derived.note !== null) notes.push(derived.note);
  let version = packageVersionOf(model);
  if (version === null) {
    notes.push(
      `note: info.version ${JSON.stringify(model.version)} is not an npm (semver) ` +
        `version: the package is version 0.0.0`,
    );
    version = '0.0.0';
  }
  const validators = emitValidators(model, { typesImport: './types.gen' });
  const formats = validators.some((f) => f.path === 'validators.gen.js' && usesFormatsModule(f.content));
  const pkg = { name, version, docs: settings.docs, formats, languages: (settings.languages ?? []).map((l) => l.id) };
  const files = inPackage([
    ...(await emitTypes(model)),
    ...emitTables(model),
    ...validators,
    ...emitSdkClient(model),
    ...emitPackageReadme(model, pkg, settings.regenerate),
    ...(settings.docs ? emitDocs(model) : []),
    ...(await emitLanguages(model, settings.languages ?? [])),
  ]);
  const extra = (out: string) => [
    { dir: out, path: 'package.json', content: packageJson(model, pkg) },
    { dir: out, path: 'tsconfig.json', content: packageTsconfig() },
    {
      dir: out,
      path: 'src/index.ts',
      content: packageIndex(headerFor('index.ts', settings.specName, settings.regenerate)),
    },
  ];
  return { files, extra, notes };
}

import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { cli as runBuiltCli } from '../../../test/support/cli';
import { modelFromSpec, type ApiModel } from '../src/index';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const ourSpec = join(repoRoot, 'spec', 'asyncapi.yaml');
export const fixtureSpec = join(repoRoot, 'tools', 'codegen', 'test', 'fixtures', 'parcels.asyncapi.yaml');

let ours: Promise<ApiModel> | null = null;
/**
 * Our spec's model, built once per test process (seconds of CPU; the files share a process, isolate is
 * off): read it, never change it (structuredClone a copy to break).
 */
export function ourModel(): Promise<ApiModel> {
  ours ??= modelFromSpec(ourSpec, repoRoot);
  return ours;
}

/** A scratch folder inside the repository, so generated code resolves the repository's node_modules. */
export function scratchDir(prefix: string): string {
  const base = join(repoRoot, 'test-output', 'codegen');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, prefix));
}

/** Write a spec text to a scratch file and return its path. */
export function writeSpec(text: string, name = 'spec.yaml'): string {
  const file = join(scratchDir('spec-'), name);
  writeFileSync(file, text);
  return file;
}

/** The standard library's declarations, parsed once for every type-check of this process. */
const libFiles = new Map<string, ts.SourceFile | undefined>();

/**
 * Type-check a folder with the repository's TypeScript and strict settings (its tsconfig.json is written
 * there, as `tsc -p` reads it); returns the diagnostics as tsc prints them and tsc's status. In this
 * process: a tsc process per check paid Node, TypeScript and its standard library again, about a
 * second each.
 */
export function typecheck(dir: string): { status: number; output: string } {
  const config = join(dir, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        noUncheckedIndexedAccess: true,
        types: [],
        lib: ['ES2023'],
      },
      include: ['*.ts'],
    }),
  );
  const configErrors: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d),
    },
  );
  if (!parsed) return { status: 1, output: format(configErrors, dir) };
  const host = ts.createCompilerHost(parsed.options);
  const libDir = dirname(ts.getDefaultLibFilePath(parsed.options));
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, onError) => {
    if (dirname(file) !== libDir) return read(file, language, onError);
    if (!libFiles.has(file)) libFiles.set(file, read(file, language, onError));
    return libFiles.get(file);
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  // tsc's exit status: 2 when diagnostics kept it from emitting (noEmit), 0 when clean.
  return { status: diagnostics.length > 0 ? 2 : 0, output: format(diagnostics, dir) };
}

/** Diagnostics as tsc prints them (file(line,col): error TSnnnn: message), paths relative to `dir`. */
function format(diagnostics: readonly ts.Diagnostic[], dir: string): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dir,
    getNewLine: () => '\n',
  });
}

/** Run the exchange-api command line as a user does (the built command), bounded in time. */
export function cli(args: string[], cwd = repoRoot, timeout = 60_000) {
  return runBuiltCli(args, { cwd, timeout });
}

/** A minimal valid spec around the given channels/operations/components YAML, for table-driven model tests. */
export function miniSpec(body: string): string {
  return `asyncapi: 3.0.0
info: { title: Mini, version: 0.0.1 }
${body}
`;
}

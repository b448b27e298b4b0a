import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
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

/** Type-check a folder with the repository's tsc and strict settings; returns tsc's output and status. */
export function typecheck(dir: string): { status: number; output: string } {
  writeFileSync(
    join(dir, 'tsconfig.json'),
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
  const r = spawnSync(join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', dir], { encoding: 'utf8' });
  return { status: r.status ?? 1, output: (r.stdout ?? '') + (r.stderr ?? '') };
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

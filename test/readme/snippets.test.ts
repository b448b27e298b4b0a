/**
 * The README's TypeScript examples that stand alone compile as written: each is type-checked, strict,
 * against the packages' sources (as a consumer of the packages would write it).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The first ```ts block under a heading of the README. */
function snippetUnder(heading: string): string {
  const m = new RegExp(`^## ${heading}\\n[\\s\\S]*?^\`\`\`ts\\n([\\s\\S]*?)^\`\`\``, 'm').exec(readme);
  if (!m) throw new Error(`README.md has no ts block under "## ${heading}"`);
  return m[1]!;
}

/** The type errors of `source` as a module of its own, under the repository's compiler options. */
function typeErrors(name: string, source: string): string[] {
  // Inside the repository (test-output/ is ignored), so the packages resolve as they do for any file here.
  const dir = join(root, 'test-output', 'readme-snippets');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, source);
  const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const program = ts.createProgram([file], options);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `line ${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

describe("the README's TypeScript examples", () => {
  it('"Types and validators" compiles as written', () => {
    expect(typeErrors('types-and-validators', snippetUnder('Types and validators'))).toEqual([]);
  }, 120_000);
});

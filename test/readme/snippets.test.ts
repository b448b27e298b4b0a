/**
 * The TypeScript examples of the README and docs/ that stand alone compile as written: each is
 * type-checked, strict, against the packages' sources (as a consumer of the packages would write it).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The first ```ts block under a heading (## or ###) of a Markdown file of the repository, before the next heading. */
function snippetUnder(file: string, heading: string): string {
  const text = readFileSync(join(root, file), 'utf8');
  const title = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^#{2,3} ${title}\\n(?:(?!^#{1,6} )[\\s\\S])*?^\`\`\`ts\\n([\\s\\S]*?)^\`\`\``, 'm').exec(text);
  if (!m) throw new Error(`${file} has no ts block under the heading "${heading}"`);
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

describe('the TypeScript examples of the README and docs/', () => {
  it('docs/client.md, "Types and validators", compiles as written', () => {
    expect(typeErrors('types-and-validators', snippetUnder('docs/client.md', 'Types and validators'))).toEqual([]);
  }, 120_000);

  it("the README's client example (Trade: the client, against the sandbox first) compiles as written", () => {
    const snippet = snippetUnder('README.md', 'Trade: the client, against the sandbox first');
    expect(snippet).toContain('client.stream(channels.orderbook(');
    expect(typeErrors('readme-client', snippet)).toEqual([]);
  }, 120_000);
});

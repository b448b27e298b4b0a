/**
 * The escaping helpers (emit/escape.ts), over generated text made mostly of the pieces that end a
 * comment or a literal somewhere: each literal reads back as the text it was made from (in node,
 * python3 and go), and each comment stays one comment, on its line where it has to.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  commentBlock,
  commentLine,
  goString,
  pyString,
  tsComment,
  tsKey,
  tsString,
  tsTemplateText,
} from '../src/emit/escape';
import { scratchDir } from './helpers';

const PIECES = ['*/', '/*', '**//', '//', '\n', '\r', '\r\n', '\u2028', '\u2029', '`', '${', '$', "'", '"'];
const MORE = ['"""', '\\', '<!--', '-->', '--!>', '\0', '\ufeff', '\u202e', '\ud800', '\udc00', '😀', '#', 'x'];
/** Strings of hostile pieces and any UTF-16 code units (lone surrogates included). */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...PIECES, ...MORE),
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 24,
});
const run = (code: string): unknown => new Function(code)();
const LINE_BREAKS = /[\n\r\u2028\u2029]/;

describe('escape.ts', () => {
  it('TypeScript literals read back as the text: a string, a template, a key', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        expect(run(`return ${tsString(s)};`)).toBe(s);
        expect(run(`return \`${tsTemplateText(s)}\`;`)).toBe(s);
        // A key named __proto__ sets the prototype in any spelling but a computed one.
        if (s !== '__proto__') expect(Object.keys(run(`return { ${tsKey(s)}: 1 };`) as object)).toEqual([s]);
      }),
      { numRuns: 2000 },
    );
  });

  it('comments stay comments: tsComment in /** */ and //, commentLine in every header syntax, commentBlock', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const one = tsComment(s);
        expect(one).not.toMatch(LINE_BREAKS);
        expect(run(`/** ${one} */ return 1;`)).toBe(1);
        expect(run(`// ${one}\nreturn 1;`)).toBe(1);
        const line = commentLine(s);
        expect(line).not.toMatch(LINE_BREAKS);
        expect(line).not.toMatch(/\*\/|<!--|--!?>/);
        expect(run(`/* ${line} */ return 1;`)).toBe(1);
        expect(run(`// ${line}\nreturn 1;`)).toBe(1);
        expect(commentBlock(s)).not.toMatch(/\*\/|[\r\u2028\u2029\0\ufeff]/);
      }),
      { numRuns: 2000 },
    );
  });

  const sample = fc.sample(hostile, { numRuns: 300, seed: 7 });
  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python && process.env.CI !== 'true')('Python string literals read back as the text', () => {
    const dir = scratchDir('escape-py-');
    writeFileSync(join(dir, 'expected.json'), JSON.stringify(sample));
    writeFileSync(join(dir, 'values.py'), `values = [\n${sample.map((s) => `    ${pyString(s)},`).join('\n')}\n]\n`);
    const program = `import json, sys; sys.path.insert(0, sys.argv[1]); import values
print(values.values == json.load(open(sys.argv[1] + '/expected.json')))`;
    const r = spawnSync('python3', ['-c', program, dir], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('True\n');
  });

  const go = spawnSync('go', ['version']).status === 0;
  it.skipIf(!go && process.env.CI !== 'true')(
    'Go string literals read back as the text (a lone surrogate as U+FFFD)',
    () => {
      const dir = scratchDir('escape-go-');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'go.mod'), 'module escape\n\ngo 1.19\n');
      const values = sample.map((s) => `\t${goString(s)},`).join('\n');
      writeFileSync(
        join(dir, 'main.go'),
        `package main\n\nimport (\n\t"encoding/json"\n\t"os"\n)\n\nvar values = []string{\n` +
          `${values}\n}\n\nfunc main() {\n\tout, _ := json.Marshal(values)\n\tos.Stdout.Write(out)\n}\n`,
      );
      const env = { ...process.env, GOCACHE: join(dir, 'go-cache'), GOPATH: join(dir, 'go-path'), GOPROXY: 'off' };
      const r = spawnSync('go', ['run', '.'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
      expect(r.stderr).toBe('');
      const wellFormed = sample.map((s) =>
        s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
      );
      expect(JSON.parse(r.stdout)).toEqual(wellFormed);
    },
    150_000,
  );
});

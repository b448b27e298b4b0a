#!/usr/bin/env node
// House sizes: no hand-written source file over 400 lines and no function over 60 lines, unless the
// "Sizes" section of CONTRIBUTING.md names it (`path` or `path:function`) with the reason it is better whole;
// and at most 20 hand-written source lines over 120 characters in the repository (line-widths.mjs says
// which files count).
//   node scripts/sizes.mjs   list what is over and not named; exit 1 if any (run by `npm test`)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { LINE_WIDTH, WIDE_LINES, wideLines } from './line-widths.mjs';

export const FILE_LINES = 400;
export const FUNCTION_LINES = 60;

const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
const section = /^## Sizes\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
const named = new Set([...section.matchAll(/`([^`]+)`/g)].map((m) => m[1]));

const files = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'generated' && e.name !== 'node_modules') walk(p);
    } else if (/\.ts$/.test(e.name) && !/\.gen\.ts$|\.d\.ts$/.test(e.name)) files.push(p);
  }
};
for (const group of ['packages', 'tools']) {
  for (const pkg of readdirSync(join(root, group))) {
    const src = join(root, group, pkg, 'src');
    if (statSync(src, { throwIfNoEntry: false })?.isDirectory()) walk(src);
  }
}

const over = [];
for (const file of files) {
  const rel = relative(root, file);
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = sf.getLineAndCharacterOfPosition(sf.end).line + 1;
  if (lines > FILE_LINES && !named.has(rel)) over.push(`${rel}: ${lines} lines (file limit ${FILE_LINES})`);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.end).line;
      const name =
        node.name && ts.isIdentifier(node.name)
          ? node.name.text
          : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
            ? node.parent.name.text
            : ts.isPropertyAssignment(node.parent) && ts.isIdentifier(node.parent.name)
              ? node.parent.name.text
              : `(anonymous at line ${start + 1})`;
      const span = end - start + 1;
      if (span > FUNCTION_LINES && !named.has(`${rel}:${name}`))
        over.push(`${rel}:${start + 1} ${name}: ${span} lines (function limit ${FUNCTION_LINES})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
const wide = wideLines(root);
const tooWide = wide.length > WIDE_LINES;
if (over.length === 0 && !tooWide) {
  console.log(
    `sizes: ${files.length} hand-written files within ${FILE_LINES} lines, functions ` +
      `within ${FUNCTION_LINES} (or named in CONTRIBUTING.md's Sizes section); ` +
      `${wide.length} source lines over ${LINE_WIDTH} characters (at most ${WIDE_LINES})`,
  );
} else {
  if (over.length > 0) {
    console.error(
      `sizes: ${over.length} over the house limits and not named in the "Sizes" section of CONTRIBUTING.md:`,
    );
    for (const o of over) console.error(`  ${o}`);
  }
  if (tooWide) {
    console.error(
      `sizes: ${wide.length} hand-written source lines over ${LINE_WIDTH} characters (at most ${WIDE_LINES}; ` +
        'long text belongs in a template or Markdown file, not in code):',
    );
    for (const w of wide) console.error(`  ${w}`);
  }
  process.exit(1);
}

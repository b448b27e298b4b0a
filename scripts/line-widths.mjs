// House line width: hand-written source lines over LINE_WIDTH characters, at most WIDE_LINES of them in
// the repository. Prettier keeps code within the width; what it cannot break (a string, a template
// literal, a regular expression, a comment) is on us: long text belongs in a template or Markdown file.
// Hand-written source: the tracked (and new, not ignored) .ts/.js files, less what is not ours to lay out:
// - files the generator wrote, as its manifests (.generated-files.json) list them (`npm run generate`);
// - test fixtures (any folder named fixtures): inputs taken as they are (third-party specs, consumer projects);
// - tsup's bundle of a package's tsup.config.ts, there for a moment while it builds.
// Markdown, YAML, JSON, HTML and CSS are data or prose, not source code, and are not counted.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const LINE_WIDTH = 120;
export const WIDE_LINES = 20;

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const MANIFEST = '.generated-files.json';

/** The repository's files (relative, with /): git's list where it is a clone, else a walk of the folder. */
function listFiles(root) {
  const git = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  if (git.status === 0) return git.stdout.split('\n').filter(Boolean);
  const out = [];
  const walk = (dir, rel) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') && e.name !== MANIFEST) continue;
      if (e.isDirectory() && e.name !== 'node_modules' && e.name !== 'dist')
        walk(join(dir, e.name), rel + e.name + '/');
      else if (e.isFile()) out.push(rel + e.name);
    }
  };
  walk(root, '');
  return out;
}

/** The hand-written source files of the repository at `root`. */
export function handWrittenSources(root) {
  const files = listFiles(root);
  const generated = new Set();
  for (const m of files.filter((f) => posix.basename(f) === MANIFEST)) {
    const listed = JSON.parse(readFileSync(join(root, m), 'utf8')).files ?? [];
    for (const f of listed) generated.add(posix.join(posix.dirname(m), f));
  }
  return files.filter(
    (f) =>
      SOURCE.test(f) &&
      !generated.has(f) &&
      !f.split('/').includes('fixtures') &&
      !posix.basename(f).startsWith('tsup.config.bundled_'),
  );
}

/** Every hand-written source line over LINE_WIDTH characters (code points), as `path:line: width`. */
export function wideLines(root) {
  const wide = [];
  for (const file of handWrittenSources(root)) {
    let text;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue; // deleted in the work tree, not yet in git's index
    }
    text.split('\n').forEach((line, i) => {
      const width = [...line].length;
      if (width > LINE_WIDTH) wide.push(`${file}:${i + 1}: ${width} characters`);
    });
  }
  return wide;
}

// `node scripts/line-widths.mjs [root]` lists them (sizes.mjs counts them against WIDE_LINES).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  for (const w of wideLines(root)) console.log(w);
}

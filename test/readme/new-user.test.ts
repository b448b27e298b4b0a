/**
 * What a new user reads first says what happens (issue 32, items 22, 26, 28): the README says the
 * packages are not published before it shows `npm install`, says how long `npm test` takes and that its
 * log is plain in a file; and every file the examples of the README and docs/ write, and every folder
 * a command picks by itself, is one this repository's .gitignore ignores: run in a clone, they leave no
 * untracked file.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

/** The command blocks (sh, shell, text) of a page, continuation lines joined. */
function commandLines(text: string): string[] {
  return [...text.matchAll(/^```(?:sh|shell|text)\n([\s\S]*?)^```/gm)].flatMap((m) =>
    m[1]!
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter((l) => /^\s*npx exchange-api /.test(l)),
  );
}

const ignored = (path: string) => spawnSync('git', ['check-ignore', '-q', path], { cwd: root }).status === 0;

describe('the README and docs/ for a new user', () => {
  it('say the packages are not on the registry before showing npm install (item 26)', () => {
    const install = readme.slice(readme.indexOf('\n## Install\n'), readme.indexOf('\n## The command line\n'));
    const firstInstall = install.indexOf('npm install @exchange-api/');
    expect(firstInstall).toBeGreaterThan(0);
    expect(install.slice(0, firstInstall)).toMatch(/not (on the npm registry|published) yet/i);
  });

  it('say how long npm test takes, and that its log in a file has no colour codes (item 22)', () => {
    const npmTest = readme.slice(readme.indexOf('`npm test` checks that'));
    expect(npmTest.slice(0, 900)).toMatch(/takes\s+about \d+ minutes/);
    expect(npmTest.slice(0, 900)).toMatch(/`NO_COLOR` or `CI`/);
  });

  it('write every report, site and package of their examples into a folder git ignores here (item 28)', () => {
    const written: string[] = [];
    for (const page of pages)
      for (const line of commandLines(readFileSync(join(root, page), 'utf8')))
        for (const m of line.matchAll(/--report (?:html|junit|json|markdown):(\S+)|--(?:out|replay-dir) (\S+)/g)) {
          const path = (m[1] ?? m[2])!;
          if (!isAbsolute(path) && !path.startsWith('~') && !path.includes('<')) written.push(`${page}: ${path}`);
        }
    expect(written.length).toBeGreaterThanOrEqual(5);
    const inTree = written.filter((w) => !ignored(join(w.split(': ')[1]!, 'x')) && !ignored(w.split(': ')[1]!));
    expect(inTree, 'paths the examples write that git would show as untracked').toEqual([]);
  });

  it('the folders commands pick by themselves are ignored too: npm start’s, docs’ and the replay files’', () => {
    const help = readFileSync(join(root, 'packages', 'conformance', 'src', 'cli.ts'), 'utf8');
    const replays = /--replay-dir <dir>.*\(default \.\/([\w-]+)[;)]/.exec(help)?.[1];
    expect(replays).toBe('conformance-replays');
    for (const folder of [replays!, 'exchange-api-output'])
      expect(ignored(`${folder}/001-x.json`), `${folder}/ is ignored`).toBe(true);
  });
});

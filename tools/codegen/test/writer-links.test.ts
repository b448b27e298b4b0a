/**
 * The writer never writes or removes through a symbolic link, nor outside its folder, whatever the
 * manifest in that folder says and with or without --force: `generate --out` and `docs --out` through
 * the command line's main() (its exit codes and messages; in this process, with its lines captured),
 * against victims beside the output folder.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_NAME, manifestText } from '../src/write/manifest';
import { fixtureSpec, scratchDir } from './helpers';
import { runMain } from '../../../test/support/run-main';

/** An output folder beside a victim folder and a victim file, and what the victims held. */
function besideVictims(prefix: string) {
  const base = scratchDir(prefix);
  const out = join(base, 'out');
  mkdirSync(out);
  mkdirSync(join(base, 'victim-dir'));
  writeFileSync(join(base, 'victim-dir', 'precious.txt'), 'precious\n');
  writeFileSync(join(base, 'victim.txt'), 'export PATH=mine\n');
  const unchanged = () => {
    expect(readdirSync(join(base, 'victim-dir'))).toEqual(['precious.txt']);
    expect(readFileSync(join(base, 'victim-dir', 'precious.txt'), 'utf8')).toBe('precious\n');
    expect(readFileSync(join(base, 'victim.txt'), 'utf8')).toBe('export PATH=mine\n');
  };
  return { base, out, unchanged };
}

/** The attack of issue 23: a linked folder and a linked file, listed by the manifest as if ours. */
function plantLinks(out: string, file: string): void {
  symlinkSync('../victim-dir', join(out, 'old'));
  symlinkSync('../victim.txt', join(out, file));
  writeFileSync(join(out, MANIFEST_NAME), manifestText(['old/precious.txt', file]));
}

const errorLines = (r: { stderr: string }) =>
  r.stderr
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('note: '));

describe('generate --out and docs --out never write or remove through a symbolic link', () => {
  it(
    'generate: a manifest listing a linked folder and a linked README is refused, ' + 'exit 2, the victims unchanged',
    async () => {
      const { out, unchanged } = besideVictims('links-gen-');
      plantLinks(out, 'README.md');
      const r = await runMain(['generate', '--spec', fixtureSpec, '--out', out]);
      expect(r.status).toBe(2);
      expect(errorLines(r)).toEqual([expect.stringMatching(/^exchange-api generate: .*symbolic link/)]);
      expect(r.stderr).toMatch(/README\.md -> \.\.\/victim\.txt/);
      expect(r.stderr).toMatch(/old -> \.\.\/victim-dir/);
      unchanged();
      expect(readdirSync(out).sort()).toEqual([MANIFEST_NAME, 'README.md', 'old']);
    },
  );

  it('generate --force follows no link either, nor a link it does not own where its sources go', async () => {
    const { out, unchanged } = besideVictims('links-force-');
    plantLinks(out, 'README.md');
    writeFileSync(join(out, 'notes.md'), 'mine\n');
    const forced = await runMain(['generate', '--spec', fixtureSpec, '--out', out, '--force']);
    expect(forced.status).toBe(2);
    expect(errorLines(forced)).toEqual([expect.stringMatching(/README\.md -> \.\.\/victim\.txt/)]);
    unchanged();
    // No manifest at all: src/ is someone's link to the victim folder; --force must not write into it.
    const { out: bare, unchanged: bareUnchanged } = besideVictims('links-src-');
    symlinkSync('../victim-dir', join(bare, 'src'));
    const r = await runMain(['generate', '--spec', fixtureSpec, '--out', bare, '--force']);
    expect(r.status).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/src -> \.\.\/victim-dir/)]);
    bareUnchanged();
    expect(readdirSync(bare)).toEqual(['src']);
  });

  it('generate --check reads no generated file through a link: exit 2 naming it', async () => {
    const { out, unchanged } = besideVictims('links-check-');
    plantLinks(out, 'README.md');
    const r = await runMain(['generate', '--spec', fixtureSpec, '--out', out, '--check']);
    expect(r.status).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/README\.md -> \.\.\/victim\.txt/)]);
    unchanged();
  });

  it(
    'docs: a manifest listing a linked folder and a linked index.html is refused, ' + 'exit 2, the victims unchanged',
    async () => {
      const { out, unchanged } = besideVictims('links-docs-');
      plantLinks(out, 'index.html');
      const r = await runMain(['docs', '--spec', fixtureSpec, '--out', out]);
      expect(r.status).toBe(2);
      expect(errorLines(r)).toEqual([expect.stringMatching(/^exchange-api docs: .*symbolic link/)]);
      expect(r.stderr).toMatch(/index\.html -> \.\.\/victim\.txt/);
      expect(r.stderr).toMatch(/old -> \.\.\/victim-dir/);
      unchanged();
      expect(readdirSync(out).sort()).toEqual([MANIFEST_NAME, 'index.html', 'old']);
    },
  );

  it('a manifest that is itself a link is not read or replaced', async () => {
    const { base, out, unchanged } = besideVictims('links-manifest-');
    writeFileSync(join(base, 'elsewhere.json'), manifestText(['README.md']));
    symlinkSync('../elsewhere.json', join(out, MANIFEST_NAME));
    const r = await runMain(['docs', '--spec', fixtureSpec, '--out', out]);
    expect(r.status).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/\.generated-files\.json is a symbolic link/)]);
    expect(readFileSync(join(base, 'elsewhere.json'), 'utf8')).toBe(manifestText(['README.md']));
    unchanged();
  });
});

describe('a manifest entry outside its folder is refused, naming the manifest and the entry', () => {
  it.each(['../outside.txt', 'src/../../outside.txt', '/OUTSIDE'])(
    '%s',
    async (entry) => {
      const base = scratchDir('outside-');
      const out = join(base, 'out');
      mkdirSync(out);
      writeFileSync(join(base, 'outside.txt'), 'keep\n');
      const listed = entry === '/OUTSIDE' ? join(base, 'outside.txt') : entry;
      writeFileSync(join(out, MANIFEST_NAME), manifestText(['README.md', listed]));
      for (const command of [
        ['generate', '--spec', fixtureSpec, '--out', out, '--force'],
        ['docs', '--spec', fixtureSpec, '--out', out],
      ]) {
        const r = await runMain(command);
        expect(r.status).toBe(2);
        expect(errorLines(r)).toEqual([
          expect.stringContaining(`${join(out, MANIFEST_NAME)} lists ${JSON.stringify(listed)}`),
        ]);
        expect(readFileSync(join(base, 'outside.txt'), 'utf8')).toBe('keep\n');
        expect(readdirSync(out)).toEqual([MANIFEST_NAME]);
      }
    },
    60_000,
  );
});

describe('regenerating over its own output still works', () => {
  it('generate --docs, then without --docs: the docs it wrote are removed, the rest is current', async () => {
    const out = join(scratchDir('again-'), 'sdk');
    expect((await runMain(['generate', '--spec', fixtureSpec, '--out', out, '--docs'])).status).toBe(0);
    expect(existsSync(join(out, 'docs', 'index.html'))).toBe(true);
    const again = await runMain(['generate', '--spec', fixtureSpec, '--out', out]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^generated \d+ file\(s\), removed [1-9]\d*/);
    expect(again.stdout).toContain('removed ');
    expect(existsSync(join(out, 'docs', 'index.html'))).toBe(false);
    expect((await runMain(['generate', '--spec', fixtureSpec, '--out', out, '--check'])).status).toBe(0);
    // No temporary file of the write-then-rename is left behind.
    expect(readdirSync(join(out, 'src')).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([MANIFEST_NAME]);
  });

  it('docs over its own site is current; an output folder reached through a link the user named is fine', async () => {
    const base = scratchDir('docs-again-');
    const site = join(base, 'site');
    expect((await runMain(['docs', '--spec', fixtureSpec, '--out', site])).status).toBe(0);
    symlinkSync('site', join(base, 'current'));
    const r = await runMain(['docs', '--spec', fixtureSpec, '--out', join(base, 'current')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/ 0 removed/);
  });
});

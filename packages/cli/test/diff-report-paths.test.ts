/**
 * `diff --report` checks each file before the work: a report is never written over a spec it compares
 * (under any name), and a path that cannot take a file (/proc) is refused up front, not after the diff.
 * The command function runs here with its output captured; the refusals come before the specs are read.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../test/support/cli';
import { runDiff } from '../src/commands/diff';

async function diff(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runDiff(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { status, out, err };
}

/** Two copies of the repository's spec in a folder of their own. */
function specs() {
  const dir = mkdtempSync(join(tmpdir(), 'exchange-api-diff-paths-'));
  const before = join(dir, 'old.yaml');
  const after = join(dir, 'new.yaml');
  copyFileSync(join(repoRoot, 'spec', 'asyncapi.yaml'), before);
  copyFileSync(join(repoRoot, 'spec', 'asyncapi.yaml'), after);
  return { dir, before, after, text: readFileSync(before, 'utf8') };
}

describe('exchange-api diff --report <a path it must not write>', () => {
  it('a report over one of the specs it compares is refused with exit 2, the spec untouched', async () => {
    const s = specs();
    const r = await diff([s.before, s.after, '--report', `json:${s.before}`]);
    expect(r.err).toEqual([
      `exchange-api diff: --report json:${s.before} cannot be written: it is the input ${s.before}`,
    ]);
    expect(r.status).toBe(2);
    expect(r.out).toEqual([]);
    expect(readFileSync(s.before, 'utf8')).toBe(s.text);
  }, 60_000);

  it('the same spec under another name (a link) is refused too', async () => {
    const s = specs();
    const link = join(s.dir, 'link.md');
    symlinkSync(s.after, link);
    const r = await diff([s.before, s.after, '--report', 'console', '--report', `markdown:${link}`]);
    expect(r.err).toEqual([
      expect.stringMatching(/--report markdown:.*link\.md cannot be written: it is the input .*new\.yaml$/),
    ]);
    expect(r.status).toBe(2);
    expect(readFileSync(s.after, 'utf8')).toBe(s.text);
  }, 60_000);

  it.skipIf(process.platform !== 'linux')(
    'a path in /proc is refused before the diff, not after it',
    async () => {
      const s = specs();
      const r = await diff([s.before, s.after, '--report', 'console', '--report', 'json:/proc/x.json']);
      expect(r.err).toEqual([
        'exchange-api diff: --report json:/proc/x.json cannot be written: /proc is ' +
          'on a kernel filesystem (proc or sys), not a folder for files',
      ]);
      expect(r.status).toBe(2);
      // Refused before the work: the console report, asked for first, was never printed.
      expect(r.out).toEqual([]);
    },
    60_000,
  );
});

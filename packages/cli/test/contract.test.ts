/**
 * The command line's contract, run as the bin runs it: main() with its lines captured, in this process
 * (the built bin's own stdout and exit codes: bin.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commands } from '../src/main';
import { runMain } from '../../../test/support/run-main';

const names = Object.keys(commands);

describe('exchange-api: one command line', () => {
  it('has the subcommands the issues name', () => {
    expect(names).toEqual(
      expect.arrayContaining(['generate', 'sandbox', 'conformance', 'docs', 'start', 'spec', 'diff']),
    );
  });

  it.each(names)('%s --help prints its usage with examples and exits 0', async (name) => {
    const r = await runMain([name, '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: exchange-api ${name}`));
    expect(r.stdout).toMatch(/Examples:\n\s+\S/);
    expect(r.stdout).toMatch(/Exit codes?:/i);
  });

  it.each(names)('%s refuses an unknown flag with one line and exit 2', async (name) => {
    const r = await runMain([name, '--no-such-flag']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^exchange-api ${name}: .*--no-such-flag`));
  });

  it('an unknown command is one line and exit 2', async () => {
    const r = await runMain(['trade']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(`exchange-api: unknown command "trade" (commands: ${names.join(', ')})`);
  });

  it.each([
    [['start', '--seconds', '0'], /--seconds must be a number of seconds above 0/],
    [['generate', '--check', '--spec', 'x.yaml'], /--spec and --out go together/],
    [['spec', 'extra'], /Unexpected argument 'extra'/],
  ])('bad values are one line and exit 2: %j', async (args, message) => {
    const r = await runMain(args);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    [
      ['start', '--seconds', '-5'],
      /^exchange-api start: --seconds must be a number of seconds above 0 and at most 600 \(got "-5"\)$/,
    ],
    [['start', '--seconds', '1e3'], /^exchange-api start: --seconds must be a number of seconds above 0/],
    [['start', '--seconds', 'soon'], /^exchange-api start: --seconds must be a number of seconds above 0/],
    [['start', '--out', ''], /^exchange-api start: --out needs a folder/],
    [['sandbox', '--port', '-1'], /^exchange-api sandbox: --port .*0 to 65535.*-1/],
    [['sandbox', '--seed', '-5x'], /^exchange-api sandbox: --seed /],
  ])('a bad number or folder names the flag and what it takes, in one line and exit 2: %j', async (args, message) => {
    const r = await runMain(args);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });

  it('start --out naming an existing file is refused in one line before the run (no EEXIST trace)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cli-')), 'reports');
    writeFileSync(file, 'x');
    const r = await runMain(['start', '--out', file]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `exchange-api start: --out ${file} is a file, not a folder; choose another --out`,
    ]);
    expect(r.stdout).toBe('');
  });

  it('docs --out naming a file is refused in one line, not a stack trace', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cli-')), 'not-a-folder');
    writeFileSync(file, 'x');
    const r = await runMain(['docs', '--out', file]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^exchange-api docs: .*not-a-folder is a file, not a folder/);
  });
});

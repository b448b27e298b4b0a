/**
 * `exchange-api diff` as a CI gate runs it: the built command, two spec files (or a git ref), the
 * reports it writes, and its exit codes (0 compared, 1 a change at --fail-on, 2 usage or spec errors).
 * The contract (first line, stderr, no stack trace) is checked on the built command in a process of its
 * own; the matrix of flags runs the same command function in this process with its output captured
 * (each process of its own would load the AsyncAPI parser again, seconds apiece). The edits are made to
 * a small spec (the weather fixture's, with an error table): the command's flags, reports and exit codes
 * are the subject, and each edited copy of our spec cost the parser 10 s of CPU and each load of its model
 * seconds more. Our spec itself is compared by `--base` (its text parsed once, its verdict then cached).
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, stringify } from 'yaml';
import { cli, repoRoot } from '../../../test/support/cli';
import { withoutExamples } from '../../../test/support/spec-edits';
import { asLabelled, runDiff } from '../src/commands/diff';
import { SpecError } from '@exchange-api/codegen';
import { runDocs } from '../src/commands/docs';

/** A command function run here, its lines captured, shaped as `cli` gives them. */
async function inProcess(run: typeof runDiff, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { status, stdout: out.map((l) => `${l}\n`).join(''), stderr: err.map((l) => `${l}\n`).join('') };
}
const diff = (args: string[]) => inProcess(runDiff, args);

const weather = join(repoRoot, 'test', 'sdk', 'fixtures', 'weather.asyncapi.yaml');
let dir: string;
/** The small spec, and its edited version. */
let old: string;
let edited: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'exchange-api-diff-cli-'));
  // Without its examples (the diff does not compare them; a real edit would update them too).
  const s = withoutExamples(parse(readFileSync(weather, 'utf8'), { intAsBigInt: true }));
  // (64-bit integers read as big integers, so they are written back as the spec writes them: the diff
  // compares bounds by their exact text.) An open record, as our spec's records are, and an error table.
  delete s.components.schemas.Reading.additionalProperties;
  s['x-errors'] = {
    codes: [
      {
        code: -32000,
        name: 'RATE_LIMITED',
        kind: 'rate-limit',
        httpStatus: 429,
        message: 'Rate limit exceeded',
        condition: 'The request budget is exceeded.',
      },
    ],
  };
  old = join(dir, 'old.yaml');
  writeFileSync(old, stringify(s));
  // A pushed record gains a required field (breaks old servers, not clients); an error is reworded (dangerous
  // for clients).
  s.components.schemas.Reading.properties.venue = { type: 'string' };
  s.components.schemas.Reading.required.push('venue');
  s['x-errors'].codes[0].message = 'Too many requests';
  edited = join(dir, 'edited.yaml');
  writeFileSync(edited, stringify(s));
});

describe('exchange-api diff', () => {
  it('prints the counts per side first, then the changes grouped by side and class; exit 0 without --fail-on', () => {
    const r = cli(['diff', old, edited]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      'diff 2.1.0 → 2.1.0: 2 change(s); client: 0 breaking, 1 dangerous, 1 safe; ' +
        'server: 2 breaking, 0 dangerous, 0 safe',
    );
    expect(r.stdout).toContain('server side, breaking (2):');
    expect(r.stdout).toMatch(/field\.added-required {2}record Reading, field venue: added, required string/);
    expect(r.stdout).toMatch(/@asyncapi\/diff: \d+ raw change\(s\)/);
  });

  it('--fail-on exits 1 exactly when the chosen side has such a change', async () => {
    expect((await diff([old, edited, '--fail-on', 'breaking'])).status).toBe(1);
    expect((await diff([old, edited, '--side', 'client', '--fail-on', 'breaking'])).status).toBe(0);
    expect((await diff([old, edited, '--side', 'client', '--fail-on', 'dangerous'])).status).toBe(1);
    expect((await diff([old, old, '--fail-on', 'dangerous'])).status).toBe(0);
  });

  it('writes JSON and Markdown reports (repeatable --report), nothing on stdout without console', async () => {
    const json = join(dir, 'diff.json');
    const md = join(dir, 'diff.md');
    const r = await diff([old, edited, '--side', 'server', '--report', `json:${json}`, '--report', `markdown:${md}`]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.sides).toEqual(['server']);
    expect(report.summary).toEqual({ server: { breaking: 2, dangerous: 0, safe: 0 } });
    expect(report.changes.map((c: { rule: string }) => c.rule).sort()).toEqual([
      'error.message-changed',
      'field.added-required',
    ]);
    expect(readFileSync(md, 'utf8')).toMatch(/^## Spec changes: 2\.1\.0 → 2\.1\.0\n[\s\S]*### server: breaking \(2\)/);
  });

  it('--base compares the repository spec with its version at a git ref', async () => {
    const r = await diff(['--base', 'HEAD', '--fail-on', 'breaking']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^diff 0\.4\.0 → 0\.4\.0: /);
    expect(r.stdout).toContain('old: HEAD:spec/asyncapi.yaml');
  });

  it.each([
    [[], /give two specs, old and new \(got 0\)/],
    [['a.yaml', 'b.yaml', 'c.yaml'], /unexpected argument "c.yaml"/],
    [['x', 'y', '--side', 'left'], /--side must be client, server or both/],
    [['x', 'y', '--side', 'client', '--side=server'], /--side is given 2 times: give it once/],
    [['x', 'y', '--fail-on', 'safe'], /--fail-on must be breaking or dangerous/],
    [['x', 'y', '--report', 'xml:out.xml'], /--report "xml:out.xml": use console, json:<path> or markdown:<path>/],
    [['x', 'y', '--report', 'json:/no/such/folder/d.json'], /the folder \/no\/such\/folder does not exist/],
    [['--base', 'no-such-ref-anywhere'], /--base no-such-ref-anywhere: no such commit in the repository of /],
    // git would read an empty ref as the index (`git show :<path>`), and compare the tree with it.
    [['--base', ''], /--base is empty: give a git ref that names a commit/],
    [['--base=HEAD:spec'], /--base HEAD:spec: no such commit/],
  ])('usage error %j: one line, exit 2', async (args, message) => {
    const r = await diff(args);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it(
    '--base that begins with "-" is refused, never handed to git as an option ' +
      '(--output=<file> would write the file)',
    async () => {
      const out = join(dir, 'written-by-git');
      // `git show --output=<out>:spec/asyncapi.yaml` writes into the folder `<out>:spec` when it exists.
      mkdirSync(`${out}:spec`, { recursive: true });
      for (const args of [[`--base=--output=${out}`], ['--base=-p']]) {
        const r = await diff(args);
        expect(r.status).toBe(2);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).toMatch(/--base "-[^"]*" begins with "-": give a git ref that names a commit/);
      }
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(`${out}:spec`)).toEqual([]);
    },
  );

  it('with --base, a spec error in the old version names <ref>:<path>, never the deleted temporary copy', async () => {
    const temp = join(tmpdir(), 'exchange-api-diff-x', 'asyncapi.yaml');
    const err = asLabelled(
      new SpecError([{ file: temp, pointer: '#/info', line: 2, message: 'broken', severity: 'error' }]),
      temp,
      'origin/main:spec/asyncapi.yaml',
    ) as SpecError;
    expect(err.problems.map((p) => p.file)).toEqual(['origin/main:spec/asyncapi.yaml']);
    // A tracked file that is no spec, at HEAD and in the tree: whichever error comes first, no temporary path.
    const r = await diff(['--base', 'HEAD', join(repoRoot, 'package.json')]);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toContain('exchange-api-diff-');
  });

  it('a spec that does not load: its errors with file and pointer, exit 2, no stack trace', () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'asyncapi: 3.0.0\ninfo: {title: x}\n');
    const r = cli(['diff', old, broken]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^exchange-api diff: the spec has \d+ error\(s\)/);
    expect(r.stderr).toContain('broken.yaml');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it(
    'docs --since adds a Changes page (HTML, Markdown, navigation) with the classes ' +
      'per side; without it there is none',
    async () => {
      const site = join(dir, 'site');
      const r = await inProcess(runDocs, ['--spec', edited, '--out', site, '--since', old]);
      expect(r.status, r.stderr).toBe(0);
      const md = readFileSync(join(site, 'md', 'changes.md'), 'utf8');
      expect(md).toMatch(/^# Changes/m);
      // Both specs named relative to the site, and the header's command is this one, run in the site's folder.
      expect(md).toMatch(/^Since version \S+ \(`([^`]+)`\)/m);
      expect(/^Since version \S+ \(`([^`]+)`\)/m.exec(md)![1]).toBe(relative(site, old));
      expect(md.split('\n')[0]).toBe(
        `<!-- Generated by @exchange-api/codegen from ../edited.yaml. Do not edit: ` +
          `run \`npx exchange-api docs --spec ../edited.yaml --out . --since ${relative(site, old)}\`. -->`,
      );
      expect(md).toMatch(/Servers: breaking \(2\)/);
      expect(md).toMatch(/`field\.added-required`.*record Reading, field venue/);
      expect(md).toMatch(/Clients: dangerous \(1\)[\s\S]*`error\.message-changed`/);
      expect(readFileSync(join(site, 'index.html'), 'utf8')).toContain('href="changes.html"');
      const plain = join(dir, 'plain-site');
      expect((await inProcess(runDocs, ['--spec', edited, '--out', plain])).status).toBe(0);
      expect(existsSync(join(plain, 'changes.html'))).toBe(false);
      expect(readFileSync(join(plain, 'index.html'), 'utf8')).not.toContain('changes.html');
    },
  );
});

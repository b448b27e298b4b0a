/**
 * `exchange-api diff <old spec> <new spec>` (or `--base <git ref> [<spec>]`): what a new version of a
 * spec breaks, for clients and for servers. Exit 0, or 1 with --fail-on when such a change exists,
 * 2 on usage or spec errors. Never a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  consoleReport,
  diffSpecFiles,
  failsOn,
  findRepoRoot,
  jsonReport,
  markdownReport,
  SpecError,
  type Side,
  type SpecDiff,
} from '@exchange-api/codegen';
import { consoleIo, parseCommand, reportFailure, usageError, type Io } from '../args';

export const DIFF_HELP = `Usage: exchange-api diff <old spec> <new spec> [options]
       exchange-api diff --base <git ref> [<spec>] [options]

Compares two versions of an AsyncAPI spec (3.x; a 1.x or 2.x document is converted to 3.0.0 first, and a
2.x and a 3.x version are compared as their 3.x forms) through the same loader and model as \`generate\`
and lists every change to channels, parameters, methods, params, results, records, fields, enumerations,
errors, limits, access, rate-limit classes and assumptions, each classified for both sides: breaking,
dangerous (compiles, but may change behaviour) or safe. The client side: does a program built against
the old spec still work with a server of the new one? The server side: does a server built for the old
spec still conform to the new one? It also names the generated TypeScript names that change or
disappear.

  --base <ref>            compare <spec> (default: spec/asyncapi.yaml of this repository) with its version
                          at this git ref (\`git show <ref>:<path>\`); the ref must name a commit
  --report <target>       console | json:<path> | markdown:<path> (repeatable; default console)
  --side <side>           client | server | both (default both)
  --fail-on <class>       breaking | dangerous: exit 1 when a change of that class (or worse) exists on
                          the chosen side(s)
  -h, --help              this text

Examples:
  npx exchange-api diff old.asyncapi.yaml new.asyncapi.yaml
  npx exchange-api diff --base origin/main --fail-on breaking --report markdown:spec-diff.md
  npx exchange-api diff v1.yaml v2.yaml --side client --report json:diff.json --report console

Exit codes: 0 compared (no change at --fail-on), 1 a change at --fail-on exists, 2 usage or spec errors.`;

type Target = { kind: 'console' } | { kind: 'json' | 'markdown'; path: string };

type DiffFlags = {
  base?: string;
  report?: string[];
  side?: string;
  'fail-on'?: string;
  positionals: string[];
};

/** Runs the `diff` subcommand; resolves to the exit code. */
export async function runDiff(argv: string[], io: Io = consoleIo): Promise<number> {
  const values = parseCommand<DiffFlags>(
    'diff',
    DIFF_HELP,
    argv,
    {
      base: { type: 'string' },
      report: { type: 'string', multiple: true },
      side: { type: 'string' },
      'fail-on': { type: 'string' },
    },
    io,
    2,
  );
  if (typeof values === 'number') return values;
  // parseArgs keeps the last of a repeated flag: two sides would silently be one.
  const sideFlags = argv.filter((a) => a === '--side' || a.startsWith('--side=')).length;
  if (sideFlags > 1)
    return usageError('diff', `--side is given ${sideFlags} times: give it once (client, server or both)`, io);
  const side = values.side ?? 'both';
  if (!['client', 'server', 'both'].includes(side))
    return usageError('diff', `--side must be client, server or both (got ${JSON.stringify(side)})`, io);
  const sides: Side[] = side === 'both' ? ['client', 'server'] : [side as Side];
  const failOn = values['fail-on'];
  if (failOn !== undefined && failOn !== 'breaking' && failOn !== 'dangerous')
    return usageError('diff', `--fail-on must be breaking or dangerous (got ${JSON.stringify(failOn)})`, io);
  const specs = values.base !== undefined ? fromGit(values.base, values.positionals) : fromFiles(values.positionals);
  if (typeof specs === 'string') return usageError('diff', specs, io);
  const targets = await parseTargets(values.report ?? ['console'], [specs.before, specs.after]);
  if (typeof targets === 'string') {
    specs.cleanup();
    return usageError('diff', targets, io);
  }
  try {
    const d = await diffSpecFiles(specs.before, specs.after);
    if (specs.label) d.before.file = specs.label;
    const written = writeReports(d, sides, targets, io);
    if (written !== 0) return written;
    return failOn !== undefined && failsOn(d, sides, failOn) ? 1 : 0;
  } catch (err) {
    return reportFailure('diff', specs.label ? asLabelled(err, specs.before, specs.label) : err, io);
  } finally {
    specs.cleanup();
  }
}

/**
 * A spec error in the old version read from git names `<ref>:<path>`, not the temporary copy (deleted when
 * the command ends).
 */
export function asLabelled(err: unknown, file: string, label: string): unknown {
  if (!(err instanceof SpecError)) return err;
  const temp = resolve(file);
  return new SpecError(err.problems.map((p) => (resolve(p.file) === temp ? { ...p, file: label } : p)));
}

/**
 * The `--report` values as targets, or the error line. Each file is checked before the work: that it
 * can be written (tried, as /proc passes a look), and that it is none of the `inputs` (the specs).
 */
async function parseTargets(values: string[], inputs: string[]): Promise<Target[] | string> {
  const targets: Target[] = [];
  for (const v of values) {
    if (v === 'console') {
      targets.push({ kind: 'console' });
      continue;
    }
    const m = /^(json|markdown):(.+)$/.exec(v);
    if (!m) return `--report ${JSON.stringify(v)}: use console, json:<path> or markdown:<path>`;
    // The conformance command's own check of its reports, loaded only when a file report is asked for.
    const { reportPathProblem } = await import('@exchange-api/conformance');
    const why = reportPathProblem(m[2]!, inputs);
    if (why) return `--report ${v} cannot be written: ${why}`;
    targets.push({ kind: m[1] as 'json' | 'markdown', path: m[2]! });
  }
  return targets;
}

function writeReports(d: SpecDiff, sides: Side[], targets: Target[], io: Io): number {
  for (const t of targets) {
    if (t.kind === 'console') {
      io.out(consoleReport(d, sides));
      continue;
    }
    try {
      writeFileSync(t.path, t.kind === 'json' ? jsonReport(d, sides) : markdownReport(d, sides));
    } catch (err) {
      return usageError(
        'diff',
        `--report ${t.kind}:${t.path} could not be written: ${(err as Error).message.split('\n')[0]}`,
        io,
      );
    }
    io.err(`${t.kind} report: ${t.path}`);
  }
  return 0;
}

interface SpecPair {
  before: string;
  after: string;
  /** How to name the old spec in reports (`<ref>:<path>`), when it is a temporary copy. */
  label?: string;
  cleanup: () => void;
}

function fromFiles(positionals: string[]): SpecPair | string {
  if (positionals.length !== 2) return `give two specs, old and new (got ${positionals.length}), or --base <git ref>`;
  return { before: positionals[0]!, after: positionals[1]!, cleanup: () => {} };
}

/**
 * The spec and its version at a git ref, read with `git show` into a temporary file. The ref is
 * checked first, so that git never reads it as an option (`--output=<file>` would write a file) nor
 * an empty one as the index (`git show :<path>`): it must name a commit.
 */
function fromGit(ref: string, positionals: string[]): SpecPair | string {
  if (positionals.length > 1) return `--base takes at most one spec (got ${positionals.length})`;
  if (ref.trim() === '') return '--base is empty: give a git ref that names a commit (a branch, a tag, HEAD~1, a hash)';
  if (ref.startsWith('-')) return `--base ${JSON.stringify(ref)} begins with "-": give a git ref that names a commit`;
  const root = findRepoRoot();
  const spec = positionals[0] ?? (root ? join(root, 'spec', 'asyncapi.yaml') : undefined);
  if (!spec) return 'no spec/asyncapi.yaml above this folder: give the spec after --base <ref>';
  const git = (args: string[]) =>
    spawnSync('git', args, {
      cwd: dirname(resolve(spec)),
      encoding: 'utf8',
      timeout: 30_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  const firstLine = (r: ReturnType<typeof git>) => (r.stderr || r.error?.message || '').trim().split('\n')[0];
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.status !== 0) return `${spec} is not inside a git repository (${firstLine(top)})`;
  const commit = git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (commit.status !== 0)
    return `--base ${ref}: no such commit in the repository of ${spec} (a shallow checkout must fetch it first)`;
  const path = relative(top.stdout.trim(), resolve(spec)).split('\\').join('/');
  // The object is named by the commit's hash, never by what was typed: nothing of it can be an option.
  const shown = git(['show', '--end-of-options', `${commit.stdout.trim()}:${path}`]);
  if (shown.status !== 0) return `git show ${ref}:${path} failed: ${firstLine(shown)}`;
  const dir = mkdtempSync(join(tmpdir(), 'exchange-api-diff-'));
  const before = join(dir, basename(spec));
  writeFileSync(before, shown.stdout);
  return { before, after: spec, label: `${ref}:${path}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

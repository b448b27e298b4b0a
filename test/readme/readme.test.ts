import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/**
 * The Markdown whose ```sh blocks are run: the README and every page of docs/ (a new page joins by being
 * there). CONTRIBUTING.md is not among them: its commands are the dev loop, `npm test` itself.
 */
const MARKDOWN = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** A command of a ```sh block, named by its file and the line it starts on. */
type Command = { file: string; line: number; command: string };

/** Every command of a file's ```sh blocks: continuation lines joined, comments stripped. */
function shCommands(file: string, text: string): Command[] {
  const out: Command[] = [];
  for (const m of text.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    // The block's first line: the fence's line plus one (lines counted from 1).
    const line = text.slice(0, m.index).split('\n').length + 1;
    const lines = m[1]!.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const start = line + i;
      let joined = lines[i]!;
      while (joined.endsWith('\\') && i + 1 < lines.length) joined = `${joined.slice(0, -1)} ${lines[++i]!.trim()}`;
      const command = joined.trim();
      if (command && !command.startsWith('#')) out.push({ file, line: start, command });
    }
  }
  return out;
}

const QUICK_START = ['npm ci && npm start', 'npm ci && npm test'];
/**
 * Commands `npm test` runs itself (scripts/test.mjs, its step 2, before any test): run again here they
 * took 35 s of a busy run, and `npm run generate` rewrote the generated files while other test tasks read
 * them. The first test below holds that npm test runs them; in a current tree the two do the same work.
 */
const RUN_BY_NPM_TEST = ['npm run generate', 'npm run generate -- --check'];
const commands = MARKDOWN.flatMap((file) => shCommands(file, readFileSync(join(root, file), 'utf8')));
/** A command without its trailing comment (`npm run generate   # regenerate …`). */
const bare = (c: Command) => c.command.replace(/\s+#\s.*$/, '');
const runByNpmTest = (c: Command) => RUN_BY_NPM_TEST.includes(bare(c));
const runnable = commands.filter((c) => !QUICK_START.includes(c.command) && !runByNpmTest(c));

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const portInUse = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer()
      .once('error', () => resolve(true))
      .listen(port, '127.0.0.1', () => s.close(() => resolve(false)));
  });

const env = { ...process.env, SCARF_ANALYTICS: 'false', TURBO_TELEMETRY_DISABLED: '1' };
/** What each command that runs to its end printed and returned, by its text. */
const ran = new Map<string, SpawnSyncReturns<string>>();

/** Run a command that runs to its end, once per text: later calls get that run. */
function runOnce(command: string): SpawnSyncReturns<string> {
  let r = ran.get(command);
  if (r === undefined) {
    r = spawnSync('sh', ['-c', command], { cwd: root, env, encoding: 'utf8', timeout: 240_000 });
    ran.set(command, r);
  }
  return r;
}

/** Process groups of the servers started here; any still alive after a test is killed as a last resort. */
const groups = new Set<number>();
const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};
afterEach(() => {
  for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  groups.clear();
});

/**
 * A command that serves until stopped: start it in a process group of its own, read its first line,
 * send SIGTERM to the command (npx, which may die of it without passing it on), and resolve once the
 * whole group (npx, its shell, the server) has exited, or 60 s have passed (groupGone false). The bounds
 * only stop a hang: on a loaded machine each step may take many times its quiet time.
 */
function runServer(
  command: string,
): Promise<{ first: string; code: number | null; signal: NodeJS.Signals | null; groupGone: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `exec ${command}`], { cwd: root, env, detached: true });
    groups.add(child.pid!);
    let out = '';
    let first = '';
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`${command}: no first line within 180 s (got ${JSON.stringify(out)})`));
    }, 180_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (!first && out.includes('\n')) {
        first = out.split('\n')[0]!;
        clearTimeout(timer);
        child.kill('SIGTERM');
      }
    });
    child.on('exit', async (code, signal) => {
      clearTimeout(timer);
      let gone = !groupAlive(child.pid!);
      for (let i = 0; i < 600 && !gone; i++) {
        await new Promise((done) => setTimeout(done, 100));
        gone = !groupAlive(child.pid!);
      }
      resolve({ first, code, signal, groupGone: gone });
    });
  });
}

/**
 * A server command run as the page writes it except for the port (a free one for the fixed one, so
 * that the test does not depend on that port being free here), stopped after its first line; then
 * whether its port still serves, polled for up to 30 s since closing is prompt but not instant on a
 * loaded machine.
 */
async function serveAndStop(command: string) {
  const port = await freePort();
  const r = await runServer(command.replace(/--port \d+/, `--port ${port}`));
  let serving = true;
  for (let i = 0; i < 300 && serving; i++) {
    serving = await portInUse(port);
    if (serving) await new Promise((done) => setTimeout(done, 100));
  }
  return { port, r, serving };
}
/** The run of each server command, by its text. */
const servedRuns = new Map<string, ReturnType<typeof serveAndStop>>();

describe('the commands of the README and of docs/', () => {
  it('the quick start is exactly the two commands, and CI and npm start run what they say', () => {
    const quick = /## Quick start\n\n```sh\n([\s\S]*?)```/.exec(readme)![1]!.trim().split('\n');
    expect(quick).toEqual(QUICK_START);
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    // The sources of `exchange-api start`, no build needed on a fresh clone; proven by test/main/main-job.test.ts.
    expect(pkg.scripts.start).toBe(
      'node --conditions=@exchange-api/source --import tsx packages/cli/bin/exchange-api.js start',
    );
    expect(pkg.scripts.test).toBe('node scripts/test.mjs'); // what CI runs
    // The commands not run here: npm test's own step 2 runs the generator with --check from the sources,
    // as `npm run generate` does.
    const steps = readFileSync(join(root, 'scripts', 'test.mjs'), 'utf8');
    expect(steps).toMatch(/'packages\/cli\/bin\/exchange-api\.js', 'generate', '--check'\]/);
    expect(pkg.scripts.generate).toBe(
      'node --conditions=@exchange-api/source --import tsx packages/cli/bin/exchange-api.js generate',
    );
    expect(commands.filter(runByNpmTest).map(bare).sort()).toEqual([...RUN_BY_NPM_TEST].sort());
  });

  it('states the counts of open places and assumptions the spec really has (docs/spec.md)', () => {
    // Read from the README's own `npx exchange-api spec` (its case below checks the same run): the
    // summary counts the model the generator builds, and building it again here cost seconds of CPU.
    const summary = runOnce('npx exchange-api spec');
    expect(summary.status, summary.stderr).toBe(0);
    const count = (what: RegExp) => {
      const c = what.exec(summary.stdout);
      expect(c, `the spec summary has ${what}`).not.toBeNull();
      return Number(c![1]);
    };
    const notShown = count(/^not shown \((\d+) places\)/m);
    const assumptions = count(/^assumptions \((\d+)\):$/m);
    const channels = count(/^channels \((\d+)\):$/m);
    const spec = readFileSync(join(root, 'docs', 'spec.md'), 'utf8');
    const m = /The document leaves (\d+) places open and the spec makes (\d+) assumptions\./.exec(spec);
    expect(m, 'docs/spec.md states both counts').not.toBeNull();
    expect([Number(m![1]), Number(m![2])]).toEqual([notShown, assumptions]);
    expect(spec).toContain(`the ${channels} channels`);
  });

  it('has commands to run besides the quick start, in the README and in docs/', () => {
    expect(MARKDOWN).toContain('docs/generating.md');
    const inReadme = runnable.filter((c) => c.file === 'README.md').length;
    expect(inReadme).toBeGreaterThanOrEqual(6);
    expect(runnable.length).toBeGreaterThan(inReadme);
    // The quick start is the README's alone.
    expect(commands.filter((c) => QUICK_START.includes(c.command)).map((c) => c.file)).toEqual([
      'README.md',
      'README.md',
    ]);
  });

  it.each(runnable.map((c) => [`${c.file}:${c.line}: ${c.command}`, c.command] as const))(
    '%s',
    async (label, command) => {
      if (command.includes('# serves until stopped')) {
        // The same server command on two pages (README.md and docs/sandbox.md) is started once; each
        // page's case checks that run.
        let served = servedRuns.get(command);
        if (served === undefined) {
          served = serveAndStop(command);
          servedRuns.set(command, served);
        }
        const { port, r, serving } = await served;
        expect(r.first, label).toBe(`sandbox listening ws://127.0.0.1:${port}/v3/ws http://127.0.0.1:${port}`);
        // npx dies of the signal itself; the sandbox's own clean exit 0 is tested in packages/sandbox.
        expect(r.code === 0 || r.signal === 'SIGTERM', `${label}: ${JSON.stringify(r)}`).toBe(true);
        // The sandbox stops with its launcher (it watches npx behind npx's shell): nothing of the group is left.
        expect(r.groupGone, `${label}: npx, its shell and the sandbox all exited within 60 s of SIGTERM`).toBe(true);
        expect(serving, `${label}: the sandbox still serves 30 s after SIGTERM`).toBe(false);
        return;
      }
      // A command written on two pages (README.md and docs/diff.md both show `diff --base HEAD`) runs
      // once, and each page's case checks that run: the same command in the same folder.
      const r = runOnce(command);
      expect(r.stderr.replace(/npm warn Unknown user config "nodedir".*\n/g, ''), label).not.toMatch(/Error|error:/);
      expect(r.status, `${label}\n${r.stdout}\n${r.stderr}`).toBe(0);
    },
    300_000,
  );
});

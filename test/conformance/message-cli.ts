/**
 * The conformance command line of a message spec, run in this process: runCli with the exchange-api
 * command's own spec loader (lenient examples for a spec that speaks its own messages), each spec read
 * once for all the runs of a test file; quick bounds (loopback); the JSON report read back.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type Report } from '@exchange-api/conformance';
import type { SpecName } from './message-servers';

export const specFile = (name: SpecName) =>
  fileURLToPath(new URL(`../sdk/fixtures/public/${name}.asyncapi.yaml`, import.meta.url));

// Imported by path: the command sits above the packages (test/support/run-main.ts says why).
const commandFile = fileURLToPath(new URL('../../packages/cli/src/commands/conformance.ts', import.meta.url));
type Loader = (file: string) => Promise<never>;
const models = new Map<string, Promise<never>>();
let loader: Promise<Loader> | undefined;

export async function loadSpec(file: string) {
  loader ??= import(commandFile).then((m: { loadSpecModel: Loader }) => m.loadSpecModel);
  const load = await loader;
  return models.get(file) ?? models.set(file, load(file)).get(file)!;
}

/** `exchange-api conformance ...argv`: its exit code, stdout and stderr lines. */
export async function conformance(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, {}, loadSpec);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const dirs: string[] = [];

/** A folder of its own for a run's reports and replay files; removeFolders() removes them all. */
export function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'message-runner-'));
  dirs.push(dir);
  return dir;
}

export function removeFolders(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/**
 * The runner on a spec and a URL, its JSON report read back: a short sample window (loopback), the reply
 * bound left at its default (a right server's reply is never late on a loaded machine); tests of a server
 * that never answers shorten it with `--check-timeout` in `extra` (the last one given counts).
 */
export async function check(name: SpecName, url: string, extra: string[] = []) {
  const dir = folder();
  const json = join(dir, 'report.json');
  const argv = ['--spec', specFile(name), '--ws', url, '--sample-window', '300'];
  const r = await conformance([...argv, '--report', `json:${json}`, ...extra]);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  return { ...r, report, dir };
}

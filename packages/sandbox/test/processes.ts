/**
 * Child processes for the command-line tests: each is started in a process group of its own, and every
 * group still alive after a test is killed (SIGKILL to the whole group), as a last resort, so that no
 * test leaves a sandbox (or a shell or launcher around it) behind, whatever it asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin } from '../../../test/support/cli';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The built command, as users run it (the vitest global setup has built it). */
export const builtCommand = [bin];

const groups = new Set<number>();

/** Kills every group still alive after a test (registered for every file by test/setup.ts). */
export function killLeftGroups(): void {
  for (const pgid of groups) killGroup(pgid, 'SIGKILL');
  groups.clear();
}

/** Signal every process of a group; false when the group has none left. */
export function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether every process of the group has exited within ms (polled). */
export async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!killGroup(pgid, 0)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !killGroup(pgid, 0);
}

/** A started command: its exit, its output so far, its first stdout line. */
export interface Run {
  child: ChildProcess;
  pgid: number;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  firstLine: Promise<string>;
  /**
   * Resolves once stdout and stderr are closed: every process holding them (a sandbox behind a launcher too) has
   * exited, and all they wrote is read.
   */
  outputEnded: Promise<void>;
}

/** Start `node <args>` in a new process group, stdout and stderr piped, tracked for cleanup. */
export function spawnGroup(args: string[]): Run {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.add(child.pid!);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const firstLine = new Promise<string>((resolve) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    lines.once('close', () => resolve(''));
  });
  const outputEnded = Promise.all([once(child.stdout!, 'close'), once(child.stderr!, 'close')]).then(
    () => undefined,
    () => undefined,
  );
  return { child, pgid: child.pid!, exited, stdout: () => stdout, stderr: () => stderr, firstLine, outputEnded };
}

/** `exchange-api sandbox <args>` from the sources. */
export function runSandbox(args: string[]): Run {
  return spawnGroup([...builtCommand, 'sandbox', ...args]);
}

/** Exit code within ms, or 'hung' (and the group is killed). */
export async function exitWithin(r: Run, ms: number): Promise<number | null | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  const code = await Promise.race([r.exited, hung]);
  clearTimeout(timer);
  if (code === 'hung') killGroup(r.pgid, 'SIGKILL');
  return code;
}

/** The URLs of the listening line, or null when the line is not one. */
export function listening(line: string): { ws: string; http: string; port: number } | null {
  const m = /^sandbox listening (ws:\/\/127\.0\.0\.1:([0-9]+)\/v3\/ws) (http:\/\/127\.0\.0\.1:([0-9]+))$/.exec(line);
  return m && m[2] === m[4] ? { ws: m[1]!, http: m[3]!, port: Number(m[2]) } : null;
}

/** Runs the command line as a user does: the built command in a fresh process (test/support/cli.ts). */
import { spawn } from 'node:child_process';
import { bin, repoRoot } from '../../../test/support/cli';

export { cli, repoRoot as root } from '../../../test/support/cli';

/**
 * Node's arguments that run the built command (`node ...built <command>`), for tests that spawn it
 * themselves. Built, not from the sources through tsx: tsx's loader saw every module the command loads
 * (the AsyncAPI parser's thousands), six times the CPU of the built command for `spec` (18 s against 3).
 * The package's test task builds it first (turbo.json), as the root run's global setup does.
 */
export const built = [bin];

/**
 * `exchange-api ...args`, the built command, in a fresh process, to its end. Asynchronous, unlike cli():
 * a server the test runs in its own process must keep answering meanwhile. `command` wraps the node
 * command line (as `script` does, to give it a terminal); a run still going after `bound` ms is killed.
 */
export function runBuilt(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; command?: (node: string[]) => string[]; bound?: number } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const node = [process.execPath, ...built, ...args];
  const [file, ...rest] = options.command ? options.command(node) : node;
  return new Promise((resolve, reject) => {
    const child = spawn(file!, rest, {
      cwd: repoRoot,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`exchange-api ${args.join(' ')} did not end within ${options.bound ?? 240_000} ms`));
    }, options.bound ?? 240_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(bound);
      resolve({ status, stdout, stderr });
    });
  });
}

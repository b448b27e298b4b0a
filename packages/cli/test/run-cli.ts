/** Runs the command line as a user does: the built command in a fresh process (test/support/cli.ts). */
import { spawn } from 'node:child_process';
import { bin, repoRoot } from '../../../test/support/cli';

export { cli, repoRoot as root } from '../../../test/support/cli';

/**
 * Node's arguments that run the command from its sources (`node ...fromSources <command>`), for tests
 * that spawn it themselves and need no build.
 */
export const fromSources = ['--conditions=@exchange-api/source', '--import', 'tsx', bin];

/**
 * `exchange-api ...args` from its sources in a fresh process, to its end. Asynchronous, unlike cli():
 * a server the test runs in its own process must keep answering meanwhile. `command` wraps the node
 * command line (as `script` does, to give it a terminal); a run still going after `bound` ms is killed.
 */
export function runFromSources(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; command?: (node: string[]) => string[]; bound?: number } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const node = [process.execPath, ...fromSources, ...args];
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
      reject(new Error(`exchange-api ${args.join(' ')} did not end within ${options.bound ?? 90_000} ms`));
    }, options.bound ?? 90_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(bound);
      resolve({ status, stdout, stderr });
    });
  });
}

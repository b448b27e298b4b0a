/**
 * A reader that goes away (`exchange-api spec | head -1`) closes the pipe before the command writes:
 * the command ends quietly with exit 0, never an EPIPE stack trace.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { bin, repoRoot } from '../../../test/support/cli';

/** Run the command with its stdout pipe closed on our side at once; resolve with its exit and stderr. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`exchange-api ${args.join(' ')} did not end within 30 s`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(bound);
      resolve({ code, stderr });
    });
  });
}

describe('a closed pipe', () => {
  it.each([['--help'], ['spec']])(
    'exchange-api %s with its reader gone ends with exit 0 and nothing on stderr',
    async (...args) => {
      const { code, stderr } = await withClosedStdout(args);
      expect(stderr).not.toMatch(/EPIPE|at .*\(/);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
    40_000,
  );
});

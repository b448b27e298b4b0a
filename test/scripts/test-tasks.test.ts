/**
 * npm test's test tasks start longest first (scripts/test-tasks.mjs): the order is LONGEST_FIRST's, then
 * any other task by name; a task that fails makes the run fail, and the others still run.
 */
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without declarations
import { LONGEST_FIRST, runTestTasks, startOrder } from '../../scripts/test-tasks.mjs';

describe('the order of the test tasks', () => {
  it('starts the named longest first, in their order, then the rest by name; names only tasks that exist', () => {
    const tasks = ['@exchange-api/types#test', '//#test:e2e', '@exchange-api/new#test', '@exchange-api/codegen#test'];
    expect(startOrder(tasks)).toEqual([
      '//#test:e2e',
      '@exchange-api/codegen#test',
      '@exchange-api/new#test',
      '@exchange-api/types#test',
    ]);
    expect((LONGEST_FIRST as string[])[0]).toBe('//#test:e2e');
  });

  it('fails when a task fails, after running every task', async () => {
    // turbo refuses a task no package has (exit 1) in a second, without running anything.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const status = await runTestTasks(['//#no-such-task-a', '//#no-such-task-b'], {
      slots: 1,
      flags: ['--no-color'],
      env: process.env,
    });
    const said = log.mock.calls.flat();
    log.mockRestore();
    expect(status).not.toBe(0);
    // Both were run, and both are named: the second ran after the first failed.
    expect(said).toContain('\nfailed: //#no-such-task-a, //#no-such-task-b');
  });
});

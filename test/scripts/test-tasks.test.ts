/**
 * npm test's test tasks start longest first (scripts/test-tasks.mjs): the order is LONGEST_FIRST's, then
 * any other task by name; a task that fails makes the run fail, and the others still run.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without declarations
import { LONGEST_FIRST, graphHashes, runTestTasks, startOrder } from '../../scripts/test-tasks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

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

  it('fails when a task fails, after running every task; and when the task graph cannot be read', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      // turbo refuses a flag it does not know (exit 1) in a second, without running anything.
      const env = process.env;
      const tasks = ['@exchange-api/types#test', '@exchange-api/auth#test'];
      expect(await runTestTasks(tasks, { slots: 1, flags: ['--no-such-flag'], env })).not.toBe(0);
      // Both were run, and both are named: the second ran after the first failed.
      expect(log.mock.calls.flat()).toContain('\nfailed: @exchange-api/auth#test, @exchange-api/types#test');
      // A task no package has: turbo's graph has no hash for it, and the run says so.
      expect(await runTestTasks(['//#no-such-task'], { slots: 1, flags: [], env })).toBe(1);
      expect(log.mock.calls.flat().join('\n')).toMatch(/the task graph could not be read: turbo run no-such-task/);
    } finally {
      log.mockRestore();
    }
  });

  it("gives each task its hash in the whole graph, which turbo.json's test tasks key their cache on", () => {
    const tasks = ['@exchange-api/sandbox#test', '//#test:e2e'];
    const hashes = graphHashes(tasks, process.env) as Map<string, string>;
    expect([...hashes.keys()].sort()).toEqual([...tasks].sort());
    for (const h of hashes.values()) expect(h).toMatch(/^[0-9a-f]{16}$/);
    const turbo = JSON.parse(readFileSync(join(root, 'turbo.json'), 'utf8'));
    for (const t of ['test', '//#test:e2e']) expect(turbo.tasks[t].env).toContain('EXCHANGE_API_GRAPH_HASH');
  });
});

// The test tasks of `npm test`, longest first, a few at a time. One `turbo run … --only` per task (the
// builds they depend on are done by then: npm test's checks ran `turbo run build`), so each task keeps
// turbo's cache (an edit reruns the tests of its package and of those that depend on it; an unchanged
// task replays its log and report) while this module, not turbo, decides the order. turbo started its
// tasks in the order of its graph walk: the longest, test/'s, eighth of eleven, and it was the last to
// end; started first, it ends with the others (longest processing time first, the classic rule for
// packing jobs on a few machines).
import { spawn } from 'node:child_process';

/**
 * The longest tasks, longest first, as measured on a fresh clone's run (wall seconds, three at a time
 * on 2 cores). A task not named here (a new package) runs after them: a new package's tests start short.
 */
export const LONGEST_FIRST = [
  '//#test:e2e', // 468 s
  '@exchange-api/codegen#test', // 354 s
  '@exchange-api/sandbox#test', // 172 s
  '@exchange-api/cli#test', // 136 s
  '@exchange-api/docs#test', // 95 s
  '@exchange-api/conformance#test', // 66 s
  '@exchange-api/client#test', // 31 s
  '@exchange-api/evidence#test', // 19 s
];

/** The tasks in the order they start: LONGEST_FIRST's that exist, then the rest by name. */
export function startOrder(tasks) {
  const known = LONGEST_FIRST.filter((t) => tasks.includes(t));
  return [...known, ...tasks.filter((t) => !known.includes(t)).sort()];
}

/** turbo's arguments for one task: `pkg#task` runs that package's task alone, `//#task` the root's. */
function turboArgs(task, flags) {
  const [pkg, name] = task.split('#');
  return ['turbo', 'run', name, ...(pkg === '//' ? [] : [`--filter=${pkg}`]), '--only', ...flags];
}

/**
 * Run `tasks` (in startOrder), `slots` at a time, each as `npx turbo run <task> --only <flags>` with its
 * output on this process's (turbo prefixes each line with its task). Every task runs to its end whatever
 * another did (a change that breaks two packages shows both). Resolves to the first failing status in
 * start order, or 0.
 */
export async function runTestTasks(tasks, { slots, flags, env }) {
  const queue = startOrder(tasks);
  const statuses = new Map();
  const one = (task) =>
    new Promise((resolve) => {
      const child = spawn('npx', turboArgs(task, flags), { stdio: 'inherit', env });
      child.on('error', (error) => {
        console.log(`${task}: not started: ${error.message}`);
        resolve(1);
      });
      child.on('close', (code) => resolve(code ?? 1));
    });
  const worker = async () => {
    for (let task = queue.shift(); task !== undefined; task = queue.shift()) statuses.set(task, await one(task));
  };
  await Promise.all(Array.from({ length: slots }, worker));
  const failed = startOrder(tasks).filter((t) => statuses.get(t) !== 0);
  if (failed.length > 0) console.log(`\nfailed: ${failed.join(', ')}`);
  return failed.length > 0 ? statuses.get(failed[0]) : 0;
}

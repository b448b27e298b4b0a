// The test tasks of `npm test`, longest first, a few at a time. One `turbo run … --only` per task (the
// builds they depend on are done by then: npm test's checks ran `turbo run build`), so each task keeps
// turbo's cache (an edit reruns the tests of its package and of those that depend on it; an unchanged
// task replays its log and report) while this module, not turbo, decides the order. turbo started its
// tasks in the order of its graph walk: the longest, test/'s, eighth of eleven, and it was the last to
// end; started first, it ends with the others (longest processing time first, the classic rule for
// packing jobs on a few machines).
import { spawn, spawnSync } from 'node:child_process';

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
 * Each task's hash in the whole graph (`turbo run … --dry=json`), which covers the builds it depends on.
 * An `--only` run hashes the task's own inputs alone: an edit of packages/auth/src would replay the
 * sandbox's cached tests. Each run gets its graph hash as EXCHANGE_API_GRAPH_HASH, an `env` of the test
 * tasks in turbo.json, so its cache key moves with its dependencies as it did in one `turbo run`.
 */
export function graphHashes(tasks, env) {
  const names = [...new Set(tasks.map((t) => t.split('#')[1]))];
  const clean = { ...env };
  delete clean.EXCHANGE_API_GRAPH_HASH;
  const r = spawnSync('npx', ['turbo', 'run', ...names, '--dry=json'], {
    env: clean,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`turbo run ${names.join(' ')} --dry=json: exit ${r.status}: ${r.stderr.trim()}`);
  const graph = JSON.parse(r.stdout);
  return new Map(graph.tasks.filter((t) => tasks.includes(t.taskId)).map((t) => [t.taskId, t.hash]));
}

/**
 * Run `tasks` (in startOrder), `slots` at a time, each as `npx turbo run <task> --only <flags>` (its graph
 * hash in its environment) with its
 * output on this process's (turbo prefixes each line with its task). Every task runs to its end whatever
 * another did (a change that breaks two packages shows both). Resolves to the first failing status in
 * start order, or 0.
 */
export async function runTestTasks(tasks, { slots, flags, env }) {
  const queue = startOrder(tasks);
  const statuses = new Map();
  let hashes;
  try {
    hashes = graphHashes(tasks, env);
  } catch (error) {
    console.log(`the task graph could not be read: ${error.message}`);
    return 1;
  }
  const one = (task) =>
    new Promise((resolve) => {
      const graph = { EXCHANGE_API_GRAPH_HASH: hashes.get(task) ?? 'none' };
      const child = spawn('npx', turboArgs(task, flags), { stdio: 'inherit', env: { ...env, ...graph } });
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

/**
 * The AsyncAPI parser, run with a time bound. It runs in a worker thread, so a spec it would spin on
 * (as it did on a $ref cycle, caught before it now) ends the worker after the bound instead of
 * hanging the command: no step of loading may go on forever. The bound counts the CPU time this
 * process spent since the parse began, not the clock: on a busy CI machine (six other processes on two
 * cores) our own spec's parse took over 60 s of wall time and was stopped, a correct spec failed for
 * the machine's load. A ceiling of ten times the bound in wall time still ends a parse that waits on
 * nothing. The check runs on this thread, whose own synchronous work can only delay it: a bound that
 * fires late says how long the parse really took.
 * (A 10,000-long $ref chain once took minutes before the timer could fire: our own cycle check, on
 * this thread, was quadratic. It is linear now, and load/spec-limits.ts refuses such specs first.)
 * The worker's console is its own: what the parser prints (a stack trace) never reaches the user.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** One diagnostic of the parser, as plain data. */
export interface ParserDiagnostic {
  severity: number;
  path: Array<string | number>;
  message: string;
  code: string | number;
  range?: { start: { line: number } };
}

/** How much CPU time the parser may take on one spec (ours takes a few seconds). */
export const PARSE_BOUND_MS = 60_000;

/** The wall-clock ceiling, as a multiple of the bound: a parse stalled without using CPU still ends. */
const WALL_FACTOR = 10;

/** CPU time of this process so far (every thread, the parser's worker included), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** How long an idle parser worker is kept for the next spec (one command often loads two, a test many). */
const IDLE_MS = 3000;

// The worker is a CommonJS script given as text, so it needs no file of its own in any build. It
// serves one spec at a time; loading the parser costs about as much as a parse, so a worker is kept
// for the next spec a while (unreferenced: it never keeps a process alive).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Parser } = require(workerData.parserPath);
parentPort.on('message', ({ text, source }) => {
  // A parser per spec: nothing of one spec (resolved references) may leak into the next.
  new Parser()
    .parse(text, { source })
    .then((parsed) => {
      const diagnostics = (parsed.diagnostics || []).map((d) => ({
        severity: d.severity, path: Array.from(d.path || []), message: String(d.message), code: d.code,
        range: d.range ? { start: { line: d.range.start.line } } : undefined,
      }));
      parentPort.postMessage({ diagnostics });
    })
    .catch((err) => parentPort.postMessage({ error: String((err && err.message) || err) }));
});
`;

/** The parser did not finish within its bound (CPU time, or the wall-clock ceiling), and was stopped. */
export class ParseTooSlow extends Error {
  constructor(
    /** CPU time spent since the parse began. */
    readonly elapsedMs: number,
    readonly boundMs: number,
    /** Wall time since the parse began. */
    readonly wallMs: number = elapsedMs,
  ) {
    super(
      `the AsyncAPI parser did not finish within ${boundMs / 1000} s of CPU time; ` +
        `stopped after ${(elapsedMs / 1000).toFixed(1)} s (${(wallMs / 1000).toFixed(1)}` +
        ` s of wall time)`,
    );
    this.name = 'ParseTooSlow';
  }
}

/** Where the parser's CommonJS entry is, resolved from this module (the CommonJS build shims import.meta.url). */
function parserPath(): string {
  return createRequire(import.meta.url).resolve('@asyncapi/parser');
}

/** The worker kept for the next spec, if any, and the timer that ends it. */
let idle: { worker: Worker; timer: NodeJS.Timeout } | null = null;

/**
 * Remove the listeners this module adds, and only those: `removeAllListeners()` would also remove the
 * worker's own 'newListener' hooks that ref its message port, and a reused worker would then never
 * deliver its answer.
 */
function detach(worker: Worker): Worker {
  return worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
}

function takeWorker(): Worker {
  if (idle) {
    const { worker, timer } = idle;
    idle = null;
    clearTimeout(timer);
    detach(worker).ref();
    return worker;
  }
  // stdout and stderr are piped here and drained: whatever the parser prints goes nowhere.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { parserPath: parserPath() },
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}

/** Keep a worker that finished cleanly for the next spec (one at most), or end it. */
function release(worker: Worker): void {
  detach(worker);
  if (idle) {
    void worker.terminate();
    return;
  }
  worker.unref();
  // A worker that fails or dies while idle is simply forgotten: an 'error' event without a listener
  // would throw in the process that kept it.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    if (idle?.worker === worker) {
      clearTimeout(idle.timer);
      idle = null;
    }
  });
  const timer = setTimeout(() => {
    if (idle?.worker === worker) idle = null;
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle = { worker, timer };
}

/**
 * Parse a spec's text with the AsyncAPI parser in a worker; resolves to its diagnostics, rejects with
 * the parser's own error, or with "did not finish" once the parse has used `boundMs` of CPU time (or
 * ten times that of wall time); the worker is then stopped.
 */
export function parseBounded(text: string, source: string, boundMs = PARSE_BOUND_MS): Promise<ParserDiagnostic[]> {
  return new Promise((resolve, reject) => {
    const worker = takeWorker();
    const started = Date.now();
    const startedCpu = cpuMs();
    const timer = setInterval(
      () => {
        const cpu = cpuMs() - startedCpu;
        const wall = Date.now() - started;
        if (cpu < boundMs && wall < boundMs * WALL_FACTOR) return;
        clearInterval(timer);
        detach(worker).on('error', () => undefined);
        void worker.terminate();
        reject(new ParseTooSlow(cpu, boundMs, wall));
      },
      Math.min(1000, boundMs),
    );
    worker.once('message', (m: { diagnostics?: ParserDiagnostic[]; error?: string }) => {
      clearInterval(timer);
      release(worker);
      if (m.error !== undefined) reject(new Error(m.error));
      else resolve(m.diagnostics ?? []);
    });
    worker.once('error', (err) => {
      clearInterval(timer);
      detach(worker).on('error', () => undefined);
      void worker.terminate();
      // One line: the error's message, never its stack.
      reject(new Error(err.message));
    });
    worker.once('exit', (code) => {
      clearInterval(timer);
      detach(worker);
      reject(new Error(`the AsyncAPI parser stopped (exit ${code})`));
    });
    worker.postMessage({ text, source });
  });
}

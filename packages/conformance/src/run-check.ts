/** Running one check: its needs, its time limit (stopped and given time to unwind), and its outcome. */
import { Ctx, Stop, type Check } from './context';
import { unmet } from './options';
import { areaOf } from './select';
import type { RunState } from './run-state';
import type { CheckResult, Status } from './model';

/** How long a check stopped by its time limit may take to unwind before the next one starts anyway. */
const SETTLE_MS = 5000;

/** The outcome of one check, and whether it met transport trouble (a connection it could not open, or one lost abruptly). */
export async function runOne(run: RunState, check: Check): Promise<{ result: CheckResult; transportTrouble: boolean }> {
  const start = Date.now();
  const base = {
    id: check.id,
    area: areaOf(check.id),
    title: check.title,
    section: check.section,
    level: check.level,
    needs: [...check.needs],
  };
  const missing = check.needs.map((n) => unmet(n, run.options)).filter((r): r is string => r !== null);
  if (missing.length > 0)
    return {
      result: {
        ...base,
        status: 'skip',
        reason: missing.join('; '),
        durationMs: 0,
        findings: [],
        observations: [],
        transcript: [],
      },
      transportTrouble: false,
    };
  const controller = new AbortController();
  const ctx = new Ctx(run, check.id, controller.signal);
  let status: Status = 'pass';
  let reason: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const body = Promise.resolve().then(() => check.run(ctx));
  body.catch(() => undefined); // settled below in every case; never an unhandled rejection
  try {
    const outcome = await Promise.race([
      body.then(() => 'done' as const),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), run.options.checkTimeoutMs);
      }),
    ]);
    if (outcome === 'timeout') {
      const stop = new Stop('inconclusive', `did not finish within ${run.options.checkTimeoutMs} ms`);
      status = stop.status;
      reason = stop.reason;
      // Stop it: its helpers refuse to connect, send or sleep from now on and its connections close.
      // Then wait for it to unwind, so nothing of it is still running when the next check starts.
      controller.abort(stop);
      let grace: NodeJS.Timeout | undefined;
      const settled = await Promise.race([
        body.then(
          () => true,
          () => true,
        ),
        new Promise<false>((r) => (grace = setTimeout(() => r(false), SETTLE_MS))),
      ]);
      clearTimeout(grace);
      if (!settled) ctx.note(`still unwinding ${SETTLE_MS} ms after the stop; it can open no connection any more`);
    }
  } catch (err) {
    if (err instanceof Stop) {
      status = err.status;
      reason = err.reason;
    } else {
      status = 'inconclusive';
      reason = `the check stopped on an error of its own: ${(err as Error).stack ?? String(err)}`;
    }
  } finally {
    clearTimeout(timer);
    await ctx.closeAll();
  }
  if (ctx.findings.length > 0) {
    status = 'fail';
    reason ??= ctx.findings[0]!.message;
  } else if (status === 'fail') status = 'inconclusive';
  const result: CheckResult = {
    ...base,
    status,
    ...(reason !== undefined ? { reason } : {}),
    durationMs: Date.now() - start,
    findings: ctx.findings,
    observations: ctx.observations,
    transcript: ctx.transcript.finish(),
  };
  return { result, transportTrouble: ctx.transportTrouble };
}

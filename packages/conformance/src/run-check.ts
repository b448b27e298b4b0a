/** Running one check: its needs, its time limit (stopped and given time to unwind), and its outcome. */
import { Ctx, Stop, type Check } from './context';
import { unmet } from './options';
import { areaOf } from './select';
import type { RunState } from './run-state';
import type { CheckResult, CheckStatus } from './model';

/** How long a check stopped by its time limit may take to unwind before the next one starts anyway. */
const SETTLE_MS = 5000;

/** What every result of a check carries, run or not: who it is and what it needs. */
export function identityOf(check: Check): Pick<CheckResult, 'id' | 'area' | 'title' | 'section' | 'level' | 'needs'> {
  return {
    id: check.id,
    area: areaOf(check.id),
    title: check.title,
    section: check.section,
    level: check.level,
    needs: [...check.needs],
  };
}

/**
 * The outcome of one check, and whether it met transport trouble (a connection it could not open, or one lost
 * abruptly).
 */
export async function runOne(run: RunState, check: Check): Promise<{ result: CheckResult; transportTrouble: boolean }> {
  const start = Date.now();
  const base = identityOf(check);
  const missing = check.needs
    .map((n) => (n === 'key' && run.keyRefused !== undefined ? run.keyRefused : unmet(n, run.options)))
    .filter((r): r is string => r !== null);
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
  let { status, reason } = await runBody(run, check, ctx, controller);
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

/** How a check's body ended, before its findings are counted. */
type Ending = { status: CheckStatus; reason?: string };

/**
 * The check's body under its time limit: its own ending (done, a Stop it threw, an error of its own),
 * or, past the limit, stopped. Its connections are closed in every case.
 */
async function runBody(run: RunState, check: Check, ctx: Ctx, controller: AbortController): Promise<Ending> {
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
    return outcome === 'timeout' ? await stopAtLimit(run, ctx, controller, body) : { status: 'pass' };
  } catch (err) {
    if (err instanceof Stop) return { status: err.status, reason: err.reason };
    return {
      status: 'inconclusive',
      reason: `the check stopped on an error of its own: ${(err as Error).stack ?? String(err)}`,
    };
  } finally {
    clearTimeout(timer);
    await ctx.closeAll();
  }
}

/**
 * Past its time limit, stop the check: its helpers refuse to connect, send or sleep from now on and its
 * connections close. Then wait for it to unwind, so nothing of it is still running when the next check
 * starts; one still unwinding after SETTLE_MS is noted and left, as it can open no connection any more.
 */
async function stopAtLimit(
  run: RunState,
  ctx: Ctx,
  controller: AbortController,
  body: Promise<unknown>,
): Promise<Ending> {
  const stop = new Stop('inconclusive', `did not finish within ${run.options.checkTimeoutMs} ms`);
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
  return { status: stop.status, reason: stop.reason };
}

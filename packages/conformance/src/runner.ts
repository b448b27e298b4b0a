/**
 * runConformance: discover the server, run the selected checks in order, and build the report. A server
 * that stops answering during the run ends it: the remaining checks are not run and the report says so.
 */
import { apiInfo, assumptionTable } from '@exchange-api/types';
import type { Check } from './context';
import { ConnectionGuard, Pacer } from './guard';
import { WsConn } from './connection';
import { Transcript } from './transcript';
import { registry } from './checks';
import { discover, UnreachableError } from './discover';
import { endpointName } from './endpoint-name';
import { keyRefusal, type KeyRefusal } from './key-admission';
import { resolveOptions, type RunOptions } from './options';
import { identityOf, runOne } from './run-check';
import { matches } from './select';
import { areaCounts, countResults } from './tally';
import type { RunState } from './run-state';
import type { CheckResult, Report } from './model';

export { resolveOptions, type RunOptions, type ProgressEvent } from './options';
export { UnreachableError } from './discover';

/** The checks a run selects: those matching `only` (all when empty), less those matching `skip`. */
export function selectChecks(
  checks: readonly Check[],
  only: readonly string[] = [],
  skip: readonly string[] = [],
): Check[] {
  return checks.filter((c) => (!only.length || matches(c.id, only)) && !(skip.length && matches(c.id, skip)));
}

/**
 * How long the runner waits to see whether the server still accepts a connection. Generous: a server
 * taken for gone ends the run (exit 2), and on a loaded machine a live one may take seconds to accept.
 */
const REACHABLE_MS = 10_000;

/** Why the server is gone (it accepts no WebSocket within the time), or null when it still answers. */
async function gone(ws: string, t0: number): Promise<string | null> {
  try {
    const conn = await WsConn.open(ws, new Transcript(t0), 'reachability', REACHABLE_MS);
    await conn.close();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The report of a run's results (format version 1, see the package README). */
function buildReport(
  run: RunState,
  results: CheckResult[],
  interrupted: Report['interrupted'],
  refused: KeyRefusal | null,
): Report {
  const areas = areaCounts(results);
  const summary = countResults(results);
  return {
    format: 'exchange-api-conformance-report',
    formatVersion: 1,
    spec: { title: apiInfo.title, version: apiInfo.version },
    target: {
      ws: run.options.ws,
      http: run.options.http,
      ...(run.options.endpoints.length > 1 ? { endpoints: run.options.endpoints } : {}),
    },
    startedAt: new Date(run.t0).toISOString(),
    durationMs: Date.now() - run.t0,
    exitCode: interrupted || refused ? 2 : summary.failed > 0 ? 1 : 0,
    summary,
    areas,
    ...(interrupted ? { interrupted } : {}),
    ...(refused ? { keyRefused: { wallet: refused.wallet, error: refused.error, reason: refused.reason } } : {}),
    assumptions: assumptionTable.map((a) => ({
      id: a.id,
      title: a.title,
      choice: a.choice,
      observations: results.flatMap((r) =>
        r.observations
          .filter((ob) => ob.assumption === a.id)
          .map((ob) => ({
            check: r.id,
            text: ob.text,
            ...(ob.conforms !== undefined ? { conforms: ob.conforms } : {}),
          })),
      ),
    })),
    checks: results,
  };
}

/** A check the run did not get to, because the server had gone. */
function notRun(check: Check, during: string): CheckResult {
  return {
    ...identityOf(check),
    status: 'skip',
    reason: `not run: the server stopped answering during ${during}`,
    durationMs: 0,
    findings: [],
    observations: [],
    transcript: [],
  };
}

/**
 * Run the conformance checks against a server and return the report. Throws UnreachableError when it
 * cannot connect at first; a server lost later is in the report (`interrupted`, exit code 2).
 */
export async function runConformance(options: RunOptions): Promise<Report> {
  const o = resolveOptions(options);
  const t0 = Date.now();
  const { env } = await discover(o, t0);
  for (const [i, e] of o.endpoints.entries()) {
    const why = i === 0 ? null : await gone(e.ws, t0);
    if (why !== null) throw new UnreachableError(`endpoint ${endpointName(i)} (${e.ws}): ${why}`);
  }
  // Keep a margin under the per-IP request budget: other clients on this IP may be using it too.
  const pacer = new Pacer(Math.max(1, Math.floor(env.anonBudget.points * 0.8) - 1), env.anonBudget.windowMs);
  void pacer.take(); // the discovery's getRateLimits
  const run: RunState = {
    t0,
    options: o,
    guard: new ConnectionGuard(Math.max(1, env.connectionBudget)),
    pacer,
    env,
    memo: new Map(),
  };
  const selected = selectChecks(options.checks ?? registry, options.only, options.skip);
  options.onProgress?.({ type: 'discovered', env, checks: selected.length });
  const refused = selected.length > 0 ? await keyRefusal(run) : null;
  if (refused) {
    run.keyRefused = refused.notRun;
    // Checks that use the key only when one is given run as they do without one.
    run.options = { ...o, key: null };
    options.onProgress?.({ type: 'key-refused', reason: refused.reason });
  }

  const results: CheckResult[] = [];
  let interrupted: Report['interrupted'];
  for (const [index, check] of selected.entries()) {
    if (interrupted) {
      results.push(notRun(check, interrupted.check));
      continue;
    }
    options.onProgress?.({ type: 'start', check, index, total: selected.length });
    const outcome = await runOne(run, check);
    let result = outcome.result;
    // A check that could not connect, or lost its connections, may have lost the server itself.
    const why = outcome.transportTrouble && result.status !== 'pass' ? await gone(o.ws, t0) : null;
    if (why !== null) {
      interrupted = { check: check.id, reason: why };
      result = { ...result, status: 'inconclusive', reason: `the server stopped answering during this check: ${why}` };
    }
    results.push(result);
    options.onProgress?.({ type: 'done', result, index, total: selected.length });
  }
  // Probes may still hold a connection (started for checks that were then skipped).
  await Promise.allSettled([...run.memo.values()]);
  return buildReport(run, results, interrupted, refused);
}

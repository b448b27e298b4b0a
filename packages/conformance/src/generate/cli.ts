/**
 * The command paths of `--generate` and `--replay`, with the exit codes of the command: 0 no failure
 * (FIXED for a replay), 1 a failure (STILL FAILING), 2 usage, an unreachable server, a replay that got
 * no answer (INCONCLUSIVE: no evidence either way).
 */
import { UnreachableError } from '../discover';
import { progressLine } from '../reporters/console';
import { visible } from '../reporters/visible';
import { runGenerated } from './run';
import { runReplay } from './replay';
import { budgetLine } from './pacing';
import type { CliOptions } from '../cli-args';
import type { Report } from '../model';
import type { SpecLoader } from './spec-model';

/** Where the command writes. */
export interface GenIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Run `--generate`; null when the server is unreachable or the spec cannot be read (said on io.err). */
export async function runGenerateCli(p: CliOptions, io: GenIo, loadSpec?: SpecLoader): Promise<Report | null> {
  try {
    const report = await runGenerated({
      ws: p.ws,
      http: p.http,
      key: p.key,
      spec: p.spec,
      allowOrderFlow: p.allowOrderFlow,
      only: p.only,
      skip: p.skip,
      ...(loadSpec ? { loadSpec } : {}),
      ...(p.seed !== undefined ? { seed: p.seed } : {}),
      ...(p.cases !== undefined ? { cases: p.cases } : {}),
      ...(p.durationS !== undefined ? { durationS: p.durationS } : {}),
      ...(p.replayDir !== undefined ? { replayDir: p.replayDir } : {}),
      onProgress: (e) => {
        if (e.type === 'started') {
          io.out(
            visible(
              `exchange-api conformance --generate: ${p.ws} — seed ${e.seed} (--seed ${e.seed}` +
                ` reproduces this run); spec ${e.spec}`,
            ),
          );
          if (e.pacing.length) io.out(visible(`paced under: ${e.pacing.map(budgetLine).join('; ')}`));
          for (const why of e.namesSkipped) io.out(visible(`skipped: ${why}`));
        } else io.out(progressLine(e.result, e.index, e.total));
      },
    });
    for (const why of report.generated?.replaysNotWritten ?? []) io.err(visible(`exchange-api conformance: ${why}`));
    return report;
  } catch (err) {
    const why = err instanceof UnreachableError ? `server unreachable: ${err.message}` : (err as Error).message;
    io.err(visible(`exchange-api conformance: ${why}`));
    return null;
  }
}

/** Run `--replay FILE`: prints FIXED, STILL FAILING or INCONCLUSIVE; returns the exit code. */
export async function runReplayCli(p: CliOptions, io: GenIo, loadSpec?: SpecLoader): Promise<number> {
  try {
    const r = await runReplay({
      file: p.replay!,
      ws: p.ws,
      http: p.http,
      key: p.key,
      spec: p.spec,
      allowOrderFlow: p.allowOrderFlow,
      ...(loadSpec ? { loadSpec } : {}),
    });
    const what =
      r.replay.kind === 'sequence'
        ? `sequence ${r.replay.method}, ${r.replay.sequence?.frames.length ?? 0} frames ` +
          `sent again, the last judged (${r.replay.why})`
        : `${r.replay.method} over ${r.replay.transport}, ${r.replay.expect} input ` +
          `(${r.replay.why}) ${r.replay.call.params.slice(0, 200)}`;
    const word = r.status === 'fixed' ? 'FIXED' : r.status === 'still-failing' ? 'STILL FAILING' : 'INCONCLUSIVE';
    io.out(visible(`${word}: ${what}`));
    io.out(visible(`  ${r.verdict.rule}: expected ${r.verdict.expected}; got ${r.verdict.got}`));
    return r.status === 'fixed' ? 0 : r.status === 'still-failing' ? 1 : 2;
  } catch (err) {
    const why = err instanceof UnreachableError ? `server unreachable: ${err.message}` : (err as Error).message;
    io.err(visible(`exchange-api conformance: ${why}`));
    return 2;
  }
}

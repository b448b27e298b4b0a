/**
 * runGenerated: the generated run (`exchange-api conformance --generate`). The channel address templates,
 * the invariants of what was pushed and the stateful sequences; then, for every method on each transport
 * the spec serves it on, inputs generated from its params schema. Each target is one check
 * result; the report's `generated` part counts every case by target and verdict. Reproduced by its seed.
 */
import { resolve } from 'node:path';
import { Wallet } from 'ethers';
import { UnreachableError } from '../discover';
import { Transcript } from '../transcript';
import { runChannelTargets } from './channel-target';
import { runMethodTarget } from './method-target';
import { runSequences, SEQUENCES } from './sequences';
import { SchemaSet } from './schema-set';
import { Session } from './session';
import { defaultSpecFile, type GenSpec } from './spec';
import { genSpecOf, type SpecLoader } from './spec-model';
import { readRegularFile } from '../read-regular';
import { checkReplayPlace, replayPlace } from './replay-file';
import { replayRecorder } from './replay-recorder';
import { matches } from '../select';
import { areaCounts, countResults } from '../tally';
import type { TargetEnv } from './target-env';
import { namesOf } from './names';
import type { GenerateOptions } from './model';
import type { CheckResult, Report, TargetCounts } from '../model';

/** A stable 32-bit hash of a text (FNV-1a), to give each method its own stream of the seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The spec of a run: --spec, else the default one, read through `load` (the generator's loader, which
 * the command passes in); throws an Error naming the file and why when it cannot be read. A path that is
 * not a regular file (a FIFO would block the read forever) or is too large is refused before it is read.
 */
export async function specOf(file: string | null | undefined, load: SpecLoader | undefined): Promise<GenSpec> {
  const f = file ?? defaultSpecFile();
  if (!f) throw new Error('no spec found: pass --spec <file>');
  const path = resolve(f);
  readRegularFile(path, 'the spec');
  if (!load)
    throw new Error(
      'reading a spec needs the code generator: pass loadSpec (modelFromSpec of @exchange-api/codegen), ' +
        'as the exchange-api command does',
    );
  return genSpecOf(await load(path), path);
}

/** Open the session (UnreachableError when the server cannot be reached) and build what every target shares. */
async function prepare(
  o: GenerateOptions,
  spec: GenSpec,
  seed: number,
  t0: number,
  replays: string[],
  notWritten: string[],
): Promise<TargetEnv> {
  const key = o.key ? new Wallet(o.key.startsWith('0x') ? o.key : `0x${o.key}`) : null;
  const session = new Session(spec, o.ws, o.http ?? null, key, new Transcript(t0));
  try {
    await session.open();
  } catch (err) {
    await session.close();
    throw new UnreachableError((err as Error).message);
  }
  // A server that does not answer getRateLimits is paced under the spec's budgets: its silence is no
  // failure of the run (the hand-written checks judge getRateLimits), so the error is not kept.
  await session.readBudgets().catch(() => undefined);
  const names = await namesOf(spec, session);
  return {
    spec,
    schemas: SchemaSet.of(spec.doc),
    session,
    values: { doc: spec.doc, hints: names.hints, seed },
    namesSkipped: names.skipped,
    randomCases: o.cases ?? 3,
    deadline: t0 + (o.durationS ?? 600) * 1000,
    allowOrderFlow: o.allowOrderFlow ?? false,
    http: o.http ?? null,
    shrinkCalls: o.shrinkCalls ?? 40,
    t0,
    ...replayRecorder(o, spec, seed, replays, notWritten),
  };
}

/** Run the generated cases against a server and return the report (throws UnreachableError when it cannot connect). */
export async function runGenerated(o: GenerateOptions): Promise<Report> {
  const spec = await specOf(o.spec, o.loadSpec);
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const t0 = Date.now();
  const replays: string[] = [];
  const notWritten: string[] = [];
  // Before any connection: a folder replay files cannot go to is said now, not found at the first failure.
  if (o.replayDir !== null) checkReplayPlace(replayPlace(o.replayDir));
  const env = await prepare(o, spec, seed, t0, replays, notWritten);
  const chosen = (id: string) => (!o.only?.length || matches(id, o.only)) && !(o.skip?.length && matches(id, o.skip));
  // Channels and sequences first: a few minutes at most, where the methods of a large spec paced under its
  // budgets can take longer than the default --duration; a run cut short then still reaches every region
  // but the methods' long tail, and the coverage table names that tail.
  const targets = [
    ...spec.channels.map((c) => `generated.channel.${c.id}`),
    'generated.invariants',
    ...SEQUENCES.map((s) => `generated.sequence.${s}`),
    ...spec.methods.flatMap((m) => m.transports.map((t) => `generated.${m.name}@${t}`)),
  ].filter(chosen);
  o.onProgress?.({
    type: 'started',
    seed,
    targets: targets.length,
    spec: spec.file,
    pacing: env.session.pacing(),
    namesSkipped: env.namesSkipped,
  });
  const results: CheckResult[] = [];
  const counts: TargetCounts[] = [];
  const done = (result: CheckResult, c: TargetCounts) => {
    results.push(result);
    counts.push(c);
    o.onProgress?.({ type: 'done', result, index: results.length - 1, total: targets.length });
  };
  let interrupted: Report['interrupted'];
  let current = '';
  try {
    current = 'generated.channel';
    await runChannelTargets(env, chosen, (r) => done(r.result, r.counts));
    current = 'generated.sequence';
    await runSequences(env, chosen, (r) => done(r.result, r.counts));
    // A method's transports run side by side (their budgets differ: per IP over HTTP, per wallet on the
    // logged-in WebSocket; calls that share a budget share its pacer); results are kept in spec order.
    for (const m of spec.methods) {
      const menv = { ...env, values: { ...env.values, seed: (seed ^ hash32(m.name)) >>> 0 } };
      const mine = m.transports.filter((t) => chosen(`generated.${m.name}@${t}`));
      current = `generated.${m.name}`;
      const rs = await Promise.all(mine.map((t) => runMethodTarget(menv, m, t)));
      for (const r of rs) done(r.result, r.counts);
    }
  } catch (err) {
    // A connection that can no longer be opened: the server stopped answering; the run ends here (exit 2).
    interrupted = { check: current, reason: (err as Error).message };
  } finally {
    await env.session.close();
  }
  const report = reportOf(o, spec, seed, t0, results, counts, { replays, notWritten }, Date.now() > env.deadline);
  return interrupted ? { ...report, interrupted, exitCode: 2 } : report;
}

function reportOf(
  o: GenerateOptions,
  spec: GenSpec,
  seed: number,
  t0: number,
  results: CheckResult[],
  targets: TargetCounts[],
  { replays, notWritten }: { replays: string[]; notWritten: string[] },
  late: boolean,
): Report {
  const sum = (k: 'pass' | 'fail' | 'inconclusive' | 'note' | 'notRun') => targets.reduce((n, t) => n + t[k], 0);
  const summary = countResults(results);
  return {
    format: 'exchange-api-conformance-report',
    formatVersion: 1,
    spec: { title: spec.title, version: spec.version },
    target: { ws: o.ws, http: o.http ?? null },
    startedAt: new Date(t0).toISOString(),
    durationMs: Date.now() - t0,
    exitCode: summary.failed > 0 ? 1 : 0,
    summary,
    areas: areaCounts(results),
    assumptions: [],
    checks: results,
    generated: {
      seed,
      spec: { file: spec.file, title: spec.title, version: spec.version },
      cases: targets.reduce((n, t) => n + t.valid + t.invalid, 0),
      totals: {
        pass: sum('pass'),
        fail: sum('fail'),
        inconclusive: sum('inconclusive'),
        note: sum('note'),
        notRun: sum('notRun'),
      },
      targets,
      replays,
      ...(notWritten.length ? { replaysNotWritten: notWritten } : {}),
      ...(late ? { stoppedEarly: `--duration ${o.durationS ?? 600} s passed: later cases were not run` } : {}),
    },
  };
}

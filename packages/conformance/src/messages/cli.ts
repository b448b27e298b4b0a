/**
 * The command path of a spec that speaks its own messages: `--spec FILE --ws URL` (with or without
 * `--generate`) reads the spec through the command's loader and, when the model has a wire of messages,
 * runs the message checks instead of the JSON-RPC ones; the first line says so, as the other runs' do.
 */
import { resolve } from 'node:path';
import { UnreachableError } from '../discover';
import { readRegularFile } from '../read-regular';
import { progressLine } from '../reporters/console';
import { visible } from '../reporters/visible';
import { checkReplayPlace, replayPlace } from '../generate/replay-file';
import { messageCheckIds, runMessages } from './run';
import { matches } from '../select';
import { msgRecorder } from './recorder';
import { msgSpecOf, type MsgSpec } from './wire-shape';
import type { CliOptions } from '../cli-args';
import type { Report } from '../model';
import type { SpecLoader, SpecModel } from '../generate/spec-model';

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Defaults of a message run: the bound of one reply and the window pushes are sampled over. */
const REPLY_MS = 5000;
const SAMPLE_MS = 4500;

/** A loader that reads each file once: the JSON-RPC runs read the spec again after the framing is known. */
export function onceLoader(load: SpecLoader): SpecLoader {
  const seen = new Map<string, Promise<SpecModel>>();
  return (file) => {
    let p = seen.get(file);
    if (!p) seen.set(file, (p = load(file)));
    return p;
  };
}

/** The message spec of `--spec`, or null when it speaks JSON-RPC; throws naming the file when it cannot be read. */
export async function messageSpecOf(file: string, load: SpecLoader, io: Io): Promise<MsgSpec | null> {
  const path = resolve(file);
  // A FIFO would block the read forever, and a huge file fill memory: refused before the loader reads it.
  readRegularFile(path, 'the spec');
  const model = await load(path);
  const spec = msgSpecOf(model, path);
  if (spec) for (const w of model.warnings ?? []) io.err(visible(w));
  return spec;
}

/** Flags of the JSON-RPC checks that mean nothing to a message run: refused by name. */
export function messageFlagProblem(p: CliOptions, argv: readonly string[], spec: MsgSpec): string | null {
  const used = (f: string) => argv.some((a) => a === f || a.startsWith(`${f}=`));
  const bad = ['--http', '--key', '--session-key', '--wallet', '--allow-order-flow'].find(used);
  if (bad) return `${bad} applies to the JSON-RPC interface's checks, not to a spec that speaks its own messages`;
  if (p.otherEndpoints)
    return 'several --ws URLs apply to the JSON-RPC deployment checks, not to a spec that speaks its own messages';
  return selectionProblem(p, messageCheckIds(spec, p.ws));
}

/** --only patterns that match no check of this spec, or --only/--skip that leave none, as an error line. */
function selectionProblem(p: CliOptions, ids: string[]): string | null {
  const patterns = p.only
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
  const none = patterns.filter((x) => !ids.some((id) => matches(id, [x])));
  if (none.length)
    return (
      `--only ${none.map((x) => JSON.stringify(x)).join(', ')} matches no check of this spec ` +
      `(${ids.slice(0, 6).join(', ')}${ids.length > 6 ? ', …' : ''}; or an area: messages.send, messages.receive, messages.address)`
    );
  const left = ids.filter((id) => (!p.only.length || matches(id, p.only)) && !(p.skip.length && matches(id, p.skip)));
  return left.length === 0 ? '--only and --skip leave no check to run' : null;
}

function started(p: CliOptions, spec: MsgSpec, seed: number, checks: number): string {
  const head = p.generate
    ? `exchange-api conformance --generate: ${p.ws} — seed ${seed} (--seed ${seed} reproduces this run); spec ${spec.file}`
    : `exchange-api conformance: ${p.ws} — ${checks} checks; spec ${spec.file}`;
  return visible(`${head} (its own messages: ${spec.wire.reason})`);
}

/** Run the message checks; null when the server is unreachable (said on io.err). */
export async function runMessagesCli(p: CliOptions, spec: MsgSpec, io: Io): Promise<Report | null> {
  const seed = p.seed ?? (p.generate ? Math.floor(Math.random() * 2 ** 31) : 1);
  const replays = { written: [] as string[], notWritten: [] as string[] };
  try {
    if (p.generate && p.replayDir !== null) checkReplayPlace(replayPlace(p.replayDir));
    const report = await runMessages({
      ws: p.ws,
      spec,
      replyMs: p.checkTimeoutMs ?? REPLY_MS,
      sampleWindowMs: p.sampleWindowMs ?? SAMPLE_MS,
      seed,
      randomCases: p.generate ? (p.cases ?? 3) : 0,
      shrinkCalls: p.generate ? 40 : 0,
      durationS: p.durationS ?? 600,
      only: p.only,
      skip: p.skip,
      generate: p.generate,
      replays,
      ...(p.generate ? { onFailure: msgRecorder(p, spec, seed, replays) } : {}),
      onProgress: (e) => {
        if (e.type === 'started') {
          io.out(started(p, spec, seed, e.checks));
          for (const g of e.guessed)
            io.out(visible(`the spec lists no value for the address parameter ${g}: x is used`));
        } else io.out(progressLine(e.result, e.index, e.total));
      },
    });
    for (const why of replays.notWritten) io.err(visible(`exchange-api conformance: ${why}`));
    return report;
  } catch (err) {
    const why = err instanceof UnreachableError ? `server unreachable: ${err.message}` : (err as Error).message;
    io.err(visible(`exchange-api conformance: ${why}`));
    return null;
  }
}

/**
 * The recorders of a generated run's failures: each method, channel or sequence failure written as a
 * replay file (replay-file.ts holds the format) under the run's head (seed, spec, target), so that
 * `--replay FILE` can send its frames again. Apart from the run (run.ts), which only hands them to
 * the targets.
 */
import { replayPlace, writeReplay, type ReplayFile } from './replay-file';
import type { GenSpec } from './spec';
import type { TargetEnv } from './target-env';
import type { GenerateOptions } from './model';

type Recorders = Pick<TargetEnv, 'onFailure' | 'onChannelFailure' | 'onSequenceFailure'>;

/** What a recorder says of one failure: the replay file's fields that are not the run's. */
type FailureRecord = Omit<ReplayFile, 'format' | 'formatVersion' | 'seed' | 'spec' | 'target' | 'recordedAt'>;

/**
 * Writes one failure's replay file and returns its path, or null when replayDir is null or the write
 * failed; paths go to `written`, failures to write to `notWritten`.
 */
function replayWriter(
  o: GenerateOptions,
  spec: GenSpec,
  seed: number,
  written: string[],
  notWritten: string[],
): (file: FailureRecord) => string | null {
  const place = o.replayDir === null ? null : replayPlace(o.replayDir);
  const head = {
    format: 'exchange-api-conformance-replay' as const,
    formatVersion: 1 as const,
    seed,
    spec: { file: spec.file, title: spec.title, version: spec.version },
    target: { ws: o.ws, http: o.http ?? null },
  };
  return (file) => {
    if (place === null) return null;
    try {
      const path = writeReplay(place, { ...head, ...file, recordedAt: new Date().toISOString() }, written.length + 1);
      written.push(path);
      return path;
    } catch (err) {
      // The failure still counts and is reported; only its replay file is missing, and the report says why.
      notWritten.push(`the replay file of ${file.method} (${file.transport}): ${(err as Error).message}`);
      return null;
    }
  };
}

/** Where failures are written as replay files (nowhere when replayDir is null). */
export function replayRecorder(
  o: GenerateOptions,
  spec: GenSpec,
  seed: number,
  written: string[],
  notWritten: string[],
): Recorders {
  const write = replayWriter(o, spec, seed, written, notWritten);
  const onChannelFailure: Recorders['onChannelFailure'] = (ch, expect, channel, call, original, steps) =>
    write({
      kind: 'channel',
      method: ch.id,
      transport: 'ws',
      auth: ch.access === 'private' ? 'login' : 'none',
      expect,
      why: channel.address,
      channel,
      call,
      ...(original ? { original } : {}),
      shrinkSteps: steps,
    });
  const onSequenceFailure: Recorders['onSequenceFailure'] = (name, sequence, call) =>
    write({
      kind: 'sequence',
      method: name,
      transport: 'ws',
      auth: sequence.conn === 'login' || sequence.frames.some((f) => f.login) ? 'login' : 'none',
      expect: 'valid',
      why: call.verdict.rule,
      sequence,
      call,
      shrinkSteps: 0,
    });
  const onFailure: Recorders['onFailure'] = (m, transport, c, call, original, steps) =>
    write({
      kind: 'method',
      method: m.name,
      transport,
      auth: m.auth,
      expect: c.expect,
      why: c.why,
      ...(c.offHint ? { offHint: c.offHint } : {}),
      call,
      ...(original ? { original } : {}),
      shrinkSteps: steps,
    });
  return { onFailure, onChannelFailure, onSequenceFailure };
}

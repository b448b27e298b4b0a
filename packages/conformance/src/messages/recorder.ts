/**
 * Replay files of a message run's failures (generate/replay-file.ts's format, kind `message`: `method`
 * is the operation's id), written where `--replay-dir` says, so that `--replay FILE --spec FILE` sends
 * the smallest failing message again.
 */
import { replayPlace, writeReplay } from '../generate/replay-file';
import type { CliOptions } from '../cli-args';
import type { MsgFailure } from './env';
import type { MsgSpec } from './wire-shape';

export function msgRecorder(
  p: CliOptions,
  spec: MsgSpec,
  seed: number,
  replays: { written: string[]; notWritten: string[] },
): (f: MsgFailure) => string | null {
  const place = replayPlace(p.replayDir);
  return (f) => {
    try {
      const path = writeReplay(
        place,
        {
          format: 'exchange-api-conformance-replay',
          formatVersion: 1,
          seed,
          spec: { file: spec.file, title: spec.title, version: spec.version },
          target: { ws: p.ws, http: null },
          kind: 'message',
          method: f.op.id,
          transport: 'ws',
          auth: 'none',
          expect: f.c.expect,
          why: f.c.why,
          call: f.call,
          ...(f.original ? { original: f.original } : {}),
          shrinkSteps: f.shrinkSteps,
          recordedAt: new Date().toISOString(),
        },
        replays.written.length + 1,
      );
      replays.written.push(path);
      return path;
    } catch (err) {
      replays.notWritten.push(`the replay file of ${f.op.id}: ${(err as Error).message}`);
      return null;
    }
  };
}

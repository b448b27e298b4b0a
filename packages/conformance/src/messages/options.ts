/** The options of a message run (run.ts) and its progress events. */
import type { CheckResult } from '../model';
import type { MsgFailure } from './env';
import type { MsgSpec } from './wire-shape';

export interface MessageRunOptions {
  ws: string;
  spec: MsgSpec;
  /** The bound of one reply, ms. */
  replyMs: number;
  sampleWindowMs: number;
  seed: number;
  randomCases: number;
  shrinkCalls: number;
  durationS: number;
  only: string[];
  skip: string[];
  /** `--generate`: the report carries the generated summary (seed, counts, replays). */
  generate: boolean;
  /** Where a failure goes (a replay file); returns its path, or null. */
  onFailure?: (f: MsgFailure) => string | null;
  /** The replay files written (and those that could not be), for the report. */
  replays?: { written: string[]; notWritten: string[] };
  onProgress?: (e: MessageProgress) => void;
}

export type MessageProgress =
  | { type: 'started'; checks: number; addresses: string[]; guessed: string[] }
  | { type: 'done'; result: CheckResult; index: number; total: number };

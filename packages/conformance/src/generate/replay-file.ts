/**
 * Replay files: one per failure of a generated run, with the seed, the case (method, transport, what the
 * spec says of the input), the frames sent and received (the smallest failing input's, and the original
 * one's when shrinking found a smaller one) and the verdict; for a sequence, every frame up to the failing
 * step. `--replay FILE` sends the frames again.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict } from './verdict';

/** One failing call as recorded. */
export interface ReplayCall {
  params: string;
  sent: string;
  received: string[];
  verdict: Verdict;
}

/** One frame of a sequence, in the order sent. */
export interface SequenceFrame {
  sent: string;
  received: string[];
  /** A login: signed again by the replaying wallet, with a fresh timestamp. */
  login?: true;
  /** A signed action: signed again from these fields (a fresh nonce; the replaying wallet and subaccount). */
  signed?: { action: string; fields: Record<string, unknown>; instrument?: Record<string, string> };
}

/** How the last answer of a replayed sequence is judged (the rule of the step that failed). */
export type SequenceJudge =
  | { kind: 'refused' }
  | { kind: 'served' }
  | { kind: 'subscriptions'; expected: string[] }
  | { kind: 'pushes'; subscribed: string[] };

/** A sequence's frames up to its failing step, on which connection, and the names the run used. */
export interface SequenceRecord {
  /** A connection of its own (`fresh`), or the run's logged-in one (`login`). */
  conn: 'fresh' | 'login';
  frames: SequenceFrame[];
  judge: SequenceJudge;
  /** The run's wallet and subaccounts: replaced by the replaying session's in the frames sent again. */
  wallet: string | null;
  subaccounts: number[];
}

/** The content of a replay file (format version 1). */
export interface ReplayFile {
  format: 'exchange-api-conformance-replay';
  formatVersion: 1;
  seed: number;
  spec: { file: string; title: string; version: string };
  target: { ws: string; http: string | null };
  kind: 'method' | 'channel' | 'sequence';
  method: string;
  transport: 'ws' | 'http';
  auth: 'none' | 'login';
  expect: 'valid' | 'invalid';
  why: string;
  /**
   * For a channel: the address the failure is about, (for an invalid one) the valid address sent with it,
   * (for a push) every address subscribed with it: the smallest set that still failed.
   */
  channel?: { address: string; valid?: string; subscribed?: string[] };
  /** For a sequence: its frames, re-sent in order; the last one's answer is judged. */
  sequence?: SequenceRecord;
  /** The member set to a value the server did not list (judged as a note when refused as invalid params). */
  offHint?: string;
  /** The smallest input that still failed (the original when shrinking found none smaller). */
  call: ReplayCall;
  /** The input as generated, when shrinking changed it. */
  original?: ReplayCall;
  shrinkSteps: number;
  recordedAt: string;
}

/** A file name for a failure: the method, the transport and a counter, safe on every file system. */
function fileName(r: ReplayFile, n: number): string {
  const base = `${r.method}-${r.transport}`.replace(/[^A-Za-z0-9_.-]+/g, '_');
  return `${String(n).padStart(3, '0')}-${base}.json`;
}

/** Write one replay file into `dir` (made when missing); returns its path. */
export function writeReplay(dir: string, r: ReplayFile, n: number): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, fileName(r, n));
  writeFileSync(path, `${JSON.stringify(r, null, 2)}\n`);
  return path;
}

/** Read a replay file; throws an Error saying what is wrong with it. */
export function readReplay(path: string): ReplayFile {
  let r: unknown;
  try {
    r = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the replay file ${path}: ${(err as Error).message}`, { cause: err });
  }
  const f = r as Partial<ReplayFile>;
  if (
    f.format !== 'exchange-api-conformance-replay' ||
    f.formatVersion !== 1 ||
    !f.call ||
    typeof f.method !== 'string'
  )
    throw new Error(`${path} is not a replay file of format version 1 (exchange-api-conformance-replay)`);
  return f as ReplayFile;
}

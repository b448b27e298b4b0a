/**
 * Replay files: one per failure of a generated run, with the seed, the case (method, transport, what the
 * spec says of the input), the frames sent and received (the smallest failing input's, and the original
 * one's when shrinking found a smaller one) and the verdict; for a sequence, every frame up to the failing
 * step. `--replay FILE` sends the frames again.
 */
import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createInside, makeFolder, refuseLinks } from '@exchange-api/types/write-inside';
import { readRegularFile } from '../read-regular';
import { assertReplayFile } from './replay-schema';
import { ruleIdOf } from './rules';
import type { Judgement } from '../model';

/** One failing call as recorded. */
export interface ReplayCall {
  params: string;
  sent: string;
  received: string[];
  verdict: Judgement;
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
  /** `message`: an operation of a spec that speaks its own messages (messages/; `method` is its id). */
  kind: 'method' | 'channel' | 'sequence' | 'message';
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

/**
 * Where replay files go: below `root`, in `sub` ('' for a folder the user named, which may itself be a
 * link the user chose; the default folder below the working one, which is checked like every file in it).
 */
export interface ReplayPlace {
  root: string;
  sub: string;
  /** The folder as the user named it (or the default), for messages. */
  shown: string;
}

/** The place of `--replay-dir` (undefined: the default `./conformance-replays`). */
export function replayPlace(dir: string | undefined): ReplayPlace {
  if (dir === undefined) return { root: resolve('.'), sub: 'conformance-replays', shown: './conformance-replays' };
  return { root: resolve(dir), sub: '', shown: dir };
}

const inPlace = (p: ReplayPlace, name: string) => (p.sub ? `${p.sub}/${name}` : name);

/** Make the folder of a place (one level at a time: Node's recursive mkdir loops forever under /proc). */
function makePlace(p: ReplayPlace): void {
  makeFolder(p.root);
  if (p.sub) refuseLinks(p.root, p.shown, [p.sub]);
}

/**
 * Check before a run that replay files can be written there: the folder is made (or found a folder, not a
 * file or a link the user did not name) and a file is created in it and removed; a folder it made for the
 * check alone is removed again. Throws an Error naming the folder and why.
 */
export function checkReplayPlace(p: ReplayPlace): void {
  const folder = join(p.root, p.sub);
  const existed = lstatSync(folder, { throwIfNoEntry: false }) !== undefined;
  const probe = inPlace(p, `.write-check-${randomBytes(6).toString('hex')}`);
  try {
    makePlace(p);
    if (!createInside(p.root, p.shown, probe, '')) throw new Error('a file of that name is already there');
    unlinkSync(join(p.root, probe));
  } catch (err) {
    throw new Error(`replay files cannot be written to ${p.shown}: ${(err as Error).message}`, { cause: err });
  }
  // Only the one folder it made and found empty: nothing else is removed.
  if (!existed) rmdirSync(folder);
}

/**
 * Write one replay file into the place (made when missing); returns its path. Never through a symbolic
 * link and never over a file already there (an earlier run's): the next free number is taken instead.
 * Throws WriteRefused (one line) when it cannot be written.
 */
export function writeReplay(p: ReplayPlace, r: ReplayFile, n: number): string {
  makePlace(p);
  const text = `${JSON.stringify(r, null, 2)}\n`;
  for (let k = n; k < n + 10_000; k++) {
    const path = inPlace(p, fileName(r, k));
    if (createInside(p.root, p.shown, path, text)) return join(p.root, path);
  }
  throw new Error(`${p.shown} holds replay files numbered ${n} to ${n + 9_999} already: choose another folder`);
}

/**
 * Read a replay file through its schema (replay-schema.ts); throws an Error naming the file and what is
 * wrong with it. A file written before rule ids were recorded gets the id its rule's words name.
 */
export function readReplay(path: string): ReplayFile {
  const text = readRegularFile(path, 'the replay file');
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch (err) {
    throw new Error(`cannot read the replay file ${path}: ${(err as Error).message}`, { cause: err });
  }
  assertReplayFile(path, r);
  const f = r as ReplayFile;
  for (const c of [f.call, f.original])
    if (c && c.verdict.ruleId === undefined) c.verdict.ruleId = ruleIdOf(c.verdict.rule);
  return f;
}

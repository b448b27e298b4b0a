/** The shapes the runner, the checks and the reporters share. */

/** How binding a rule is: MUST (the document states it) or SHOULD (soft wording, or our assumption). */
export type Level = 'MUST' | 'SHOULD';
/** What a check needs besides a WebSocket URL (`endpoints`: two or more endpoints of one deployment). */
export type Need = 'key' | 'http' | 'order-flow' | 'session-key' | 'endpoints';
/**
 * How a judgement ended, for a whole check and for one generated case alike: `inconclusive` is no
 * evidence either way; `note` is a departure where the spec only assumes (a case's, counted and listed
 * among the observations: a check is never a note).
 */
export type Status = 'pass' | 'fail' | 'skip' | 'inconclusive' | 'note';
/** How a check ended. */
export type CheckStatus = Exclude<Status, 'note'>;

/** One exact reason a check failed: where, which rule, what was expected and what came. */
export interface Finding {
  /** JSON pointer into the value named in `message` ('/' for the whole value, '' when not about a value). */
  pointer: string;
  /**
   * The rule's stable id, where the check names one (every generated check does: generate/rules.ts). A
   * failure is the same failure when its id is, whatever its words: shrinking and replay files go by it.
   */
  ruleId?: string;
  /** The rule in words. */
  rule: string;
  expected: string;
  got: string;
  message: string;
}

/** How one rule applied once ended: a case is judged, never skipped. */
export type JudgementStatus = Exclude<Status, 'skip'>;

/**
 * One rule applied once, however it ended: a generated case's judgement (a pass or a note says what it
 * saw too). A failed one becomes a Finding with a pointer and a message.
 */
export type Judgement = Required<Pick<Finding, 'ruleId'>> &
  Pick<Finding, 'rule' | 'expected' | 'got'> & { status: JudgementStatus };

/** Something the runner saw and reports without judging it: an assumption's outcome or an inferred schema. */
export interface Observation {
  /** The spec assumption (assumptionTable id) this observation is about, when it is about one. */
  assumption?: string;
  text: string;
  /** Whether the server did what the assumption chose (undefined when the question does not apply). */
  conforms?: boolean;
  /** A JSON Schema inferred from samples (for payloads the document leaves open). */
  schema?: unknown;
}

/** One frame or event of a check's exchange with the server. `t` is milliseconds since the run started. */
export interface TranscriptEntry {
  t: number;
  conn: string;
  dir: 'sent' | 'received' | 'event';
  data: string;
}

/** The outcome of one check, as reported. */
export interface CheckResult {
  id: string;
  area: string;
  title: string;
  section: string;
  level: Level;
  needs: Need[];
  status: CheckStatus;
  /** Why it was skipped or inconclusive, or a one-line summary of the failure. */
  reason?: string;
  durationMs: number;
  findings: Finding[];
  observations: Observation[];
  transcript: TranscriptEntry[];
}

/** One endpoint of a deployment: its WebSocket URL and its HTTP base (null when none was given). */
export interface Endpoint {
  ws: string;
  http: string | null;
}

/** Counts of outcomes. */
export interface Counts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  inconclusive: number;
}

/** The whole report: stable, documented shape (format version 1; see the package README). */
export interface Report {
  format: 'exchange-api-conformance-report';
  formatVersion: 1;
  spec: { title: string; version: string };
  /**
   * The first endpoint (every check but the deployment ones runs there); `endpoints` lists all when there are two or
   * more.
   */
  target: { ws: string; http: string | null; endpoints?: Endpoint[] };
  startedAt: string;
  durationMs: number;
  /** 0 when no check failed, 1 when any failed, 2 when the server stopped answering or refused the runner's wallet. */
  exitCode: 0 | 1 | 2;
  summary: Counts;
  areas: (Counts & { area: string })[];
  /**
   * Present when the server stopped answering: during which check, and what the runner saw; later checks were not run.
   */
  interrupted?: { check: string; reason: string };
  /**
   * Present when the server refused the runner's own wallet (--key) at login: the checks that need a login were not
   * run.
   */
  keyRefused?: { wallet: string; error: { code: number; message: string; data?: unknown }; reason: string };
  /** Every spec assumption, with what the server did there. */
  assumptions: {
    id: string;
    title: string;
    choice: string;
    observations: { check: string; text: string; conforms?: boolean }[];
  }[];
  checks: CheckResult[];
  /** Present after `--generate`: the seed, and each generated case counted by method and verdict. */
  generated?: GeneratedSummary;
}

/** The counts of one method on one transport (or one channel template, one invariant, one sequence). */
export interface TargetCounts {
  /** The id of the check result it belongs to (`generated.<method>@<transport>`, `generated.channel.<id>`, …). */
  id: string;
  target: string;
  kind: 'method' | 'channel' | 'invariant' | 'sequence';
  transport: 'ws' | 'http' | null;
  valid: number;
  invalid: number;
  pass: number;
  fail: number;
  inconclusive: number;
  note: number;
  notRun: number;
  skipped?: string;
  /** The coverage of this target by input class (generate/coverage.ts): what ran, and what was not reached and why. */
  classes?: ClassCount[];
}

/** One row of the coverage table: a target's cases of one input class (or one channel address). */
export interface ClassCount {
  cls: string;
  /** The cases of this class that were generated. */
  cases: number;
  run: number;
  pass: number;
  fail: number;
  /** Why some or all of its cases were not run (needs order flow, a login, the duration, not served). */
  notReached?: string;
}

/** The generated part of a report. */
export interface GeneratedSummary {
  seed: number;
  spec: { file: string; title: string; version: string };
  cases: number;
  totals: { pass: number; fail: number; inconclusive: number; note: number; notRun: number };
  targets: TargetCounts[];
  /** Replay files written, one per failure. */
  replays: string[];
  /** Failures whose replay file could not be written, each with why (the failures still count). */
  replaysNotWritten?: string[];
  /** Why the run stopped starting cases early, when it did. */
  stoppedEarly?: string;
}

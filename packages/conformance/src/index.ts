/**
 * @exchange-api/conformance: point it at a server and learn, rule by rule, where it departs from the
 * Exchange Streaming and Request API v3. `runConformance(options)` returns a Report; the reporters turn
 * it into console text, JSON, JUnit XML or one HTML page; `registry` lists every check.
 */
export { runConformance, resolveOptions, UnreachableError, type RunOptions, type ProgressEvent } from './runner';
export { registry } from './checks';
export type { Check, Ctx, Env } from './context';
export type {
  Report,
  CheckResult,
  Finding,
  Observation,
  TranscriptEntry,
  Level,
  Need,
  Status,
  CheckStatus,
  Judgement,
  JudgementStatus,
  Counts,
} from './model';
export { consoleReport, progressLine } from './reporters/console';
export { jsonReport } from './reporters/json';
export { junitReport } from './reporters/junit';
export { htmlReport } from './reporters/html';
export { parseCli, runCli, usage as cliUsage, type CliOptions } from './cli';
export { reportPathProblem } from './report-path';
export { matches as matchesPattern } from './select';
export { inferSchema } from './infer';
export { runGenerated } from './generate/run';
export { runReplay, type ReplayOptions, type ReplayOutcome } from './generate/replay';
export type { GenerateOptions, GenerateProgress } from './generate/model';
export type { SpecLoader, SpecModel } from './generate/spec-model';
export type { ReplayFile, ReplayCall } from './generate/replay-file';
export type { GeneratedSummary, TargetCounts } from './model';
export { runMessages, messageCheckIds } from './messages/run';
export type { MessageRunOptions, MessageProgress } from './messages/options';
export { msgSpecOf, type MsgSpec, type WireShape } from './messages/wire-shape';

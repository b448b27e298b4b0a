/** The options of a generated run (its counts, GeneratedSummary, are in ../model.ts with the report). */
import type { CheckResult } from '../model';
import type { PaceBudget } from './pacing';
import type { SpecLoader } from './spec-model';

/** Progress of a generated run: one event per method, channel, invariant or sequence done. */
export type GenerateProgress =
  | {
      type: 'started';
      seed: number;
      targets: number;
      spec: string;
      /** The budgets calls are paced under (the server's where its getRateLimits said). */
      pacing: PaceBudget[];
      /** Why the names the server knows (instruments, currencies, subaccounts) were not asked, part by part. */
      namesSkipped: string[];
    }
  | { type: 'done'; result: CheckResult; index: number; total: number };

/** Options of a generated run (`exchange-api conformance --generate`). */
export interface GenerateOptions {
  ws: string;
  http?: string | null;
  key?: string | null;
  /** The spec to generate from (default: the clone's spec/asyncapi.yaml, else the one @exchange-api/types ships). */
  spec?: string | null;
  /** The seed; a run is reproduced exactly by it (default: a random one, reported). */
  seed?: number;
  /** Random valid inputs per method and transport, besides the edges (default 3). */
  cases?: number;
  /** Stop starting cases after this many seconds (default 600); what was not run is counted. */
  durationS?: number;
  /** Only targets whose id matches (`generated.<method>@<transport>`, `generated.channel.<id>`, …; globs). */
  only?: string[];
  /** Leave out targets whose id matches. */
  skip?: string[];
  /** Allow order-flow methods (never called without it). */
  allowOrderFlow?: boolean;
  /** Where replay files of failures go (default ./conformance-replays; null: none written). */
  replayDir?: string | null;
  /** How many calls shrinking one failure may make (default 40; 0: no shrinking). */
  shrinkCalls?: number;
  onProgress?: (event: GenerateProgress) => void;
  /** Reads the spec into the generator's model (the command passes modelFromSpec of @exchange-api/codegen). */
  loadSpec?: SpecLoader;
}

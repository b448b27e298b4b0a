/**
 * `exchange-api diff`: two specs through the same loader and model as `generate`, compared model to
 * model (channels, methods, schemas, root tables) and, for what the model does not hold, through
 * @asyncapi/diff's raw list; every change classified for clients and for servers.
 */
import { resolve } from 'node:path';
import { withCheckedSpec } from '../load/load-spec';
import { modelOfSpec } from '../model/checked-model';
import type { ApiModel } from '../model/types';
import type { Change } from './change';
import { compareChannels } from './compare-channels';
import { compareMethods } from './compare-methods';
import { compareTypes } from './compare-types';
import { compareTables } from './compare-tables';
import { rawChanges, unmodelled, type RawChange } from './raw';

/** The comparison of two specs. */
export interface SpecDiff {
  before: { file: string; title: string; version: string };
  after: { file: string; title: string; version: string };
  changes: Change[];
  /** @asyncapi/diff's list, as it gave it (its verdicts are by JSON path only). */
  raw: RawChange[];
}

/** Every change between two models, in a stable order: the API's surface first, then schemas, then the tables. */
export function diffModels(before: ApiModel, after: ApiModel): Change[] {
  return [
    ...compareChannels(before, after),
    ...compareMethods(before, after),
    ...compareTypes(before, after),
    ...compareTables(before, after),
  ];
}

/**
 * Load both specs (each checked as `generate` checks it; a SpecError names file, line and pointer) and compare them.
 */
export async function diffSpecFiles(
  beforeFile: string,
  afterFile: string,
  options: { cwd?: string } = {},
): Promise<SpecDiff> {
  const cwd = options.cwd ?? process.cwd();
  const read = (file: string) =>
    withCheckedSpec(file, { cwd }, (spec) => ({ model: modelOfSpec(spec), data: spec.data }));
  const [a, b] = await Promise.all([read(beforeFile), read(afterFile)]);
  const raw = rawChanges(a.data, b.data);
  const modelled = diffModels(a.model, b.model);
  return {
    before: { file: resolve(cwd, beforeFile), title: a.model.title, version: a.model.version },
    after: { file: resolve(cwd, afterFile), title: b.model.title, version: b.model.version },
    changes: [...modelled, ...unmodelled(raw, a.data, b.data, { changes: modelled, models: [a.model, b.model] })],
    raw,
  };
}

/** The model of a spec with its examples checked: what `generate` emits from and `diff` compares. */
import type { LoadedSpec } from '../load/load-spec';
import { buildModel } from './build-model';
import { checkExamples } from './check-examples';
import type { ApiModel } from './types';

/** The model of a spec, its examples checked against it. */
export function modelOfSpec(spec: LoadedSpec): ApiModel {
  const model = buildModel(spec);
  checkExamples(spec, model);
  return model;
}

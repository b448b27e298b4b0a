/** The model of a spec with its examples checked: what `generate` emits from and `diff` compares. */
import { placedError, type LoadedSpec } from '../load/load-spec';
import { SpecError, type SpecProblem } from '../load/spec-error';
import { buildModel } from './build-model';
import { checkExamples } from './check-examples';
import type { ApiModel } from './types';
import { refuseNameClashes } from './unique-names';

/**
 * The model of a spec, its names checked apart (unique-names.ts) and its examples against it. With
 * `lenient`, an example that does not fit its schema is no error: its warning (placed in the file it
 * comes from) is pushed to `lenient.warnings`.
 */
export function modelOfSpec(spec: LoadedSpec, lenient?: { warnings: SpecProblem[] }): ApiModel {
  const model = buildModel(spec);
  refuseNameClashes(spec, model);
  const warnings = checkExamples(spec, model, { strict: lenient === undefined });
  // Placed as an error of a bundled spec is: in the file the example comes from.
  if (lenient && warnings.length > 0)
    lenient.warnings.push(...(placedError(new SpecError(warnings), spec) as SpecError).problems);
  return model;
}

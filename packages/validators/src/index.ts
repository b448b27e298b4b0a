/**
 * Validators generated from the spec (ajv standalone: nothing is compiled at run time) and a small API
 * over them: `assertValid`, `failuresOf`, typed guards and validator maps by schema, channel and method.
 */
import type { ValidateFunction } from './generated/validators.gen.js';
import {
  schemasValidators,
  channelsValidators,
  paramsValidators,
  resultsValidators,
  assumedParamsValidators,
  assumedResultsValidators,
  is,
} from './generated/guards.gen';
import { failuresOf } from './failures';
import { ValidationError } from './validation-error';

export type { ValidateFunction } from './generated/validators.gen.js';
export { failuresOf, formatFailures, cut, type Failure } from './failures';
export { ValidationError } from './validation-error';
export { is };

/** Every validator, grouped: by schema name, channel id, and method name (params and result). */
export const validators = {
  schemas: schemasValidators,
  channels: channelsValidators,
  params: paramsValidators,
  results: resultsValidators,
  assumedParams: assumedParamsValidators,
  assumedResults: assumedResultsValidators,
} as const;

/** Throws a ValidationError naming each failure unless the data is valid; narrows the type when it is. */
export function assertValid<T>(validate: ValidateFunction<T>, data: unknown, target = 'value'): asserts data is T {
  const failures = failuresOf(validate as ValidateFunction, data);
  if (failures.length > 0) throw new ValidationError(target, failures);
}

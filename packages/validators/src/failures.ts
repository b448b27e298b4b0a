import type { ValidateFunction } from '../src/generated/validators.gen.js';

/** One reason a value failed: where (JSON pointer), which rule, and the offending value, cut short. */
export interface Failure {
  pointer: string;
  rule: string;
  message: string;
  value: string;
}

const MAX_VALUE = 60;

/** The value at a JSON pointer, for the report. */
function at(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function cut(value: unknown, max = MAX_VALUE): string {
  let s: string;
  try {
    s = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    s = String(value);
  }
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

/** The failures of one validation, empty when the data is valid. */
export function failuresOf(validate: ValidateFunction, data: unknown): Failure[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? String(e.params.missingProperty ?? '') : '';
    const pointer = missing ? `${e.instancePath}/${missing}` : e.instancePath;
    const detail =
      e.keyword === 'pattern'
        ? ` ${e.params.pattern}`
        : e.keyword === 'enum'
          ? ` ${cut(e.params.allowedValues, 120)}`
          : e.keyword === 'type'
            ? ` ${e.params.type}`
            : '';
    return {
      pointer: pointer === '' ? '/' : pointer,
      rule: `${e.keyword}${detail}`,
      message: e.message ?? e.keyword,
      value: missing ? '(missing)' : cut(at(data, e.instancePath)),
    };
  });
}

export function formatFailures(failures: Failure[]): string {
  return failures.map((f) => `  ${f.pointer}: ${f.rule} (got ${f.value})`).join('\n');
}

/** The hint follows the table's template, not a copy of its wording: a changed template is read in the changed form. */
import { describe, expect, it, vi } from 'vitest';

vi.mock('../src/generated/tables.gen', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/generated/tables.gen')>();
  const codes = real.errorTable.codes.map((c) =>
    c.kind === 'rate-limit'
      ? {
          ...c,
          data: 'Wait <ms> milliseconds (then retry)',
          dataPattern: '^Wait [0-9]+ milliseconds \\(then retry\\)$',
        }
      : c,
  );
  return { ...real, errorTable: { ...real.errorTable, codes } };
});

const { formatRetryHint, parseRetryHint } = await import('../src/errors');

describe('retry hint from the error table', () => {
  it('follows the table’s data template', () => {
    expect(formatRetryHint(321)).toBe('Wait 321 milliseconds (then retry)');
    expect(parseRetryHint('Wait 321 milliseconds (then retry)')).toBe(321);
    expect(parseRetryHint('Retry after 5 ms')).toBeNull();
  });
});

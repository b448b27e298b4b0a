/**
 * The retry hint is read with the error table's own template, not a copy of it: with the table's
 * rate-limit `data` template changed, the client reads the changed wording (and not the old one).
 */
import { describe, expect, it, vi } from 'vitest';

// The generated module itself, so the table's readers in @exchange-api/types see the change too.
vi.mock('../../types/src/generated/tables.gen', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../types/src/generated/tables.gen')>();
  const codes = real.errorTable.codes.map((c) =>
    c.code === -32000
      ? {
          ...c,
          data: 'Wait <ms> milliseconds (then retry)',
          dataPattern: '^Wait [0-9]+ milliseconds \\(then retry\\)$',
        }
      : c,
  );
  return { ...real, errorTable: { ...real.errorTable, codes } };
});

const { rpcErrorFromCode } = await import('../src/exchange');
const { RateLimitError } = await import('../src/errors');

describe('retry hint from the error table', () => {
  it('follows the table’s data template', () => {
    const e = rpcErrorFromCode({
      code: -32000,
      message: 'Rate limit exceeded',
      data: 'Wait 321 milliseconds (then retry)',
    });
    expect(e).toBeInstanceOf(RateLimitError);
    expect((e as InstanceType<typeof RateLimitError>).retryAfterMs).toBe(321);
    expect(
      (
        rpcErrorFromCode({ code: -32000, message: 'Rate limit exceeded', data: 'Retry after 5 ms' }) as InstanceType<
          typeof RateLimitError
        >
      ).retryAfterMs,
    ).toBeNull();
  });
});

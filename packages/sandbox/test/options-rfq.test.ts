/** The `rfq` options: defaults, and a bad one refused by its key. */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../src/options';

describe('rfq options', () => {
  it('fills in the defaults and refuses a bad key or value by name', () => {
    expect(resolveOptions({}).rfq).toEqual({
      lifetimeMs: 600_000,
      maker: { enabled: true, delayMs: 0, minEdgeBps: 2, maxEdgeBps: 20 },
    });
    expect(resolveOptions({ rfq: { maker: { minEdgeBps: 30 } } }).rfq.maker.maxEdgeBps).toBe(30);
    expect(() => resolveOptions({ rfq: { lifetime: 5 } })).toThrow(/rfq\.lifetime: unknown key/);
    expect(() => resolveOptions({ rfq: { maker: { enabled: 'yes' } } })).toThrow(
      /rfq\.maker\.enabled: must be a boolean/,
    );
    expect(() => resolveOptions({ rfq: { maker: { minEdgeBps: 10, maxEdgeBps: 5 } } })).toThrow(
      /rfq\.maker\.maxEdgeBps: must be at least minEdgeBps 10/,
    );
    expect(() => resolveOptions({ rfq: { lifetimeMs: 10 } })).toThrow(/rfq\.lifetimeMs: must be at least 1000/);
  });
});

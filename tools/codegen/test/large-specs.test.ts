/**
 * Large and hostile specs (issue 23 item 11): the size and depth limits checked before the parser
 * runs (load/spec-limits.ts), the parser's time bound, the `$ref` walks that once took the square of a
 * chain's length, a stack overflow turned into an error naming the spec, and ajv's standalone module
 * built in linear time (emit/ajv-standalone.ts). Each hostile spec is made here, just over its limit;
 * each bound is proved with a small bound, not by waiting for the real one.
 */
import { describe, expect, it } from 'vitest';
import ajvStandalone from 'ajv/dist/standalone/index.js';
import { loadSpec, SpecError } from '../src/index';
import { withCheckedSpec } from '../src/load/load-spec';
import { ParseTooSlow, parseBounded } from '../src/load/parse-bounded';
import { findRefCycles, longestRefChain } from '../src/load/ref-cycles';
import { limitProblems, SPEC_LIMITS, treeFacts } from '../src/load/spec-limits';
import { YamlSource } from '../src/load/yaml-source';
import { standaloneCode } from '../src/emit/ajv-standalone';
import { schemaAjv } from '../src/model/schema-ajv';
import { deepSpec, enumSpec, flatSpec, refChainSpec } from './large-spec';
import { writeSpec } from './helpers';
import { runMain } from '../../../test/support/run-main';

/** The SpecError a spec file is refused with (fails the test if it loads). */
async function refusal(text: string, name: string): Promise<SpecError> {
  const file = writeSpec(text, name);
  const err = await loadSpec(file).then(
    () => new Error('the spec loaded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SpecError);
  return err as SpecError;
}

/** The limit problems of a spec's text, with the given limits. */
const problemsOf = (text: string, limits = SPEC_LIMITS) =>
  limitProblems(YamlSource.fromText(text, 'x.json').data, { file: 'x.json', lineOf: () => undefined }, limits);

describe('each limit refuses a spec just over it, before the parser runs, naming file, pointer and limit', () => {
  it.each([
    // deepSpec(n) nests 2n + 4 levels: 49 objects are 102 levels.
    ['nesting depth', () => deepSpec(49), /^#\/components\/schemas\/Deep(\/properties\/child){49}$/, /at most 100/],
    // refChainSpec(n) chains n + 2 $refs (operation → channel → payload → S0 → … → Sn).
    ['$ref chain', () => refChainSpec(63), /^#\/operations\/onThings\/channel\/\$ref$/, /65 \$refs .*at most 64/],
    ['enum size', () => enumSpec(10_001), /^#\/components\/schemas\/Big\/enum$/, /10001 values; .*at most 10000/],
    // flatSpec(n) has 3n + 1 schemas.
    ['schema count', () => flatSpec(6667), /^#\/components\/schemas$/, /20002 schemas .*at most 20000/],
  ])('%s', async (_what, make, pointer, message) => {
    const err = await refusal(make(), 'large.asyncapi.json');
    expect(err.problems).toHaveLength(1);
    const [p] = err.problems;
    expect(p!.file).toMatch(/large\.asyncapi\.json$/);
    expect(p!.pointer).toMatch(pointer);
    expect(p!.message).toMatch(message);
    expect(p!.message).toContain('docs/generating.md, "Limits"');
  });

  it('a spec at each limit passes them', () => {
    expect(problemsOf(deepSpec(48))).toEqual([]);
    expect(problemsOf(refChainSpec(62))).toEqual([]);
    expect(problemsOf(enumSpec(10_000))).toEqual([]);
    expect(treeFacts(YamlSource.fromText(flatSpec(6666), 'x').data).schemas).toBe(19_999);
  });

  it('counts exactly, with a small limit of each kind: one over is refused, at the limit passes', () => {
    const only = (limit: Partial<typeof SPEC_LIMITS>) => ({ ...SPEC_LIMITS, ...limit });
    expect(problemsOf(deepSpec(50), only({ depth: 104 }))).toEqual([]);
    expect(problemsOf(deepSpec(50), only({ depth: 103 }))).toHaveLength(1);
    expect(problemsOf(refChainSpec(10), only({ refChain: 12 }))).toEqual([]);
    expect(problemsOf(refChainSpec(11), only({ refChain: 12 }))).toHaveLength(1);
    expect(problemsOf(enumSpec(5), only({ enumValues: 5 }))).toEqual([]);
    expect(problemsOf(enumSpec(6), only({ enumValues: 5 }))).toHaveLength(1);
    expect(problemsOf(flatSpec(3), only({ schemas: 10 }))).toEqual([]);
    expect(problemsOf(flatSpec(4), only({ schemas: 10 }))).toHaveLength(1);
  });

  it('a spec nested too deeply for the YAML reader itself is one error, not a stack trace', () => {
    const text = `asyncapi: 3.0.0\nx: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`;
    expect(() => YamlSource.fromText(text, 'deep.yaml')).toThrow(/nests too deeply to read/);
  });
});

describe('long $ref chains cost time in proportion to their length', () => {
  // Before, the cycle check followed each $ref to the end of the chain, recursively (the square of its
  // length: minutes for 3,000; a stack overflow at 10,000); now each $ref is walked once, with its own stack.
  it('the cycle check and the chain length on a 10,000-long chain', { timeout: 60_000 }, () => {
    const data: unknown = JSON.parse(refChainSpec(10_000));
    expect(findRefCycles(data)).toEqual([]);
    expect(longestRefChain(data).length).toBe(10_002);
  });

  it('still finds a cycle at the end of a long chain', () => {
    const data = JSON.parse(refChainSpec(5000)) as { components: { schemas: Record<string, unknown> } };
    data.components.schemas.S5000 = { $ref: '#/components/schemas/S4999' };
    const cycles = findRefCycles(data);
    expect(cycles.map((c) => c.pointers)).toEqual([
      ['#/components/schemas/S4999/$ref', '#/components/schemas/S5000/$ref', '#/components/schemas/S4999/$ref'],
    ]);
  });
});

describe('the parser is stopped at its bound', () => {
  it('with a one-line error naming the file and the time', async () => {
    // A 60-link chain takes the parser far longer than 20 ms: the bound stops it.
    const file = writeSpec(refChainSpec(60), 'slow.asyncapi.json');
    const started = Date.now();
    const err = await loadSpec(file, { parseBoundMs: 20, parseCache: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    const [p] = (err as SpecError).problems;
    expect(p!.message).toMatch(
      /^spec too slow to parse: stopped after [0-9.]+ s of CPU time \(.*slow\.asyncapi\.json\); the bound is 0\.02 s$/,
    );
    expect(p!.message).not.toContain('\n');
    // Stopped, not waited for: far less than a parse of this spec on a loaded machine.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('rejects with ParseTooSlow, and the next parse gets a fresh worker that answers', async () => {
    const text = refChainSpec(60);
    await expect(parseBounded(text, 'x.json', 10)).rejects.toBeInstanceOf(ParseTooSlow);
    await expect(parseBounded(text, 'x.json')).resolves.toBeInstanceOf(Array);
  });
});

describe('a stack overflow is an error naming the spec, never a bare RangeError', () => {
  it('in the work on a loaded spec (generate, docs, diff): the file and its deepest place', async () => {
    const file = writeSpec(deepSpec(20), 'overflow.asyncapi.json');
    const recurse = (n: number): number => recurse(n + 1) + 1;
    const err = await withCheckedSpec(file, {}, () => recurse(0)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    const [p] = (err as SpecError).problems;
    expect(p!.file).toMatch(/overflow\.asyncapi\.json$/);
    expect(p!.pointer).toMatch(/^#\/components\/schemas\/Deep(\/properties\/child){19}\/properties\/child\/type$/);
    expect(p!.message).toMatch(/too large or too deeply nested .*Maximum call stack size exceeded/);
  });

  it('through the command: the 200-deep object of the issue, one error with file and pointer, no stack', async () => {
    const file = writeSpec(deepSpec(200), 'deep.asyncapi.json');
    for (const command of [
      ['spec', '--spec', file],
      ['generate', '--spec', file, '--out', `${file}.out`],
    ]) {
      const r = await runMain(command);
      expect(r.status).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines[0]).toBe(`exchange-api ${command[0]}: the spec has 1 error(s)`);
      expect(lines[1]).toMatch(
        /deep\.asyncapi\.json:\d+ #\/components\/schemas\/Deep\/properties\/child\/.*at most 100/,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe("ajv's standalone module, built in linear time", () => {
  const definitionsOf = (n: number) => {
    const definitions: Record<string, unknown> = {};
    for (let i = 0; i < n; i++)
      definitions[`S${i}`] = {
        type: 'object',
        properties: { at: { type: 'string', format: 'date-time' }, next: { $ref: `#/definitions/S${(i + 1) % n}` } },
      };
    definitions.Tree = {
      type: 'object',
      properties: { kids: { type: 'array', items: { $ref: '#/definitions/Tree' } } },
    };
    return definitions;
  };
  const module = (n: number, build: typeof standaloneCode) => {
    const definitions = definitionsOf(n);
    const ajv = schemaAjv({ code: { source: true, esm: true, lines: true, optimize: true }, formats: ['date-time'] });
    ajv.addSchema({ $id: 'api', definitions }, 'api');
    return build(ajv, Object.fromEntries(Object.keys(definitions).map((k) => [`v_${k}`, `api#/definitions/${k}`])));
  };

  it("is the same text as ajv's own (references, a recursion, formats)", () => {
    expect(module(30, standaloneCode)).toBe(module(30, ajvStandalone as typeof standaloneCode));
  });

  it(
    "exports 15,000 validators, where ajv's own overflows the stack (measured: " +
      'after 4 min on a busy 2-core machine)',
    () => {
      const definitions: Record<string, unknown> = {};
      for (let i = 0; i < 15_000; i++) definitions[`S${i}`] = { type: 'integer' };
      const ajv = schemaAjv({ code: { source: true, esm: true, lines: true, optimize: true } });
      ajv.addSchema({ $id: 'api', definitions }, 'api');
      const refs = Object.fromEntries(Object.keys(definitions).map((k) => [`v_${k}`, `api#/definitions/${k}`]));
      const code = standaloneCode(ajv, refs);
      expect(code.match(/^export const v_S\d+ = /gm)).toHaveLength(15_000);
    },
  );
});

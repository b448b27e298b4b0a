/** The generator's parts without a server: cases from schemas, the seed, verdicts, shrinking, invariants, the flags. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { casesOf } from '../src/generate/cases';
import { SchemaSet, toJson } from '../src/generate/schema-set';
import { modelFromSpec } from '@exchange-api/codegen';
import { defaultSpecFile } from '../src/generate/spec';
import { genSpecOf } from '../src/generate/spec-model';
import { judge, envelopeProblem } from '../src/generate/verdict';
import { smaller } from '../src/generate/shrink';
import { bookProblem, checkInvariants } from '../src/generate/invariants';
import { parseCli } from '../src/cli-args';
import { budgetFrom, ipBudgetFrom, walletBudgetsFrom } from '../src/generate/pacing';
import { smallerSets, valuesOf } from '../src/generate/channel-shrink';
import { learnIds, renamed } from '../src/generate/sequence-replay';

// The spec as the runner reads it: through the generator's loader and model.
const specFile = defaultSpecFile(fileURLToPath(new URL('.', import.meta.url)))!;
const spec = genSpecOf(await modelFromSpec(specFile), specFile);
const schemas = new SchemaSet(spec.doc);
const method = (name: string) => spec.methods.find((m) => m.name === name)!;
const ctx = (seed: number) => ({ doc: spec.doc, hints: { instrument_name: ['ETH-PERP'] }, seed });

describe('generated cases', () => {
  it('cover every enum value, 64-bit edges, null where allowed, and violations; each confirmed by the schema', () => {
    const m = method('private/get_orders');
    const cases = casesOf(ctx(1), schemas, m.params, 3);
    const whys = cases.map((c) => `${c.expect} ${c.why}`);
    for (const s of ['open', 'filled', 'rejected', 'cancelled', 'expired', 'untriggered', 'algo_active'])
      expect(whys).toContain(`valid /status = "${s}"`);
    expect(whys).toContain('valid /page = 9223372036854775807');
    expect(whys).toContain('valid /label = null');
    expect(whys).toContain('invalid missing required /subaccount_id');
    expect(whys).toContain('invalid /page: below the minimum 1');
    expect(whys).toContain('invalid /status: outside the enumeration');
    for (const c of cases) expect(schemas.valid(m.params, c.params), c.why).toBe(c.expect === 'valid');
    // 64-bit edges go out as their exact digits.
    expect(toJson({ page: 9223372036854775807n })).toBe('{"page":9223372036854775807}');
  });

  it('decimals with many digits where a decimal pattern allows them; unknown members only where closed', () => {
    const decimal = { $ref: '#/definitions/NonNegativeDecimalInput' };
    const cases = casesOf(
      ctx(1),
      schemas,
      { type: 'object', properties: { amount: decimal }, additionalProperties: false },
      0,
    );
    expect(cases.map((c) => c.params)).toContainEqual({ amount: '99999999999999999999.999999999999' });
    expect(cases.some((c) => c.why === 'unknown member in a closed object')).toBe(true);
    const open = casesOf(ctx(1), schemas, { type: 'object', properties: { amount: decimal } }, 0);
    expect(open.some((c) => c.why === 'unknown member in a closed object')).toBe(false);
  });

  it('are reproduced exactly by the seed, and another seed draws other random ones', () => {
    const m = method('public/get_trade_history');
    const a = casesOf(ctx(42), schemas, m.params, 5).map((c) => toJson(c.params));
    expect(casesOf(ctx(42), schemas, m.params, 5).map((c) => toJson(c.params))).toEqual(a);
    expect(casesOf(ctx(43), schemas, m.params, 5).map((c) => toJson(c.params))).not.toEqual(a);
  });
});

describe('verdicts', () => {
  const m = method('public/get_ticker');
  const valid = { expect: 'valid' as const, why: 't', params: { instrument_name: 'ETH-PERP' } };
  const invalid = { expect: 'invalid' as const, why: 't', params: { instrument_name: 5 } };
  const res = (json: unknown) => ({ kind: 'response' as const, json, text: JSON.stringify(json) });
  it(
    'a valid input refused as invalid params fails; another documented code passes; ' +
      'a code outside the table fails',
    () => {
      expect(
        judge(spec, m, schemas, valid, res({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } }), 1).status,
      ).toBe('fail');
      expect(
        judge(spec, m, schemas, valid, res({ jsonrpc: '2.0', id: 1, error: { code: 11000, message: 'x' } }), 1).status,
      ).toBe('pass');
      expect(
        judge(spec, m, schemas, valid, res({ jsonrpc: '2.0', id: 1, error: { code: 4242, message: 'x' } }), 1).status,
      ).toBe('fail');
      // An unknown name refused as invalid params is a note, not a failure.
      const off = { ...valid, offHint: 'instrument_name' };
      expect(
        judge(spec, m, schemas, off, res({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } }), 1).status,
      ).toBe('note');
    },
  );
  it('an invalid input served fails; silence is inconclusive; a close and a frame outside the envelope fail', () => {
    expect(judge(spec, m, schemas, invalid, res({ jsonrpc: '2.0', id: 1, result: {} }), 1).status).toBe('fail');
    expect(
      judge(spec, m, schemas, invalid, res({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } }), 1).status,
    ).toBe('pass');
    expect(judge(spec, m, schemas, valid, { kind: 'silence', what: 'nothing' }).status).toBe('inconclusive');
    expect(judge(spec, m, schemas, valid, { kind: 'closed', code: 1006, what: 'closed' }).status).toBe('fail');
    expect(envelopeProblem({ jsonrpc: '2.0', id: 1, result: 1, error: {} }, 1)).toMatch(/both/);
    expect(envelopeProblem({ jsonrpc: '2.0', id: 2, result: 1 }, 1)).toMatch(/does not echo/);
  });
});

describe('shrinking and invariants', () => {
  it('smaller inputs drop members first, then shrink strings with fast-check', () => {
    const first = [...smaller({ a: 'x'.repeat(100), b: 1 })];
    expect(first[0]).toEqual({ b: 1 });
    expect(first.some((v) => typeof (v as { a?: string }).a === 'string' && (v as { a: string }).a.length < 100)).toBe(
      true,
    );
  });
  it(
    'channel failures: smaller subscriptions keep the failing address, the address ' +
      'alone first; parameters read back',
    () => {
      const sets = [...smallerSets(['a', 'b', 'c', 'd', 'e'], 'c')];
      expect(sets[0]).toEqual(['c']);
      expect(sets.every((s) => s.includes('c') && s.length < 5)).toBe(true);
      expect(sets).toContainEqual(['c', 'a', 'b', 'e']);
      expect([...smallerSets(['c'], 'c')]).toEqual([]);
      expect(valuesOf('orderbook.{instrument_name}.{group}.{depth}', 'orderbook.ETH-PERP.10.20')).toEqual({
        instrument_name: 'ETH-PERP',
        group: '10',
        depth: '20',
      });
      expect(valuesOf('ticker.{instrument_name}', 'orderbook.x')).toBeNull();
    },
  );
  it('sequence replays: the run names (wallet, subaccounts, order ids from answers) become the replay ones', () => {
    const names = new Map<string, unknown>([
      ['"0xOLD"', '0xNEW'],
      ['7', 9],
    ]);
    learnIds({ result: { order: { order_id: 'o-1' } } }, { result: { order: { order_id: 'n-1' } } }, names);
    expect(
      renamed(
        { wallet: '0xOLD', subaccount_id: 7, order_id_to_cancel: 'o-1', channels: ['7.orders'], limit: 7 },
        names,
      ),
    ).toEqual({ wallet: '0xNEW', subaccount_id: 9, order_id_to_cancel: 'n-1', channels: ['9.orders'], limit: 7 });
  });
  it('order books: ordered sides, positive sizes, uncrossed; publish ids increase per channel', () => {
    expect(
      bookProblem({
        bids: [
          ['10', '1'],
          ['9', '1'],
        ],
        asks: [
          ['11', '1'],
          ['12', '2'],
        ],
      }),
    ).toBe('');
    expect(
      bookProblem({
        bids: [
          ['9', '1'],
          ['10', '1'],
        ],
        asks: [],
      }),
    ).toMatch(/bids not strictly descending/);
    expect(
      bookProblem({
        bids: [['10', '1']],
        asks: [
          ['12', '1'],
          ['11', '1'],
        ],
      }),
    ).toMatch(/asks not strictly ascending/);
    expect(bookProblem({ bids: [['10', '0']], asks: [] })).toMatch(/size 0/);
    expect(bookProblem({ bids: [['11', '1']], asks: [['10', '1']] })).toMatch(/not below best ask/);
    const v = checkInvariants([
      { channel: 'c', data: { publish_id: 2, bids: [], asks: [] }, t: 0 },
      { channel: 'c', data: { publish_id: 1, bids: [], asks: [] }, t: 1 },
    ]);
    expect(v.find((x) => x.invariant === 'publish-id-increasing')?.status).toBe('fail');
  });
});

describe('pacing from getRateLimits', () => {
  const b = (remainingPoints: number, consumedPoints: number, msBeforeNext = 0, isFirstInDuration = false) => ({
    remainingPoints,
    consumedPoints,
    msBeforeNext,
    isFirstInDuration,
  });
  it(
    'a budget is as large as the server says, smaller or larger than the spec; ' +
      'its window the spec one unless the server gives it',
    () => {
      const nm = spec.limits.find((l) => l.id === 'non_matching')!;
      expect(budgetFrom(nm, b(2, 1))).toEqual({
        id: 'non_matching',
        points: 3,
        windowMs: nm.windowMs,
        source: 'server',
      });
      expect(budgetFrom(nm, b(99_000, 1000))).toMatchObject({ points: 100_000, windowMs: nm.windowMs });
      // The first request of a window that exhausts it: msBeforeNext is the window, rounded up.
      expect(budgetFrom(nm, b(0, 1, 1949, true))).toMatchObject({ points: 1, windowMs: 2000 });
      expect(budgetFrom(nm, { remainingPoints: 'x', consumedPoints: 1 })).toBeNull();
      expect(budgetFrom(nm, b(0, 0))).toBeNull();
    },
  );
  it('before login the default class is the per-IP budget; after it each class and each method has its own', () => {
    expect(ipBudgetFrom(spec, { remaining_non_matching: b(7, 3), remaining_matching: b(1, 0) })).toMatchObject({
      id: 'public',
      points: 10,
    });
    const wallet = walletBudgetsFrom(spec, {
      remaining_non_matching: b(40, 10),
      remaining_matching: b(2, 0),
      remaining_per_endpoint: { cancel_all: b(4, 0), no_such_budget: b(9, 9) },
    });
    expect(wallet.map((x) => [x.id, x.points])).toEqual([
      ['non_matching', 50],
      ['matching', 2],
      ['cancel_all', 4],
    ]);
    expect(walletBudgetsFrom(spec, null)).toEqual([]);
  });
});

describe('flags', () => {
  it('--generate, --seed, --cases, --duration, --spec, --replay and what goes with what', () => {
    expect(
      parseCli(['--ws', 'ws://h/v3/ws', '--generate', '--seed', '7', '--cases', '2', '--duration', '30'], {}),
    ).toMatchObject({
      generate: true,
      seed: 7,
      cases: 2,
      durationS: 30,
    });
    expect(parseCli(['--ws', 'ws://h/v3/ws', '--seed', '7'], {})).toEqual({ error: '--seed applies to --generate' });
    // Without --generate, --spec is read for its framing first (cli.ts): a JSON-RPC spec is refused there.
    expect(parseCli(['--ws', 'ws://h/v3/ws', '--spec', 'x.yaml'], {})).toMatchObject({ spec: 'x.yaml' });
    expect(parseCli(['--ws', 'ws://h/v3/ws', '--generate', '--replay', 'f.json'], {})).toMatchObject({
      error: expect.stringContaining('go separately'),
    });
    expect(parseCli(['--ws', 'ws://h/v3/ws', '--generate', '--cases', '-1'], {})).toMatchObject({
      error: expect.stringContaining('--cases takes'),
    });
    expect(parseCli(['--ws', 'ws://h/v3/ws', '--replay', 'f.json'], {})).toMatchObject({ replay: 'f.json' });
  });
});

/**
 * The engine's parts without a server: one check run to its outcome (needs, findings, stops, errors, its
 * time limit), the selection and the tally, the rules a generated case is judged by (ids, not words), and
 * replay files read through their schema.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionGuard, Pacer } from '../src/guard';
import { resolveOptions, type RunOptions } from '../src/options';
import { runOne } from '../src/run-check';
import { selectChecks } from '../src/runner';
import { areaCounts, countResults } from '../src/tally';
import { judge } from '../src/generate/verdict';
import { RULES, judged, rule, ruleIdOf, type RuleId } from '../src/generate/rules';
import { shrinkSearch, type Tried } from '../src/generate/shrink';
import { readReplay, writeReplay, type ReplayFile } from '../src/generate/replay-file';
import type { Check, Ctx, RunState } from '../src/context';
import type { CheckResult } from '../src/model';
import type { GenMethod, GenSpec } from '../src/generate/spec';
import type { SchemaSet } from '../src/generate/schema-set';

/** A run with nothing behind it: the checks below open no connection. */
function runState(over: Partial<RunOptions> = {}): RunState {
  return {
    t0: Date.now(),
    options: resolveOptions({ ws: 'ws://127.0.0.1:9/v3/ws', checkTimeoutMs: 300, ...over }),
    guard: new ConnectionGuard(4),
    pacer: new Pacer(10, 1000),
    env: {
      instruments: [],
      perp: undefined,
      option: undefined,
      currency: undefined,
      connectionBudget: 4,
      connectionBudgetSource: 'reference',
      anonBudget: { points: 10, windowMs: 1000, source: 'reference' },
      rateLimits: null,
    },
    memo: new Map(),
  };
}

const check = (id: string, run: (ctx: Ctx) => Promise<void>, needs: Check['needs'] = []): Check => ({
  id,
  title: id,
  section: 'Errors',
  level: 'MUST',
  needs,
  run,
});

const finding = { rule: 'r', expected: 'e', got: 'g', message: 'the first failure' };

describe('one check run to its outcome (run-check.ts)', () => {
  it('passes when its body ends with no finding, carrying who it is', async () => {
    const { result, transportTrouble } = await runOne(
      runState(),
      check('framing.ok', async () => undefined),
    );
    expect(result).toMatchObject({ id: 'framing.ok', area: 'framing', status: 'pass', findings: [] });
    expect(result.reason).toBeUndefined();
    expect(transportTrouble).toBe(false);
  });

  it('fails on a finding, with the first finding as its reason, and keeps every finding', async () => {
    const c = check('framing.bad', async (ctx) => {
      ctx.fail({ ...finding, pointer: '/id' });
      ctx.fail({ ...finding, message: 'the second' });
    });
    const { result } = await runOne(runState(), c);
    expect(result.status).toBe('fail');
    expect(result.reason).toBe('the first failure');
    expect(result.findings.map((f) => f.pointer)).toEqual(['/id', '']);
  });

  it('a Stop ends it as said (skip, inconclusive); a fail Stop without a finding is inconclusive', async () => {
    const skip = await runOne(
      runState(),
      check('a.skip', async (ctx) => ctx.skip('not here')),
    );
    expect(skip.result).toMatchObject({ status: 'skip', reason: 'not here' });
    const none = await runOne(
      runState(),
      check('a.none', async (ctx) => ctx.inconclusive('no pushes')),
    );
    expect(none.result).toMatchObject({ status: 'inconclusive', reason: 'no pushes' });
    const { Stop } = await import('../src/outcome');
    const bare = await runOne(
      runState(),
      check('a.bare', async () => {
        throw new Stop('fail', 'said failed, showed nothing');
      }),
    );
    expect(bare.result).toMatchObject({ status: 'inconclusive', reason: 'said failed, showed nothing' });
  });

  it('an error of its own is inconclusive, never a failure of the server', async () => {
    const { result } = await runOne(
      runState(),
      check('a.throws', async () => {
        throw new TypeError('a bug in the check');
      }),
    );
    expect(result.status).toBe('inconclusive');
    expect(result.reason).toMatch(/^the check stopped on an error of its own: TypeError: a bug in the check/);
  });

  it('is not run when a need is unmet, saying each', async () => {
    const { result } = await runOne(
      runState(),
      check('login.x', async () => undefined, ['key', 'http']),
    );
    expect(result.status).toBe('skip');
    expect(result.reason).toBe('needs a wallet key: pass --key <hex> or set EXCHANGE_API_KEY; needs --http <url>');
    expect(result.durationMs).toBe(0);
  });

  it('is stopped at its time limit: inconclusive, and what it records after the stop does not count', async () => {
    const c = check('a.slow', async (ctx) => {
      try {
        await ctx.sleep(60_000);
      } finally {
        ctx.fail(finding);
      }
    });
    const { result } = await runOne(runState({ checkTimeoutMs: 100 }), c);
    expect(result.status).toBe('inconclusive');
    expect(result.reason).toBe('did not finish within 100 ms');
    expect(result.findings).toEqual([]);
    expect(result.transcript.map((t) => t.data).join('\n')).toContain('after the stop, not counted: the first failure');
  });
});

describe('selection and tally', () => {
  const checks = ['framing.a', 'framing.b', 'login.a', 'ratelimit.x'].map((id) => check(id, async () => undefined));

  it('selects by --only and leaves out by --skip', () => {
    expect(selectChecks(checks).map((c) => c.id)).toHaveLength(4);
    expect(selectChecks(checks, ['framing']).map((c) => c.id)).toEqual(['framing.a', 'framing.b']);
    expect(selectChecks(checks, ['framing', 'login.*'], ['framing.b']).map((c) => c.id)).toEqual([
      'framing.a',
      'login.a',
    ]);
  });

  it('counts results by status, in all and per area in the order areas first appear', () => {
    const r = (area: string, status: CheckResult['status']) => ({ area, status }) as CheckResult;
    const results = [r('login', 'pass'), r('framing', 'fail'), r('login', 'skip'), r('login', 'inconclusive')];
    expect(countResults(results)).toEqual({ total: 4, passed: 1, failed: 1, skipped: 1, inconclusive: 1 });
    expect(areaCounts(results).map((a) => [a.area, a.total])).toEqual([
      ['login', 3],
      ['framing', 1],
    ]);
  });
});

describe('rules of the generated checks (rules.ts)', () => {
  it('each id has its own words, so a file without ids finds its rule again', () => {
    const words = Object.values(RULES);
    expect(new Set(words).size).toBe(words.length);
    for (const id of Object.keys(RULES) as RuleId[]) expect(ruleIdOf(RULES[id])).toBe(id);
    expect(ruleIdOf('a valid input accepted with a conforming result')).toBe('result-conforms');
    expect(ruleIdOf('words no rule had')).toBe('unrecorded');
  });

  it('a judgement carries the id and the words; the words may name a value, the id stays', () => {
    expect(judged('fail', 'envelope', 'x', 'y')).toEqual({
      status: 'fail',
      ruleId: 'envelope',
      rule: RULES.envelope,
      expected: 'x',
      got: 'y',
    });
    const spec = { errors: [{ code: -32602 }] } as unknown as GenSpec;
    const m = { assumedParams: false, assumedResult: false } as GenMethod;
    const c = { expect: 'valid' as const, why: 'w', params: {}, offHint: 'instrument_name' };
    const v = judge(
      spec,
      m,
      {} as SchemaSet,
      c,
      {
        kind: 'response',
        json: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'no such instrument' } },
        text: '…',
      },
      1,
    );
    expect(v.status).toBe('note');
    expect(v.ruleId).toBe('unlisted-name-refused');
    expect(v.rule).toContain('/instrument_name');
    const closed = judge(spec, m, {} as SchemaSet, c, { kind: 'closed', code: 1006, what: 'closed 1006' });
    expect([closed.status, closed.ruleId]).toEqual(['fail', 'connection-kept']);
  });
});

describe('shrinking goes by rule id (shrink.ts)', () => {
  // A server whose result is wrong while `b` is sent (its words name the input), and which breaks the
  // envelope without `a`: a failure by another rule, given the same words to show that words do not count.
  const sent: Record<string, unknown>[] = [];
  const send = async (candidate: unknown): Promise<Tried> => {
    const o = candidate as Record<string, unknown>;
    sent.push(o);
    const verdict = !('a' in o)
      ? { ...judged('fail', 'envelope', 'a JSON-RPC response', 'not JSON'), rule: RULES['result-conforms'] }
      : 'b' in o
        ? judged('fail', rule('result-conforms', `the result of ${JSON.stringify(o)}`), 'a result', '/b: wrong')
        : judged('pass', 'result-conforms', 'a result', 'conforming');
    return { verdict, call: { params: JSON.stringify(o), sent: '', received: [], verdict } };
  };
  const first = judged('fail', 'result-conforms', 'a result', '/b: wrong');

  it('keeps a smaller input failing by the same id in other words, never one failing by another id', async () => {
    sent.length = 0;
    const r = await shrinkSearch({ a: 1, b: 2, c: 3 }, first, {
      calls: 40,
      deadline: Date.now() + 10_000,
      qualifies: () => true,
      send,
    });
    expect(Object.keys(r!.params as object).sort()).toEqual(['a', 'b']);
    expect(r!.call.verdict.ruleId).toBe('result-conforms');
    expect(r!.steps).toBeGreaterThan(0);
    // Inputs without `a` were sent and failed in the same words, by another rule: never kept.
    expect(sent.some((o) => !('a' in o))).toBe(true);
  });

  it('sends no more than its calls, and only inputs that qualify', async () => {
    sent.length = 0;
    const r = await shrinkSearch({ a: 1, b: 2, c: 3 }, first, {
      calls: 2,
      deadline: Date.now() + 10_000,
      qualifies: (v) => 'c' in (v as object),
      send,
    });
    expect(sent).toHaveLength(2);
    expect(sent.every((o) => 'c' in o)).toBe(true);
    expect(r).toBeNull();
  });
});

describe('replay files read through their schema (replay-schema.ts)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-schema-'));
  const good: ReplayFile = {
    format: 'exchange-api-conformance-replay',
    formatVersion: 1,
    seed: 7,
    spec: { file: '/nowhere/asyncapi.yaml', title: 't', version: '1' },
    target: { ws: 'ws://127.0.0.1:9/v3/ws', http: null },
    kind: 'method',
    method: 'public/get_time',
    transport: 'ws',
    auth: 'none',
    expect: 'valid',
    why: 'required members only',
    call: {
      params: '{}',
      sent: '{"jsonrpc":"2.0","id":"g-1","method":"public/get_time","params":{}}',
      received: ['{"jsonrpc":"2.0","id":"g-1","result":"soon"}'],
      verdict: judged('fail', 'result-conforms', 'a result that conforms', 'must be integer'),
    },
    shrinkSteps: 0,
    recordedAt: new Date(0).toISOString(),
  };
  let n = 0;
  const fileOf = (value: unknown) => {
    const path = join(dir, `r${n++}.json`);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };
  const without = (v: Record<string, unknown>, key: string) =>
    Object.fromEntries(Object.entries(v).filter(([k]) => k !== key));

  it('reads what a run writes, rule id and all', () => {
    const path = writeReplay({ root: dir, sub: 'written', shown: dir }, good, 1);
    expect(readReplay(path)).toEqual(good);
  });

  it('refuses a bad file naming the file and the JSON pointer of what is wrong', () => {
    const cases: [unknown, string][] = [
      [
        { ...good, call: { ...good.call, verdict: { ...good.call.verdict, status: 'failed' } } },
        'at /call/verdict/status: must be one of "pass", "fail"',
      ],
      [
        { ...good, call: without(good.call as unknown as Record<string, unknown>, 'sent') },
        'at /call/sent: is missing',
      ],
      [{ ...good, kind: 'sequence' }, 'at /sequence: is missing'],
      [{ ...good, formatVersion: 2 }, 'at /formatVersion: must be 1'],
      [{ ...good, format: 'something else' }, 'at /format: must be "exchange-api-conformance-replay"'],
      [{ ...good, seed: 'seven' }, 'at /seed: must be integer'],
      [[1, 2], 'at /: must be object'],
    ];
    for (const [value, said] of cases) {
      const path = fileOf(value);
      expect(() => readReplay(path)).toThrow(
        `the replay file ${path} is not a replay file of format version 1: ${said}`,
      );
    }
    const text = fileOf('{"format": ');
    expect(() => readReplay(text)).toThrow(`cannot read the replay file ${text}: `);
  });

  it('a file written before rule ids were recorded gets the id its words name', () => {
    const old = { ...good, call: { ...good.call, verdict: without(good.call.verdict, 'ruleId') } };
    const r = readReplay(fileOf(old));
    expect(r.call.verdict.ruleId).toBe('result-conforms');
  });
});

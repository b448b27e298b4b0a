/**
 * `--generate` against servers that depart from the spec only on generated inputs (the whole run against
 * the sandbox, green, is generate-sandbox.test.ts, a file of its own so that its minutes of paced calls
 * run beside these): each is caught, shrunk and written as a replay file; a replay says FIXED against the
 * sandbox and STILL FAILING against the faulty server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import {
  runCli,
  runConformance,
  runGenerated,
  type GenerateProgress,
  type ReplayFile,
  type Report,
} from '@exchange-api/conformance';
import { startFaulty, type Faults } from './faulty';
import { generousLimits } from './generous';
import { loadSpec } from '../support/spec-model';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: generousLimits });
});
afterAll(async () => {
  await sandbox.close();
});

/** A generated run of the chosen targets against a faulty server in front of the sandbox. */
async function against(
  faults: Faults,
  only: string[],
): Promise<{ report: Report; dir: string; replays: ReplayFile[] }> {
  const faulty = await startFaulty(sandbox, faults);
  const dir = mkdtempSync(join(tmpdir(), 'generate-'));
  try {
    const report = await runGenerated({
      loadSpec,
      ws: faulty.wsUrl,
      http: sandbox.httpUrl,
      seed: 7,
      only,
      replayDir: dir,
    });
    const replays = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ReplayFile);
    return { report, dir, replays };
  } finally {
    await faulty.close();
  }
}

/** A replay file sent again: STILL FAILING (exit 1) on a fresh faulty server, FIXED (exit 0) on the sandbox. */
async function stillFailingThenFixed(file: string, faults: Faults): Promise<void> {
  const io = { out: () => undefined, err: () => undefined };
  const again = await startFaulty(sandbox, faults);
  try {
    expect(await runCli(['--ws', again.wsUrl, '--replay', file], io, {}, loadSpec)).toBe(1);
  } finally {
    await again.close();
  }
  expect(await runCli(['--ws', sandbox.wsUrl, '--replay', file], io, {}, loadSpec)).toBe(0);
}

const params = (r: ReplayFile) => JSON.parse(r.call.params) as Record<string, unknown>;

describe('conformance --generate', () => {
  it('a server refusing a valid optional member is caught, shrunk to that member, and replayed', async () => {
    const faults: Faults = {
      request: (r) =>
        r.method === 'private/get_orders' && typeof r.params === 'object' && r.params !== null && 'label' in r.params
          ? { error: { code: -32602, message: 'Invalid params' } }
          : undefined,
    };
    const { report, dir, replays } = await against(faults, ['generated.private/get_orders@ws']);
    const check = report.checks.find((c) => c.id === 'generated.private/get_orders@ws')!;
    expect(check.status).toBe('fail');
    expect(report.exitCode).toBe(1);
    const first = replays.find((r) => r.original)!;
    // Shrunk: the smallest input that still fails keeps the label and the required member, nothing else.
    expect(Object.keys(params(first)).sort()).toEqual(['label', 'subaccount_id']);
    expect(first.shrinkSteps).toBeGreaterThan(0);
    const file = join(
      dir,
      readdirSync(dir).find((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).original)!,
    );

    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const faulty = await startFaulty(sandbox, faults);
    try {
      expect(await runCli(['--ws', faulty.wsUrl, '--replay', file], io, {}, loadSpec)).toBe(1);
      expect(out.join('\n')).toMatch(/^STILL FAILING: private\/get_orders over ws/m);
    } finally {
      await faulty.close();
    }
    out.length = 0;
    expect(await runCli(['--ws', sandbox.wsUrl, '--replay', file], io, {}, loadSpec)).toBe(0);
    expect(out.join('\n')).toMatch(/^FIXED: private\/get_orders over ws/m);
  }, 180_000);

  it('a server serving a wrong-typed member is caught', async () => {
    const { report, replays } = await against(
      {
        request: (r) => {
          const p = r.params as Record<string, unknown> | null;
          if (r.method !== 'public/get_trade_history' || typeof p?.page_size !== 'string') return undefined;
          const { page_size: _drop, ...rest } = p;
          return { params: rest };
        },
      },
      ['generated.public/get_trade_history@ws'],
    );
    expect(report.checks[0]!.status).toBe('fail');
    expect(report.checks[0]!.findings[0]!.rule).toBe('an invalid input is refused, never served');
    expect(replays.some((r) => r.expect === 'invalid' && typeof params(r).page_size === 'string')).toBe(true);
  }, 180_000);

  it('a server dropping the connection on a long string is caught, shrunk to just past its limit', async () => {
    const { report, replays } = await against(
      {
        request: (r) => {
          const name = (r.params as { instrument_name?: unknown } | null)?.instrument_name;
          return r.method === 'public/get_instrument' && typeof name === 'string' && name.length > 1000
            ? 'close'
            : undefined;
        },
      },
      ['generated.public/get_instrument@ws'],
    );
    expect(report.checks[0]!.status).toBe('fail');
    expect(report.checks[0]!.findings[0]!.rule).toBe('a request never closes the connection');
    const shrunk = replays.find((r) => r.original)!;
    const length = (params(shrunk).instrument_name as string).length;
    expect(length).toBeGreaterThan(1000);
    expect(length).toBeLessThan(10_000);
  }, 180_000);

  it('wrong pushes for enumeration values no hand check subscribes to are caught (schema and invariants)', async () => {
    // The hand checks sample each enumeration at its first and last values (group 1 and 100, depth 1 and
    // 100); this server breaks only group 10 and depth 20, which only the generator subscribes to.
    const faults: Faults = {
      push: (channel, data) => {
        if (/^orderbook\.[^.]+\.1\.20$/.test(channel)) return { ...(data as object), publish_id: 'not a number' };
        if (/^orderbook\.[^.]+\.10\.1$/.test(channel)) return { ...(data as object), bids: [['10', '-1']] };
        return data;
      },
    };
    const faulty = await startFaulty(sandbox, faults);
    try {
      const hand = await runConformance({ ws: faulty.wsUrl, http: sandbox.httpUrl, only: ['orderbook', 'channels'] });
      expect(hand.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual([]);
      expect(hand.checks.filter((c) => c.id.startsWith('orderbook.') && c.status === 'pass').length).toBeGreaterThan(2);
    } finally {
      await faulty.close();
    }
    const { report, dir, replays } = await against(faults, ['generated.channel.orderbook', 'generated.invariants']);
    const book = report.checks.find((c) => c.id === 'generated.channel.orderbook')!;
    expect(book.status).toBe('fail');
    expect(book.findings.map((f) => f.message).join('\n')).toMatch(/orderbook\.[^.]+\.1\.20/);
    const inv = report.checks.find((c) => c.id === 'generated.invariants')!;
    expect(inv.status).toBe('fail');
    expect(inv.findings[0]!.got).toMatch(/size -1/);
    // The push failure is a replay file too: STILL FAILING on the faulty server, FIXED on the sandbox.
    const index = replays.findIndex((r) => r.kind === 'channel' && /\.1\.20$/.test(r.channel!.address));
    const file = join(dir, readdirSync(dir)[index]!);
    await stillFailingThenFixed(file, faults);
  }, 180_000);

  it(
    'a push failure that needs two subscriptions together is shrunk to that pair; ' + 'its replay still fails',
    async () => {
      // Books of one instrument and group at two depths on one connection share a buffer the server breaks.
      const faults: Faults = {
        push: (channel, data, subscribed) => {
          const m = /^orderbook\.([^.]+)\.([^.]+)\.[^.]+$/.exec(channel);
          const twin = m && [...subscribed].some((s) => s !== channel && s.startsWith(`orderbook.${m[1]}.${m[2]}.`));
          return twin ? { ...(data as object), publish_id: 'not a number' } : data;
        },
      };
      const { report, dir, replays } = await against(faults, ['generated.channel.orderbook']);
      expect(report.checks[0]!.status).toBe('fail');
      const shrunk = replays.find((r) => r.kind === 'channel' && r.original)!;
      expect(shrunk.shrinkSteps).toBeGreaterThan(0);
      // The smallest failing subscription: the address and one twin, out of every address subscribed at first.
      const pair = shrunk.channel!.subscribed!;
      expect(pair).toHaveLength(2);
      expect(pair).toContain(shrunk.channel!.address);
      expect(new Set(pair.map((a) => a.split('.').slice(0, 3).join('.'))).size).toBe(1);
      expect((JSON.parse(shrunk.call.params) as { channels: string[] }).channels).toEqual(pair);
      expect((JSON.parse(shrunk.original!.params) as { channels: string[] }).channels.length).toBeGreaterThan(2);
      expect(report.checks[0]!.findings[0]!.message).toContain(
        `smallest failing subscription: ${JSON.stringify(pair)}`,
      );
      // Its replay subscribes the pair again: STILL FAILING on the faulty server, FIXED on the sandbox.
      const file = join(dir, readdirSync(dir)[replays.indexOf(shrunk)]!);
      await stillFailingThenFixed(file, faults);
    },
    180_000,
  );

  it('a subscription of valid addresses refused as a whole is shrunk to the address refused alone', async () => {
    // A server whose list of depths lacks 100: any subscription naming depth 100 is refused whole.
    const faults: Faults = {
      request: (r) => {
        const channels = (r.params as { channels?: unknown } | null)?.channels;
        return r.method === 'subscribe' &&
          Array.isArray(channels) &&
          channels.some((c) => /^orderbook\..*\.100$/.test(c))
          ? { error: { code: -32602, message: 'Invalid params', data: 'depth' } }
          : undefined;
      },
    };
    const { report, dir, replays } = await against(faults, ['generated.channel.orderbook']);
    expect(report.checks[0]!.status).toBe('fail');
    const shrunk = replays.find((r) => r.kind === 'channel' && r.original)!;
    expect(shrunk.channel!.subscribed).toEqual([expect.stringMatching(/^orderbook\.[^.]+\.1\.100$/)]);
    expect((JSON.parse(shrunk.original!.params) as { channels: string[] }).channels.length).toBeGreaterThan(2);
    expect(report.checks[0]!.findings.map((f) => f.message).join('\n')).toMatch(/smallest refused subscription/);
    const file = join(dir, readdirSync(dir)[replays.indexOf(shrunk)]!);
    await stillFailingThenFixed(file, faults);
  }, 180_000);

  it(
    'sequences: login then private calls, subscribe/unsubscribe runs, the order ' +
      'life cycle; a second cancel served is caught',
    async () => {
      const only = ['generated.sequence'];
      const good = await runGenerated({
        loadSpec,
        ws: sandbox.wsUrl,
        http: sandbox.httpUrl,
        seed: 5,
        only,
        allowOrderFlow: true,
        replayDir: null,
      });
      expect(good.checks.map((c) => [c.id, c.status])).toEqual([
        ['generated.sequence.login-then-private', 'pass'],
        ['generated.sequence.subscribe-unsubscribe', 'pass'],
        ['generated.sequence.login-again', 'pass'],
        ['generated.sequence.order-life-cycle', 'pass'],
        ['generated.sequence.order-inputs', 'pass'],
      ]);
      const cancelled = new Set<unknown>();
      const faults: Faults = {
        request: (r) => {
          const id = (r.params as { order_id?: unknown } | null)?.order_id;
          if (r.method !== 'private/cancel') return undefined;
          if (cancelled.has(id)) return { result: { order_id: id, order_status: 'cancelled' } };
          cancelled.add(id);
          return undefined;
        },
      };
      const dir = mkdtempSync(join(tmpdir(), 'generate-'));
      const faulty = await startFaulty(sandbox, faults);
      const out: string[] = [];
      const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
      try {
        const bad = await runGenerated({
          loadSpec,
          ws: faulty.wsUrl,
          http: sandbox.httpUrl,
          seed: 5,
          only: ['generated.sequence.order-life-cycle'],
          allowOrderFlow: true,
          replayDir: dir,
        });
        expect(bad.checks[0]!.status).toBe('fail');
        expect(bad.checks[0]!.findings.map((f) => f.rule)).toEqual(['a second cancel of a cancelled order is refused']);
        // The sequence's frames are a replay file: the last one is the second cancel.
        const [name] = readdirSync(dir);
        const replay = JSON.parse(readFileSync(join(dir, name!), 'utf8')) as ReplayFile;
        expect(replay).toMatchObject({
          kind: 'sequence',
          method: 'order-life-cycle',
          sequence: { judge: { kind: 'refused' } },
        });
        const frames = replay.sequence!.frames.map((f) => (JSON.parse(f.sent) as { method: string }).method);
        expect(frames.filter((m) => m === 'private/cancel')).toHaveLength(2);
        expect(frames.at(-1)).toBe('private/cancel');
        // Sent again in order (orders signed again, the new order ids in place of the old): the last judged.
        const file = join(dir, name!);
        expect(await runCli(['--ws', faulty.wsUrl, '--replay', file], io, {}, loadSpec)).toBe(2);
        expect(out.join('\n')).toMatch(
          new RegExp(
            /the replay file .*-order-life-cycle-ws\.json sends order flow again /.source +
              /\(private\/order, .*private\/cancel\): refused without --allow-order-flow/.source,
          ),
        );
        out.length = 0;
        const before = cancelled.size;
        expect(await runCli(['--ws', faulty.wsUrl, '--replay', file, '--allow-order-flow'], io, {}, loadSpec)).toBe(1);
        // The replay's first cancel was of the order it placed itself (an id the run never saw).
        expect(cancelled.size).toBe(before + 1);
        expect(out.join('\n')).toMatch(/^STILL FAILING: sequence order-life-cycle, \d+ frames sent again/m);
        out.length = 0;
        expect(await runCli(['--ws', sandbox.wsUrl, '--replay', file, '--allow-order-flow'], io, {}, loadSpec)).toBe(0);
        expect(out.join('\n')).toMatch(/^FIXED: sequence order-life-cycle/m);
      } finally {
        await faulty.close();
      }
    },
    180_000,
  );

  it(
    'a subscribe run whose current subscriptions go wrong is a replay file of ' + 'its frames, replayed in order',
    async () => {
      // A server that forgets every subscription but the latest when asked for a second one.
      const faults: Faults = {
        request: (r) => {
          const channels = (r.params as { channels?: string[] } | null)?.channels;
          return r.method === 'subscribe' && channels && channels.length > 1
            ? { result: { status: {}, current_subscriptions: channels.slice(-1) } }
            : undefined;
        },
      };
      const { report, dir, replays } = await against(faults, ['generated.sequence.subscribe-unsubscribe']);
      expect(report.checks[0]!.status).toBe('fail');
      const replay = replays.find((r) => r.kind === 'sequence')!;
      expect(replay.sequence!.judge.kind).toBe('subscriptions');
      const last = JSON.parse(replay.sequence!.frames.at(-1)!.sent) as {
        method: string;
        params: { channels: string[] };
      };
      expect(last.method).toBe('subscribe');
      expect(last.params.channels.length).toBeGreaterThan(1);
      const file = join(dir, readdirSync(dir)[replays.indexOf(replay)]!);
      await stillFailingThenFixed(file, faults);
    },
    120_000,
  );

  it(
    'a method of the spec the server answers "method not found" is reported as ' +
      'not served: named, no pass, no failure',
    async () => {
      // The sandbox serves every method of the spec: a server that does not serve one is made here.
      const notServed = 'public/start_auction is in the spec but this server does not serve it';
      const refuse = (r: { method: string }) =>
        r.method === 'public/start_auction'
          ? { error: { code: -32601, message: `Method not found: ${notServed}` } }
          : undefined;
      // (The faulty server stands in front of the WebSocket only.)
      const { report, replays } = await against({ request: refuse }, ['generated.public/start_auction@ws']);
      expect(report.checks.map((c) => [c.id, c.status])).toEqual([['generated.public/start_auction@ws', 'skip']]);
      expect(report.checks[0]!.reason).toMatch(/^not served: a valid input was answered -32601/);
      expect(report.checks[0]!.observations[0]!.text).toMatch(
        /public\/start_auction is in the spec but this server does not serve it/,
      );
      expect(report.generated!.targets).toEqual([
        expect.objectContaining({ skipped: expect.stringMatching(/^not served/), pass: 0, fail: 0, valid: 0 }),
      ]);
      expect(replays).toEqual([]);
    },
    120_000,
  );

  it('a rate-limit answer is waited out as its hint says and the call sent again, never a failure', async () => {
    let limited = 0;
    const { report } = await against(
      {
        request: (r) => {
          if (r.method !== 'public/get_time' || limited >= 3) return undefined;
          limited++;
          return { error: { code: -32000, message: 'Rate limit exceeded', data: 'Retry after 20 ms' } };
        },
      },
      ['generated.public/get_time@ws'],
    );
    expect(limited).toBe(3);
    expect(report.checks[0]!.status).toBe('pass');
    expect(report.generated!.targets[0]).toMatchObject({ fail: 0, inconclusive: 0 });
  }, 120_000);

  it(
    'paced under the budgets the server reports, even below the reference ones: ' + 'none of its calls rate limited',
    async () => {
      const tight = await startSandbox({ port: 0, limits: { public: { points: 8 }, non_matching: { points: 6 } } });
      const pacing: Extract<GenerateProgress, { type: 'started' }>['pacing'] = [];
      try {
        const report = await runGenerated({
          loadSpec,
          ws: tight.wsUrl,
          http: tight.httpUrl,
          seed: 7,
          only: ['generated.public/get_time@*'],
          replayDir: null,
          onProgress: (e) => void (e.type === 'started' && pacing.push(...e.pacing)),
        });
        expect(pacing.find((b) => b.id === 'public')).toEqual({
          id: 'public',
          points: 8,
          windowMs: 5000,
          source: 'server',
        });
        expect(pacing.find((b) => b.id === 'non_matching')).toMatchObject({ points: 6, source: 'server' });
        expect(report.generated!.targets.map((t) => [t.id, t.fail, t.inconclusive])).toEqual([
          ['generated.public/get_time@ws', 0, 0],
          ['generated.public/get_time@http', 0, 0],
        ]);
      } finally {
        await tight.close();
      }
    },
    120_000,
  );

  it('a server that stops answering mid-run ends the run: exit 2, the reports say during which target', async () => {
    let faulty: Awaited<ReturnType<typeof startFaulty>> | undefined;
    faulty = await startFaulty(sandbox, {
      request: (r) => {
        if (r.method !== 'public/get_time') return undefined;
        void faulty?.close();
        faulty = undefined;
        return 'close';
      },
    });
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const argv = [
      '--ws',
      faulty.wsUrl,
      '--generate',
      '--only',
      'generated.public/get_time@ws',
      '--replay-dir',
      mkdtempSync(join(tmpdir(), 'generate-')),
    ];
    expect(await runCli(argv, io, {}, loadSpec)).toBe(2);
    expect(lines.join('\n')).toMatch(/stopped answering during generated\.public\/get_time/);
  }, 120_000);
});

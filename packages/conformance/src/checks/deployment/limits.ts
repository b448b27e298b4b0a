/**
 * getRateLimits agrees across the endpoints of a deployment: read on A, B, …, then A again by one wallet
 * logged in on each, every endpoint reports the same class budgets, and the shared counts move as one
 * (each reading one non-matching point more than the one before it, wherever it was read; the same
 * matching and per-endpoint counts; the same count of this IP's connections).
 */
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../../context';
import { http } from '../../calls';
import { S } from '../util';
import { getRateLimits, inOneWindow, type Budget, type Limits } from '../ratelimit/budget';
import { endpoints, mustRead, walletOnAll, type Named } from './common';

/** One reading, where it was taken. */
interface Taken {
  on: Named;
  at: number;
  limits: Limits;
}

/** Every budget of a reading by key: the classes, each per-endpoint budget, the connections. */
function budgetsOf(l: Limits): Record<string, Budget | undefined> {
  const out: Record<string, Budget | undefined> = {
    remaining_matching: l.remaining_matching,
    remaining_non_matching: l.remaining_non_matching,
  };
  for (const [k, b] of Object.entries(l.remaining_per_endpoint ?? {})) out[`remaining_per_endpoint/${k}`] = b;
  return out;
}

const size = (b: Budget | undefined) => (b ? b.remainingPoints + b.consumedPoints : undefined);

/** The same class budgets (points per window) and the same per-endpoint keys on every endpoint. */
function sameBudgets(ctx: Ctx, readings: Taken[]): void {
  const [first, ...rest] = readings as [Taken, ...Taken[]];
  const want = budgetsOf(first.limits);
  for (const r of rest) {
    if (r.on.name === first.on.name) continue;
    const got = budgetsOf(r.limits);
    for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
      if (size(want[key]) === size(got[key])) continue;
      ctx.fail({
        pointer: `/result/${key}`,
        rule: 'one deployment, one set of budgets: every endpoint reports the same class budgets',
        expected: `${r.on.name} reports ${key} of ${size(want[key]) ?? 'no'} points, as ${first.on.name} does`,
        got: `${first.on.name}: ${cut(want[key] ?? 'absent', 200)}; ${r.on.name}: ${cut(got[key] ?? 'absent', 200)}`,
        message:
          `${key}: ${first.on.name} and ${r.on.name} report budgets of ${size(want[key]) ?? 'none'}` +
          ` and ${size(got[key]) ?? 'none'} points`,
      });
    }
  }
}

/**
 * Each reading counts one non-matching point more than the one before it; the matching and per-endpoint counts hold.
 */
function sharedCounts(ctx: Ctx, readings: Taken[]): void {
  const line = readings.map((r) => `${r.on.name} ${r.limits.remaining_non_matching?.consumedPoints ?? '?'}`).join(', ');
  for (const [i, r] of readings.entries()) {
    if (i === 0) continue;
    const prev = readings[i - 1]!;
    const want = (prev.limits.remaining_non_matching?.consumedPoints ?? NaN) + 1;
    const got = r.limits.remaining_non_matching?.consumedPoints;
    if (got !== want)
      ctx.fail({
        pointer: '/result/remaining_non_matching/consumedPoints',
        rule:
          'one budget per wallet across the deployment: each getRateLimits costs one ' +
          'point of it, wherever it is read',
        expected: `${r.on.name} reports ${want} (${prev.on.name} reported ${want - 1} just before)`,
        got: `${got ?? 'nothing'} (readings in turn: ${line})`,
        message:
          `${r.on.name} did not count the reading ${prev.on.name} had just counted ` +
          `(consumedPoints in turn: ${line})`,
      });
    for (const key of Object.keys(budgetsOf(r.limits)).filter((k) => k !== 'remaining_non_matching')) {
      const a = budgetsOf(prev.limits)[key]?.consumedPoints;
      const b = budgetsOf(r.limits)[key]?.consumedPoints;
      if (a !== undefined && b !== undefined && a !== b)
        ctx.fail({
          pointer: `/result/${key}/consumedPoints`,
          rule: 'one budget per wallet across the deployment',
          expected:
            `${r.on.name} reports the consumedPoints ${prev.on.name} reported (${a}): ` +
            `nothing was spent in between`,
          got: String(b),
          message: `${key}: ${prev.on.name} counts ${a}, ${r.on.name} ${b}`,
        });
    }
  }
}

/** Whether A's first and last readings count this IP's connections differently. */
function connectionsMoved(readings: Taken[]): boolean {
  const [a, z] = [readings[0]!.limits.remaining_connections, readings.at(-1)!.limits.remaining_connections];
  return !!a && !!z && a.consumedPoints !== z.consumedPoints;
}

/**
 * The per-IP connection count: when A's two readings agree, every endpoint counts the same, at least the connections
 * held.
 */
function sameConnections(ctx: Ctx, readings: Taken[], held: number): void {
  const counts = readings.map((r) => r.limits.remaining_connections?.consumedPoints);
  if (counts.some((c) => c === undefined)) {
    ctx.observe({
      text: 'remaining_connections is absent on some endpoint (optional): the connection counts were not compared',
    });
    return;
  }
  if (counts[0] !== counts.at(-1)) {
    ctx.note(`the connection count moved on A during the readings (${counts[0]} → ${counts.at(-1)}): not compared`);
    return;
  }
  const line = readings.map((r, i) => `${r.on.name} ${counts[i]}`).join(', ');
  const low = readings.find((_, i) => counts[i]! < held || counts[i] !== counts[0]);
  if (low)
    ctx.fail({
      pointer: '/result/remaining_connections/consumedPoints',
      rule: 'the per-IP connection limit counts every connection of the IP to the deployment',
      expected: `every endpoint counts the same, at least the ${held} this check holds (one on each endpoint)`,
      got: `consumedPoints in turn: ${line}`,
      message: `the endpoints count this IP's connections apart (${line}) while it holds ${held} across them`,
    });
}

/** One round of readings: A, B, …, then A again; 'turned' when A's window turned in between. */
async function readRound(ctx: Ctx, conns: Parameters<typeof mustRead>[1][], all: Named[]): Promise<Taken[] | null> {
  const order = [...all.keys(), 0];
  const readings: Taken[] = [];
  for (const i of order) {
    const at = Date.now();
    readings.push({ on: all[i]!, at, limits: await mustRead(ctx, conns[i]!, all[i]!.name) });
  }
  const first = readings[0]!.limits.remaining_non_matching;
  const last = readings.at(-1)!.limits.remaining_non_matching;
  if (!first || !last || last.consumedPoints < first.consumedPoints || last.isFirstInDuration) return null;
  return readings;
}

/** getRateLimits over HTTP on each endpoint's own base: each costs one point of the one per-IP budget. */
async function overHttp(ctx: Ctx, all: Named[]): Promise<void> {
  const bases = all.filter((e) => e.http);
  if (new Set(bases.map((e) => e.http)).size < 2) return;
  const seen: { on: Named; nm: Budget | undefined }[] = [];
  for (const e of [...bases, bases[0]!]) {
    const x = await http(ctx, e.http, getRateLimits.httpPath!, {});
    const body = x.json as { result?: Limits; error?: unknown } | undefined;
    if (x.status !== 200 || !body || body.error)
      return ctx.note(`getRateLimits over HTTP on ${e.name}: HTTP ${x.status}; the per-IP counts were not compared`);
    seen.push({ on: e, nm: (body.result ?? (body as Limits)).remaining_non_matching });
  }
  const line = seen.map((s) => `${s.on.name} ${s.nm?.consumedPoints ?? '?'}`).join(', ');
  const [a0, aN] = [seen[0]!.nm, seen.at(-1)!.nm];
  if (!a0 || !aN || aN.isFirstInDuration || aN.consumedPoints <= a0.consumedPoints)
    return ctx.note(`the per-IP window turned on A during the HTTP readings (${line}): not compared`);
  for (const [i, s] of seen.entries())
    if (i > 0 && s.nm?.consumedPoints !== (seen[i - 1]!.nm?.consumedPoints ?? NaN) + 1)
      return ctx.fail({
        pointer: '/result/remaining_non_matching/consumedPoints',
        rule: 'public pre-authentication traffic is keyed by source IP: one budget per IP across the deployment',
        expected: `each HTTP reading one point more than the one before it, wherever it is read`,
        got: `consumedPoints in turn: ${line}`,
        message: `over HTTP the endpoints count this IP's requests apart (${line})`,
      });
}

/** The deployment check of getRateLimits. */
export const limitsChecks: Check[] = [
  {
    id: 'deployment.rate-limits-agree',
    title: 'getRateLimits agrees across the endpoints: the same class budgets and the same shared counts',
    section: `${S.getRateLimits}; ${S.tier1} (one budget per wallet; pre-authentication traffic by source IP)`,
    level: 'MUST',
    needs: ['endpoints', 'key'],
    async run(ctx) {
      if (!(await ctx.run.guard.idle())) ctx.inconclusive('other connections of the runner did not close in time');
      const all = endpoints(ctx);
      const w = await walletOnAll(ctx);
      let readings: Taken[] | null = null;
      await inOneWindow(ctx, `readings on ${all.map((e) => e.name).join(', ')} and A again`, async () => {
        readings = await readRound(ctx, w.conns, all);
        // A connection of this IP still closing moves the count: read again (up to twice more).
        for (let i = 0; i < 2 && readings && connectionsMoved(readings); i++) {
          ctx.note('the connection count moved on A during the readings: reading again');
          readings = await readRound(ctx, w.conns, all);
        }
        return readings ? 'done' : 'turned';
      });
      sameBudgets(ctx, readings!);
      sharedCounts(ctx, readings!);
      sameConnections(ctx, readings!, all.length);
      await overHttp(ctx, all);
    },
  },
];

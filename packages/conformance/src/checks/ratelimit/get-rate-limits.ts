/** getRateLimits itself: its budget objects on both transports, what it costs, and the method that costs nothing. */
import { validators, cut } from '@exchange-api/validators';
import type { Check } from '../../context';
import { S, errorOf, FINDING_MAX, validateInto } from '../util';
import { getRateLimits, inOneWindow, limits, missingBudget, turned, undecremented, type Limits } from './budget';
import { budgetConnection } from './probes';

const resultValidator = validators.results[getRateLimits.name as 'public/getRateLimits'];

/** The checks of getRateLimits and of the method with no per-request decrement, in run order. */
export const getRateLimitsChecks: Check[] = [
  {
    id: 'ratelimit.get-rate-limits-ws',
    title: 'public/getRateLimits over WebSocket: the budget objects, without login',
    section: S.getRateLimits,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const conn = await ctx.connect();
      const r = await ctx.call(conn, getRateLimits.name, {});
      if (errorOf(r))
        ctx.abort({
          pointer: '/error',
          rule: 'No authentication needed',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: 'getRateLimits was refused before login',
        });
      validateInto(ctx, resultValidator, r.result, 'getRateLimits result', 'RateLimitsResult', '/result');
      if (!(r.result as Limits | undefined)?.remaining_connections)
        ctx.observe({
          text:
            'remaining_connections is absent on WebSocket (optional there); the runner ' +
            'used the reference connection budget',
        });
      const r2 = await ctx.call(conn, getRateLimits.name, null);
      if (errorOf(r2))
        ctx.fail({
          pointer: '/error',
          rule: 'params empty or null',
          expected: 'a result for params null',
          got: cut(r2.error, FINDING_MAX),
          message: 'getRateLimits with params null was refused',
        });
    },
  },
  {
    id: 'ratelimit.get-rate-limits-http',
    title: 'public/getRateLimits over HTTP: the budget objects, and no remaining_connections',
    section: `${S.getRateLimits} (remaining_connections: present on WebSocket only)`,
    level: 'MUST',
    needs: ['http'],
    async run(ctx) {
      const x = await ctx.http(getRateLimits.httpPath!, {});
      const body = x.json as Record<string, unknown> | undefined;
      const result = body && typeof body === 'object' && 'result' in body ? body.result : body;
      if (x.status < 200 || x.status >= 300 || (body && typeof body === 'object' && body.error))
        ctx.abort({
          pointer: '/error',
          rule: 'available on both transports',
          expected: 'HTTP 2xx with a result',
          got: `HTTP ${x.status} ${cut(body?.error ?? x.text, FINDING_MAX)}`,
          message: 'getRateLimits over HTTP failed',
        });
      validateInto(ctx, resultValidator, result, 'getRateLimits result', 'RateLimitsResult', '/result');
      if (result && typeof result === 'object' && 'remaining_connections' in result)
        ctx.fail({
          pointer: '/result/remaining_connections',
          rule: 'remaining_connections is present on WebSocket only',
          expected: '(absent)',
          got: cut((result as Limits).remaining_connections, FINDING_MAX),
          message: 'remaining_connections came over HTTP',
        });
    },
  },
  {
    id: 'ratelimit.cost-one',
    title: 'getRateLimits costs exactly one non-matching point',
    section: `${S.getRateLimits} (costs one non-matching point); ${S.tier1} (each request costs one point)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const { conn, keyed } = await budgetConnection(ctx, { needWallet: false });
      ctx.note(`budget under test: ${keyed}`);
      await inOneWindow(ctx, 'two readings', async () => {
        const a = (await limits(ctx, conn)).remaining_non_matching;
        const b = (await limits(ctx, conn)).remaining_non_matching;
        if (!a || !b) missingBudget(ctx);
        if (turned(a, b)) return 'turned';
        if (b.consumedPoints - a.consumedPoints !== 1)
          ctx.fail({
            pointer: '/result/remaining_non_matching/consumedPoints',
            rule: 'costs one non-matching point',
            expected: String(a.consumedPoints + 1),
            got: String(b.consumedPoints),
            message: `consumedPoints went ${a.consumedPoints} → ${b.consumedPoints}`,
          });
        if (a.remainingPoints - b.remainingPoints !== 1)
          ctx.fail({
            pointer: '/result/remaining_non_matching/remainingPoints',
            rule: 'costs one non-matching point',
            expected: String(a.remainingPoints - 1),
            got: String(b.remainingPoints),
            message: `remainingPoints went ${a.remainingPoints} → ${b.remainingPoints}`,
          });
        return 'done';
      });
    },
  },
  {
    id: 'ratelimit.live-instruments-free',
    title: `${undecremented.name} has no per-request decrement`,
    section: `${S.tier1} (custom: ${undecremented.name} has no per-request decrement)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const { conn, keyed } = await budgetConnection(ctx, { needWallet: false });
      ctx.note(`budget under test: ${keyed}`);
      const calls = 3;
      await inOneWindow(ctx, `${calls} calls of ${undecremented.name}`, async () => {
        const a = await limits(ctx, conn);
        for (let i = 0; i < calls; i++) {
          const r = await ctx.call(conn, undecremented.name, {}, { retryRateLimited: false });
          if (errorOf(r))
            ctx.abort({
              pointer: '/error',
              rule: `${undecremented.name} is served`,
              expected: 'a result',
              got: cut(r.error, FINDING_MAX),
              message: `${undecremented.name} was refused`,
            });
        }
        const b = await limits(ctx, conn);
        if (
          turned(a.remaining_non_matching, b.remaining_non_matching) ||
          turned(a.remaining_matching, b.remaining_matching)
        )
          return 'turned';
        for (const key of ['remaining_non_matching', 'remaining_matching'] as const) {
          const want = key === 'remaining_non_matching' ? 1 : 0;
          const got = (b[key]?.consumedPoints ?? NaN) - (a[key]?.consumedPoints ?? NaN);
          if (got !== want)
            ctx.fail({
              pointer: `/result/${key}/consumedPoints`,
              rule: `${undecremented.name}: no per-request decrement (only the second getRateLimits costs a point)`,
              expected: `${a[key]?.consumedPoints} + ${want}`,
              got: `${b[key]?.consumedPoints} (${calls} calls of ${undecremented.name} in between)`,
              message:
                `${key} went ${a[key]?.consumedPoints} → ${b[key]?.consumedPoints} over ${calls}` +
                ` calls of ${undecremented.name} and one getRateLimits`,
            });
        }
        return 'done';
      });
    },
  },
];

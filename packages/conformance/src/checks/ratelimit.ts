/**
 * Rate limits: getRateLimits on both transports and its cost, exceeding a budget (code, message, hint,
 * at once), the window reset, the shared matching budget and cancel_all's own. Budgets are read from the
 * server. Budget-consuming probes log in a fresh random wallet when the server allows it, so they do not
 * eat into the budgets other checks use; otherwise they use the caller's wallet, or the per-IP budget.
 */
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { methodTable } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import type { Check, Ctx } from '../context';
import { RATE_LIMIT_CODE, retryAfterMs } from '../context';
import type { RpcResponse, WsConn } from '../connection';
import { S, errorOf, method, rateLimitError, show, validateInto } from './util';
import { action } from './orderflow';

type Budget = { remainingPoints: number; msBeforeNext: number; consumedPoints: number; isFirstInDuration: boolean };
type Limits = { remaining_matching: Budget; remaining_non_matching: Budget; remaining_per_endpoint: Record<string, Budget>; remaining_connections?: Budget };

const getRateLimits = methodTable.find((m) => m.id === 'publicGetRateLimits')!;
const cancelAll = methodTable.find((m) => m.rateLimitClass === 'endpoint')!;
/** Matching-class methods that cancel (never place) orders: safe to spend the matching budget with. */
const matchingCancels = methodTable.filter((m) => m.rateLimitClass === 'matching' && m.name.startsWith('cancel'));

/** A connection keyed on a budget of its own: a fresh wallet if the server lets one log in, else the caller's. */
async function budgetConnection(ctx: Ctx, opts: { needWallet: boolean }): Promise<{ conn: WsConn; signer: Wallet | null; keyed: string; subaccount: number | undefined }> {
  const conn = await ctx.connect();
  if (ctx.options.key) {
    const fresh = Wallet.createRandom() as unknown as Wallet;
    await ctx.login(conn, fresh);
    if (conn.loggedIn) return { conn, signer: fresh, keyed: 'a fresh random wallet', subaccount: conn.loggedIn[0] };
    const ids = await ctx.mustLogin(conn, ctx.options.key);
    return { conn, signer: ctx.options.key, keyed: "the caller's wallet (the server refused a fresh wallet)", subaccount: ids[0] };
  }
  if (opts.needWallet) ctx.skip('needs a wallet key');
  return { conn, signer: null, keyed: 'the per-IP budget (no key given)', subaccount: undefined };
}

async function limits(ctx: Ctx, conn: WsConn): Promise<Limits> {
  const r = await ctx.call(conn, getRateLimits.name, {}, { raw: true });
  if (errorOf(r)) ctx.abort({ pointer: '/error', rule: 'public/getRateLimits needs no authentication', expected: 'a result', got: show(r.error), message: 'getRateLimits was refused' });
  return r.result as Limits;
}

/** Spend the rest of a budget with `send`, then one more: the answers, in order, with their latency. */
async function burst(conn: WsConn, n: number, send: (i: number) => Promise<string | number>): Promise<{ answers: { response: RpcResponse | null; latencyMs: number }[] }> {
  const sent: { id: string | number; at: number; from: number }[] = [];
  for (let i = 0; i < n; i++) {
    const from = conn.frames.length;
    sent.push({ id: await send(i), at: Date.now(), from });
  }
  const answers = await Promise.all(
    sent.map(async (s) => {
      const f = await conn.waitFor((fr) => (fr.json as RpcResponse | undefined)?.id === s.id, 3000, s.from);
      return { response: f ? (f.json as RpcResponse) : null, latencyMs: f ? Date.now() - s.at : -1 };
    }),
  );
  return { answers };
}

/** Exhaust the non-matching budget once per run; four checks read the outcome. */
function exhaustion(ctx: Ctx) {
  return ctx.shared('exhaust-non-matching', async (p) => {
    const { conn, keyed } = await budgetConnection(p, { needWallet: false });
    const before = await limits(p, conn);
    const remaining = before.remaining_non_matching?.remainingPoints;
    if (typeof remaining !== 'number') return { keyed, before, error: 'getRateLimits gave no remaining_non_matching.remainingPoints' } as const;
    const { answers } = await burst(conn, remaining + 1, async () => {
      const id = `rl-${randomUUID()}`;
      conn.send({ jsonrpc: '2.0', id, method: getRateLimits.name, params: {} });
      return id;
    });
    const firstRefusal = answers.findIndex((a) => a.response && errorOf(a.response));
    const refusal = firstRefusal >= 0 ? answers[firstRefusal]! : null;
    const hint = refusal ? retryAfterMs(errorOf(refusal.response!)!.data) : null;
    // Wait out the window as the server says (hint, else msBeforeNext read before), then ask again.
    const wait = Math.min(hint ?? before.remaining_non_matching.msBeforeNext ?? 0, 15_000);
    await p.sleep(wait + 150);
    const after = await p.call(conn, getRateLimits.name, {}, { raw: true });
    p.run.pacer.reset();
    return { keyed, before, remaining, answers, firstRefusal, refusal, hint, wait, after, error: null } as const;
  });
}

async function exhausted(ctx: Ctx) {
  const x = await exhaustion(ctx);
  ctx.transcript.attach(x.transcript.entries);
  ctx.note(`budget under test: ${x.keyed}`);
  if (x.error !== null) ctx.abort({ pointer: '/result/remaining_non_matching', rule: 'getRateLimits budget object', expected: 'remainingPoints', got: 'missing', message: x.error });
  return x;
}

export const rateLimitChecks: Check[] = [
  {
    id: 'ratelimit.get-rate-limits-ws',
    title: 'public/getRateLimits over WebSocket: the budget objects, without login',
    section: S.getRateLimits,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const conn = await ctx.connect();
      const r = await ctx.call(conn, getRateLimits.name, {});
      if (errorOf(r)) ctx.abort({ pointer: '/error', rule: 'No authentication needed', expected: 'a result', got: show(r.error), message: 'getRateLimits was refused before login' });
      validateInto(ctx, validators.results[getRateLimits.name as 'public/getRateLimits'], r.result, 'getRateLimits result', 'RateLimitsResult', '/result');
      if (!(r.result as Limits | undefined)?.remaining_connections) ctx.observe({ text: 'remaining_connections is absent on WebSocket (optional there); the runner used the reference connection budget' });
      const r2 = await ctx.call(conn, getRateLimits.name, null);
      if (errorOf(r2)) ctx.fail({ pointer: '/error', rule: 'params empty or null', expected: 'a result for params null', got: show(r2.error), message: 'getRateLimits with params null was refused' });
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
      if (x.status < 200 || x.status >= 300 || (body && typeof body === 'object' && body.error)) ctx.abort({ pointer: '/error', rule: 'available on both transports', expected: 'HTTP 2xx with a result', got: `HTTP ${x.status} ${show(body?.error ?? x.text)}`, message: 'getRateLimits over HTTP failed' });
      validateInto(ctx, validators.results[getRateLimits.name as 'public/getRateLimits'], result, 'getRateLimits result', 'RateLimitsResult', '/result');
      if (result && typeof result === 'object' && 'remaining_connections' in result) ctx.fail({ pointer: '/result/remaining_connections', rule: 'remaining_connections is present on WebSocket only', expected: '(absent)', got: show((result as Limits).remaining_connections), message: 'remaining_connections came over HTTP' });
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
      for (let attempt = 0; attempt < 2; attempt++) {
        const a = (await limits(ctx, conn)).remaining_non_matching;
        const b = (await limits(ctx, conn)).remaining_non_matching;
        if (b?.isFirstInDuration) continue; // the window turned between the two; measure again
        if (!a || !b) ctx.abort({ pointer: '/result/remaining_non_matching', rule: 'budget object', expected: 'present', got: 'missing', message: 'no remaining_non_matching' });
        if (b.consumedPoints - a.consumedPoints !== 1) ctx.fail({ pointer: '/result/remaining_non_matching/consumedPoints', rule: 'costs one non-matching point', expected: String(a.consumedPoints + 1), got: String(b.consumedPoints), message: `consumedPoints went ${a.consumedPoints} → ${b.consumedPoints}` });
        if (a.remainingPoints - b.remainingPoints !== 1) ctx.fail({ pointer: '/result/remaining_non_matching/remainingPoints', rule: 'costs one non-matching point', expected: String(a.remainingPoints - 1), got: String(b.remainingPoints), message: `remainingPoints went ${a.remainingPoints} → ${b.remainingPoints}` });
        return;
      }
      ctx.inconclusive('the window turned between every pair of requests');
    },
  },
  {
    id: 'ratelimit.exceeded',
    title: `Exceeding the budget gives ${rateLimitError.code} "${rateLimitError.message}"`,
    section: `${S.errors}; ${S.tier1}`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const x = await exhausted(ctx);
      const last = x.answers.at(-1)!;
      if (!x.refusal) {
        return ctx.abort({ pointer: '/result', rule: 'a request that exceeds the budget is rejected', expected: `error ${rateLimitError.code}`, got: last.response ? show(last.response.result ?? last.response) : 'no answer', message: `request ${x.remaining + 1} of a budget of ${x.remaining} was not refused` });
      }
      if (x.firstRefusal < x.remaining) ctx.fail({ rule: 'the budget reported by getRateLimits is honoured', expected: `refusals only after ${x.remaining} requests`, got: `refused at request ${x.firstRefusal + 1}`, message: `refused before the reported budget was spent` });
      const e = errorOf(x.refusal.response!)!;
      if (e.code !== rateLimitError.code) ctx.fail({ pointer: '/error/code', rule: 'rate limits answer with their documented code', expected: String(rateLimitError.code), got: show(e.code), message: `rate-limit code ${show(e.code)}` });
      if (e.message !== rateLimitError.message) ctx.fail({ pointer: '/error/message', rule: 'rate limits answer with their documented message', expected: rateLimitError.message, got: show(e.message), message: `rate-limit message ${show(e.message)}` });
    },
  },
  {
    id: 'ratelimit.retry-hint',
    title: `The rate-limit error carries data "${rateLimitError.data}"`,
    section: S.errors,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const x = await exhausted(ctx);
      if (!x.refusal) return ctx.inconclusive('no rate-limit error came back (see ratelimit.exceeded)');
      const e = errorOf(x.refusal.response!)!;
      if (typeof e.data !== 'string' || !new RegExp(rateLimitError.dataPattern).test(e.data)) ctx.fail({ pointer: '/error/data', rule: `data matches ${rateLimitError.dataPattern}`, expected: rateLimitError.data, got: show(e.data), message: `hint ${show(e.data)} is not of the documented form` });
      else if (x.hint === 0 && x.remaining > 0) ctx.fail({ pointer: '/error/data', rule: 'the hint is the time until a request is allowed', expected: 'more than 0 ms while refusing', got: e.data, message: 'the hint says retry at once while refusing' });
    },
  },
  {
    id: 'ratelimit.not-queued',
    title: 'A request over the budget is rejected at once, not queued',
    section: `${S.errors} (nothing rejected by a limit is queued); Limits (rejected, never queued)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const x = await exhausted(ctx);
      const last = x.answers.at(-1)!;
      if (!last.response) return ctx.abort({ rule: 'rejected at once', expected: 'an answer within 3000 ms', got: 'none (queued or dropped)', message: 'the request over the budget was not answered' });
      if (!errorOf(last.response)) ctx.abort({ pointer: '/result', rule: 'rejected, never queued', expected: `error ${rateLimitError.code}`, got: show(last.response.result), message: 'the request over the budget was served' });
      if (last.latencyMs > 1500) ctx.fail({ rule: 'rejected at once', expected: 'an answer within 1500 ms', got: `${last.latencyMs} ms`, message: `the refusal took ${last.latencyMs} ms` });
    },
  },
  {
    id: 'ratelimit.window-reset',
    title: 'After the hinted wait, the budget allows requests again',
    section: `${S.tier1} (fixed windows; the window resets when it elapses)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const x = await exhausted(ctx);
      if (!x.refusal) return ctx.inconclusive('the budget was never exhausted (see ratelimit.exceeded)');
      ctx.note(`waited ${x.wait} ms (+150 ms) as told`);
      const e = errorOf(x.after);
      if (e) ctx.fail({ pointer: '/error', rule: 'the window resets after msBeforeNext', expected: 'a result', got: show(e), message: `still refused ${x.wait + 150} ms later` });
      else {
        const b = (x.after.result as Limits).remaining_non_matching;
        if (b && b.isFirstInDuration !== true && b.consumedPoints > 1) ctx.fail({ pointer: '/result/remaining_non_matching', rule: 'a new window starts', expected: 'isFirstInDuration true or consumedPoints 1', got: show(b), message: 'the window did not restart' });
      }
    },
  },
  {
    id: 'ratelimit.matching-shared',
    title: 'The matching methods share one budget',
    section: `${S.tier1} (matching: one shared per-wallet budget)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await matching(ctx);
      if (x.firstRefusal !== x.remaining) ctx.fail({ rule: 'one shared matching budget', expected: `refusal after exactly ${x.remaining} requests across ${matchingCancels.map((m) => m.name).join(', ')}`, got: x.firstRefusal < 0 ? 'no refusal' : `refusal at request ${x.firstRefusal + 1}`, message: 'the matching methods did not share one budget' });
      const e = x.firstRefusal >= 0 ? errorOf(x.answers[x.firstRefusal]!.response!) : null;
      if (e && e.code !== RATE_LIMIT_CODE) ctx.fail({ pointer: '/error/code', rule: 'rate limits answer with their documented code', expected: String(RATE_LIMIT_CODE), got: show(e.code), message: 'wrong code for the matching budget' });
    },
  },
  {
    id: 'ratelimit.cancel-all-budget',
    title: 'cancel_all has its own budget: served when the matching budget is spent',
    section: `${S.tier1} (endpoint: cancel_all, its own per-(wallet, method) budget)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await matching(ctx);
      if (x.firstRefusal < 0) ctx.inconclusive('the matching budget was never exhausted (see ratelimit.matching-shared)');
      const e = errorOf(x.cancelAll);
      if (e?.code === RATE_LIMIT_CODE) ctx.fail({ pointer: '/error', rule: 'cancel_all has its own budget', expected: 'served', got: show(e), message: 'cancel_all was refused by the spent matching budget' });
      const before = x.before.remaining_per_endpoint?.[cancelAll.name];
      const after = x.after?.remaining_per_endpoint?.[cancelAll.name];
      if (before && after && after.consumedPoints !== before.consumedPoints + 1 && !after.isFirstInDuration) ctx.fail({ pointer: `/result/remaining_per_endpoint/${cancelAll.name}/consumedPoints`, rule: 'cancel_all decrements its own budget', expected: String(before.consumedPoints + 1), got: String(after.consumedPoints), message: 'cancel_all did not count against its own budget' });
    },
  },
];

function matching(ctx: Ctx) {
  return ctx.shared('exhaust-matching', async (p) => {
    const { conn, signer, subaccount, keyed } = await budgetConnection(p, { needWallet: true });
    p.note(`budget under test: ${keyed}`);
    const inst = p.env.perp?.instrument_name ?? 'UNKNOWN';
    const before = await limits(p, conn);
    const remaining = before.remaining_matching.remainingPoints;
    const fields = (name: string): Record<string, unknown> =>
      name === method('cancel') ? { instrument_name: inst, order_id: randomUUID() } : name === method('cancelByNonce') ? { instrument_name: inst, order_nonce: '1' } : { instrument_name: inst };
    const answers: { response: RpcResponse | null }[] = [];
    for (let i = 0; i <= remaining; i++) {
      const name = matchingCancels[i % matchingCancels.length]!.name;
      answers.push({ response: await action(p, conn, signer!, name, subaccount ?? 0, fields(name), { raw: true }).catch(() => null) });
    }
    const firstRefusal = answers.findIndex((a) => a.response && errorOf(a.response)?.code === RATE_LIMIT_CODE);
    const cancelAllResponse = await action(p, conn, signer!, cancelAll.name, subaccount ?? 0, {}, { raw: true });
    const after = (await p.call(conn, getRateLimits.name, {}, { raw: true })).result as Limits | undefined;
    return { before, remaining, answers, firstRefusal, cancelAll: cancelAllResponse, after };
  }).then((x) => {
    ctx.transcript.attach(x.transcript.entries);
    return x;
  });
}

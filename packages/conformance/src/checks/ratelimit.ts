/**
 * Rate limits: getRateLimits on both transports and its cost, what is (not) decremented and under which
 * key (IP before login, the wallet after, across its connections and session keys), exceeding a budget
 * (code, message, hint, at once), the window reset, the shared matching budget, cancel_all's and
 * cancel_by_label's budgets, and the tier-2 per-instrument bucket. Budgets are read from the server.
 * Budget-consuming probes log in a fresh random wallet when the server allows it, so they do not eat
 * into the budgets other checks use; otherwise they use the caller's wallet, or the per-IP budget.
 */
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { limitTable, methodTable } from '@exchange-api/types';
import { validators, cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../context';
import { retryAfterMs } from '../context';
import type { RpcResponse, WsConn } from '../connection';
import { S, errorOf, method, rateLimitError, FINDING_MAX, validateInto } from './util';
import { action } from './orderflow';

type Budget = { remainingPoints: number; msBeforeNext: number; consumedPoints: number; isFirstInDuration: boolean };
type Limits = { remaining_matching: Budget; remaining_non_matching: Budget; remaining_per_endpoint: Record<string, Budget>; remaining_connections?: Budget };

const getRateLimits = methodTable.find((m) => m.id === 'publicGetRateLimits')!;
const cancelAll = methodTable.find((m) => m.rateLimitClass === 'endpoint')!;
/** Matching-class methods that cancel (never place) orders: safe to spend the matching budget with. */
const matchingCancels = methodTable.filter((m) => m.rateLimitClass === 'matching' && m.name.startsWith('cancel'));
/** The custom-class method with a rule by instrument (cancel_by_label), and its two budgets. */
const cancelByLabel = methodTable.find((m) => m.rateLimitClass === 'custom' && m.rateLimitRule && 'singleInstrument' in m.rateLimitRule)!;
const labelRule = cancelByLabel.rateLimitRule as { singleInstrument: string; otherwise: string };
/** The custom-class method with no per-request decrement (public/get_all_live_instruments). */
const undecremented = methodTable.find((m) => m.rateLimitClass === 'custom' && m.rateLimitRule && 'decrement' in m.rateLimitRule && m.rateLimitRule.decrement === 'none')!;
/** A label no order carries: cancel_by_label with it cancels nothing. */
const NO_LABEL = 'conformance-no-such-label';

/** Params of a matching-class cancel that cancels nothing (an order that does not exist) in one instrument. */
function cancelFields(name: string, instrument: string): Record<string, unknown> {
  if (name === method('cancel')) return { instrument_name: instrument, order_id: randomUUID() };
  if (name === method('cancelByNonce')) return { instrument_name: instrument, order_nonce: '1' };
  return { instrument_name: instrument };
}

const isRateLimited = (r: RpcResponse | null | undefined): boolean => !!r && errorOf(r)?.code === rateLimitError.code;

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

/** getRateLimits on a connection (paced under the per-IP budget before login). */
async function limits(ctx: Ctx, conn: WsConn): Promise<Limits> {
  if (!conn.loggedIn) await ctx.run.pacer.take();
  const r = await ctx.call(conn, getRateLimits.name, {}, { raw: true });
  if (errorOf(r)) ctx.abort({ pointer: '/error', rule: 'public/getRateLimits needs no authentication', expected: 'a result', got: cut(r.error, FINDING_MAX), message: 'getRateLimits was refused' });
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

/** The window turned between two readings of one budget (its count fell, or a new window began after use). */
function turned(a: Budget | undefined, b: Budget | undefined): boolean {
  if (!a || !b) return false;
  return b.consumedPoints < a.consumedPoints || (b.isFirstInDuration === true && a.consumedPoints > 0);
}

/** Requests on `spender` show on `observer`: both are connections of one wallet, so they share one budget. */
async function sharedAcross(ctx: Ctx, spender: WsConn, observer: WsConn, what: string): Promise<void> {
  const k = 3;
  for (let attempt = 0; attempt < 2; attempt++) {
    const a = (await limits(ctx, observer)).remaining_non_matching;
    for (let i = 0; i < k; i++) await limits(ctx, spender);
    const b = (await limits(ctx, observer)).remaining_non_matching;
    if (!a || !b) ctx.abort({ pointer: '/result/remaining_non_matching', rule: 'budget object', expected: 'present', got: 'missing', message: 'no remaining_non_matching' });
    if (turned(a, b)) continue;
    const grew = b.consumedPoints - a.consumedPoints;
    ctx.note(`${what}: ${k} requests on ${spender.label} showed as +${grew} on ${observer.label}`);
    if (grew < k + 1) ctx.fail({ pointer: '/result/remaining_non_matching/consumedPoints', rule: 'one budget per wallet, shared by all its connections and session keys', expected: `+${k + 1} (${k} requests on ${spender.label} and this reading)`, got: `+${grew}`, message: `${what} do not share one budget: ${k} requests on one showed as +${grew} on the other` });
    else if (grew > k + 1) ctx.observe({ text: `${what}: +${grew - k - 1} more than this check sent (other clients of the wallet)` });
    return;
  }
  ctx.inconclusive(`the window turned during every measurement (${what})`);
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
      if (errorOf(r)) ctx.abort({ pointer: '/error', rule: 'No authentication needed', expected: 'a result', got: cut(r.error, FINDING_MAX), message: 'getRateLimits was refused before login' });
      validateInto(ctx, validators.results[getRateLimits.name as 'public/getRateLimits'], r.result, 'getRateLimits result', 'RateLimitsResult', '/result');
      if (!(r.result as Limits | undefined)?.remaining_connections) ctx.observe({ text: 'remaining_connections is absent on WebSocket (optional there); the runner used the reference connection budget' });
      const r2 = await ctx.call(conn, getRateLimits.name, null);
      if (errorOf(r2)) ctx.fail({ pointer: '/error', rule: 'params empty or null', expected: 'a result for params null', got: cut(r2.error, FINDING_MAX), message: 'getRateLimits with params null was refused' });
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
      if (x.status < 200 || x.status >= 300 || (body && typeof body === 'object' && body.error)) ctx.abort({ pointer: '/error', rule: 'available on both transports', expected: 'HTTP 2xx with a result', got: `HTTP ${x.status} ${cut(body?.error ?? x.text, FINDING_MAX)}`, message: 'getRateLimits over HTTP failed' });
      validateInto(ctx, validators.results[getRateLimits.name as 'public/getRateLimits'], result, 'getRateLimits result', 'RateLimitsResult', '/result');
      if (result && typeof result === 'object' && 'remaining_connections' in result) ctx.fail({ pointer: '/result/remaining_connections', rule: 'remaining_connections is present on WebSocket only', expected: '(absent)', got: cut((result as Limits).remaining_connections, FINDING_MAX), message: 'remaining_connections came over HTTP' });
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
    id: 'ratelimit.live-instruments-free',
    title: `${undecremented.name} has no per-request decrement`,
    section: `${S.tier1} (custom: ${undecremented.name} has no per-request decrement)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const { conn, keyed } = await budgetConnection(ctx, { needWallet: false });
      ctx.note(`budget under test: ${keyed}`);
      const calls = 3;
      for (let attempt = 0; attempt < 2; attempt++) {
        const a = await limits(ctx, conn);
        for (let i = 0; i < calls; i++) {
          if (!conn.loggedIn) await ctx.run.pacer.take();
          const r = await ctx.call(conn, undecremented.name, {}, { raw: true });
          if (errorOf(r)) ctx.abort({ pointer: '/error', rule: `${undecremented.name} is served`, expected: 'a result', got: cut(r.error, FINDING_MAX), message: `${undecremented.name} was refused` });
        }
        const b = await limits(ctx, conn);
        if (turned(a.remaining_non_matching, b.remaining_non_matching) || turned(a.remaining_matching, b.remaining_matching)) continue;
        for (const key of ['remaining_non_matching', 'remaining_matching'] as const) {
          const want = key === 'remaining_non_matching' ? 1 : 0;
          const got = (b[key]?.consumedPoints ?? NaN) - (a[key]?.consumedPoints ?? NaN);
          if (got !== want) ctx.fail({ pointer: `/result/${key}/consumedPoints`, rule: `${undecremented.name}: no per-request decrement (only the second getRateLimits costs a point)`, expected: `${a[key]?.consumedPoints} + ${want}`, got: `${b[key]?.consumedPoints} (${calls} calls of ${undecremented.name} in between)`, message: `${key} went ${a[key]?.consumedPoints} → ${b[key]?.consumedPoints} over ${calls} calls of ${undecremented.name} and one getRateLimits` });
        }
        return;
      }
      ctx.inconclusive('the window turned during every measurement');
    },
  },
  {
    id: 'ratelimit.wallet-shared',
    title: 'All connections and session keys of one wallet share one budget',
    section: `${S.tier1} (all connections and session keys of one wallet share one budget)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      // Two connections of one wallet (a fresh one when the server lets it log in).
      const { conn: one, signer, keyed } = await budgetConnection(ctx, { needWallet: true });
      ctx.note(`budget under test: ${keyed}`);
      const two = await ctx.connect();
      await ctx.mustLogin(two, signer!);
      await sharedAcross(ctx, one, two, 'two connections of one wallet');
      await one.close();
      await two.close();
      // A session key of the caller's wallet: only when the key given is that wallet's.
      const o = ctx.options;
      if (!o.sessionKey || !o.sessionWallet || !o.key || o.sessionWallet.toLowerCase() !== o.key.address.toLowerCase()) {
        ctx.observe({ text: 'session keys sharing the wallet budget: not checked (needs --session-key with --wallet set to the --key wallet)' });
        return;
      }
      const byWallet = await ctx.connect();
      await ctx.mustLogin(byWallet, o.key);
      const byKey = await ctx.connect();
      await ctx.mustLogin(byKey, o.sessionKey, { wallet: o.sessionWallet });
      await sharedAcross(ctx, byKey, byWallet, 'a session-key connection and a wallet-signed one');
    },
  },
  {
    id: 'ratelimit.keyed-by-ip-then-wallet',
    title: 'Traffic before login counts against the per-IP budget, not the wallet’s',
    section: `${S.tier1} (authenticated traffic is keyed by wallet; public pre-authentication traffic by source IP)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const { conn: wallet, keyed } = await budgetConnection(ctx, { needWallet: true });
      ctx.note(`wallet budget under test: ${keyed}`);
      const anon = await ctx.connect();
      const k = 3;
      for (let attempt = 0; attempt < 2; attempt++) {
        const ip0 = (await limits(ctx, anon)).remaining_non_matching;
        const w0 = (await limits(ctx, wallet)).remaining_non_matching;
        for (let i = 0; i < k; i++) await limits(ctx, anon);
        const w1 = (await limits(ctx, wallet)).remaining_non_matching;
        const ip1 = (await limits(ctx, anon)).remaining_non_matching;
        if (!ip0 || !w0 || !w1 || !ip1) ctx.abort({ pointer: '/result/remaining_non_matching', rule: 'budget object', expected: 'present', got: 'missing', message: 'no remaining_non_matching' });
        if (turned(ip0, ip1) || turned(w0, w1)) continue;
        const walletGrew = w1.consumedPoints - w0.consumedPoints;
        const ipGrew = ip1.consumedPoints - ip0.consumedPoints;
        ctx.note(`wallet budget +${walletGrew}, IP budget +${ipGrew} around ${k} requests before login`);
        if (walletGrew !== 1) ctx.fail({ pointer: '/result/remaining_non_matching/consumedPoints', rule: 'pre-authentication traffic is keyed by source IP (not by a wallet)', expected: `the wallet budget +1 (its own getRateLimits only)`, got: `+${walletGrew} around ${k} requests on a connection not logged in`, message: `requests before login counted against the wallet's budget (+${walletGrew})` });
        if (ipGrew < k + 1) ctx.fail({ pointer: '/result/remaining_non_matching/consumedPoints', rule: 'pre-authentication traffic is keyed by source IP', expected: `the IP budget +${k + 1} at least (${k} requests and the reading)`, got: `+${ipGrew}`, message: `requests before login did not count against the per-IP budget (+${ipGrew})` });
        else if (ipGrew === k + 3) ctx.fail({ pointer: '/result/remaining_non_matching/consumedPoints', rule: 'authenticated traffic is keyed by wallet', expected: `the IP budget +${k + 1}`, got: `+${ipGrew}: the 2 logged-in readings counted too`, message: 'requests after login counted against the per-IP budget as well' });
        else if (ipGrew > k + 1) ctx.observe({ text: `the IP budget grew by ${ipGrew - k - 1} more than this check sent: other clients on this IP` });
        return;
      }
      ctx.inconclusive('the window turned during every measurement');
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
        return ctx.abort({ pointer: '/result', rule: 'a request that exceeds the budget is rejected', expected: `error ${rateLimitError.code}`, got: last.response ? cut(last.response.result ?? last.response, FINDING_MAX) : 'no answer', message: `request ${x.remaining + 1} of a budget of ${x.remaining} was not refused` });
      }
      if (x.firstRefusal < x.remaining) ctx.fail({ rule: 'the budget reported by getRateLimits is honoured', expected: `refusals only after ${x.remaining} requests`, got: `refused at request ${x.firstRefusal + 1}`, message: `refused before the reported budget was spent` });
      const e = errorOf(x.refusal.response!)!;
      if (e.code !== rateLimitError.code) ctx.fail({ pointer: '/error/code', rule: 'rate limits answer with their documented code', expected: String(rateLimitError.code), got: cut(e.code, FINDING_MAX), message: `rate-limit code ${cut(e.code, FINDING_MAX)}` });
      if (e.message !== rateLimitError.message) ctx.fail({ pointer: '/error/message', rule: 'rate limits answer with their documented message', expected: rateLimitError.message, got: cut(e.message, FINDING_MAX), message: `rate-limit message ${cut(e.message, FINDING_MAX)}` });
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
      if (typeof e.data !== 'string' || !new RegExp(rateLimitError.dataPattern).test(e.data)) ctx.fail({ pointer: '/error/data', rule: `data matches ${rateLimitError.dataPattern}`, expected: rateLimitError.data, got: cut(e.data, FINDING_MAX), message: `hint ${cut(e.data, FINDING_MAX)} is not of the documented form` });
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
      if (!errorOf(last.response)) ctx.abort({ pointer: '/result', rule: 'rejected, never queued', expected: `error ${rateLimitError.code}`, got: cut(last.response.result, FINDING_MAX), message: 'the request over the budget was served' });
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
      if (e) ctx.fail({ pointer: '/error', rule: 'the window resets after msBeforeNext', expected: 'a result', got: cut(e, FINDING_MAX), message: `still refused ${x.wait + 150} ms later` });
      else {
        const b = (x.after.result as Limits).remaining_non_matching;
        if (b && b.isFirstInDuration !== true && b.consumedPoints > 1) ctx.fail({ pointer: '/result/remaining_non_matching', rule: 'a new window starts', expected: 'isFirstInDuration true or consumedPoints 1', got: cut(b, FINDING_MAX), message: 'the window did not restart' });
      }
    },
  },
  {
    id: 'ratelimit.matching-shared',
    title: 'The matching methods share one budget',
    section: `${S.tier1} (matching: one shared per-wallet budget); ${S.errors} (rule 2)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await matching(ctx);
      const at = (i: number) => `request ${i + 1} (${x.probes[i]!.method} in ${x.probes[i]!.instrument})`;
      ctx.note(`${x.remaining} requests spread over ${x.spread.join(', ')} and ${matchingCancels.map((m) => m.name).join(', ')}; request ${x.remaining + 1} in ${x.fresh}, untouched before, so its bucket cannot refuse it`);
      if (x.firstRefusal !== x.remaining) ctx.fail({ rule: 'one shared matching budget', expected: `refusal of request ${x.remaining + 1} exactly (in ${x.fresh}, whose bucket is full: only the shared budget can refuse it)`, got: x.firstRefusal < 0 ? `no refusal in ${x.probes.length} requests` : `refusal at ${at(x.firstRefusal)}`, message: x.firstRefusal < 0 ? `${x.probes.length} matching requests spread over ${matchingCancels.length} methods passed a shared budget of ${x.remaining}` : `refused at ${at(x.firstRefusal)}, not after ${x.remaining}` });
      const e = x.firstRefusal >= 0 ? errorOf(x.probes[x.firstRefusal]!.response!) : null;
      if (e && e.code !== rateLimitError.code) ctx.fail({ pointer: '/error/code', rule: 'rate limits answer with their documented code', expected: String(rateLimitError.code), got: cut(e.code, FINDING_MAX), message: 'wrong code for the matching budget' });
    },
  },
  {
    id: 'ratelimit.cancel-all-budget',
    title: `${cancelAll.name} has its own budget: served when the matching budget is spent`,
    section: `${S.tier1} (endpoint: ${cancelAll.name}, its own per-(wallet, method) budget)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await matching(ctx);
      if (x.firstRefusal < 0) ctx.inconclusive('the matching budget was never exhausted (see ratelimit.matching-shared)');
      const e = x.cancelAll && errorOf(x.cancelAll);
      if (e?.code === rateLimitError.code) ctx.fail({ pointer: '/error', rule: `${cancelAll.name} has its own budget`, expected: 'served', got: cut(e, FINDING_MAX), message: `${cancelAll.name} was refused by the spent matching budget` });
      const before = x.before.remaining_per_endpoint?.[cancelAll.name];
      const after = x.after?.remaining_per_endpoint?.[cancelAll.name];
      if (before && after && after.consumedPoints !== before.consumedPoints + 1 && !after.isFirstInDuration) ctx.fail({ pointer: `/result/remaining_per_endpoint/${cancelAll.name}/consumedPoints`, rule: `${cancelAll.name} decrements its own budget`, expected: String(before.consumedPoints + 1), got: String(after.consumedPoints), message: `${cancelAll.name} did not count against its own budget` });
    },
  },
  {
    id: 'ratelimit.cancel-by-label-budget',
    title: `${cancelByLabel.name} draws on the matching budget when limited to one instrument, otherwise on its own`,
    section: `${S.tier1} (custom: ${cancelByLabel.name} uses the matching budget when limited to a single instrument, otherwise a dedicated per-method budget)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await matching(ctx);
      const l = x.label;
      const m0 = l.before.remaining_matching;
      const m1 = l.mid.remaining_matching;
      const m2 = l.after.remaining_matching;
      // Accounting: one instrument costs a matching point; across instruments it costs none.
      if (m0 && m1 && !turned(m0, m1) && m1.consumedPoints !== m0.consumedPoints + 1) ctx.fail({ pointer: '/result/remaining_matching/consumedPoints', rule: `${cancelByLabel.name} limited to one instrument uses the ${labelRule.singleInstrument} budget`, expected: String(m0.consumedPoints + 1), got: String(m1.consumedPoints), message: `${cancelByLabel.name} with instrument_name did not count against the matching budget` });
      if (m1 && m2 && !turned(m1, m2) && m2.consumedPoints !== m1.consumedPoints) ctx.fail({ pointer: '/result/remaining_matching/consumedPoints', rule: `${cancelByLabel.name} across instruments uses its own budget`, expected: String(m1.consumedPoints), got: String(m2.consumedPoints), message: `${cancelByLabel.name} without instrument_name counted against the matching budget` });
      const own0 = l.mid.remaining_per_endpoint?.[cancelByLabel.name];
      const own1 = l.after.remaining_per_endpoint?.[cancelByLabel.name];
      if (own0 && own1) ctx.observe({ text: `remaining_per_endpoint.${cancelByLabel.name} consumedPoints ${own0.consumedPoints} → ${own1.consumedPoints} across instruments`, conforms: own1.consumedPoints === own0.consumedPoints + 1 || own1.isFirstInDuration });
      else ctx.observe({ text: `getRateLimits lists no remaining_per_endpoint.${cancelByLabel.name} (the document names only cancel_all as an example)` });
      // Behaviour with the matching budget spent.
      if (x.firstRefusal < 0) return ctx.inconclusive('the matching budget was never exhausted (see ratelimit.matching-shared)');
      if (!isRateLimited(l.oneSpent)) ctx.fail({ pointer: '/result', rule: `${cancelByLabel.name} limited to one instrument uses the matching budget`, expected: `error ${rateLimitError.code} (the matching budget is spent)`, got: cut(l.oneSpent ? (l.oneSpent.error ?? l.oneSpent.result) : 'no answer', FINDING_MAX), message: `${cancelByLabel.name} in ${x.fresh} was served although the matching budget was spent` });
      if (isRateLimited(l.allSpent)) ctx.fail({ pointer: '/error', rule: `${cancelByLabel.name} across instruments uses its own budget`, expected: 'served (its own budget has points)', got: cut(l.allSpent?.error, FINDING_MAX), message: `${cancelByLabel.name} without instrument_name was refused by the spent matching budget` });
    },
  },
  {
    id: 'ratelimit.instrument-bucket',
    title: 'Order flow also passes a per-(wallet, instrument) bucket that refills continuously: no window-boundary double burst',
    section: `${S.tier2}; ${S.errors} (-32000: the per-instrument order bucket; rule 2)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await bucket(ctx);
      ctx.transcript.attach(x.transcript.entries);
      if (x.unavailable !== null) return ctx.inconclusive(x.unavailable);
      const { a, b, passes, spanMs, perWindow, windowMs } = x;
      if (!x.refusal) {
        if (passes > perWindow) ctx.fail({ rule: 'the per-instrument bucket refills continuously, so no window-boundary double burst', expected: `a ${rateLimitError.code} in ${a} once its bucket is empty, while the matching budget still has points`, got: `${passes} requests in ${a} passed within ${spanMs} ms across a window boundary (the matching budget allows ${perWindow} per ${windowMs} ms)`, message: `${passes} order-flow requests in one instrument passed within ${spanMs} ms: a window-boundary double burst` });
        else ctx.inconclusive(`the matching budget (${perWindow} per window) is too small to empty a bucket across one window boundary`);
        return;
      }
      const e = errorOf(x.refusal)!;
      if (e.message !== rateLimitError.message) ctx.fail({ pointer: '/error/message', rule: 'the bucket answers with the rate-limit error', expected: rateLimitError.message, got: cut(e.message, FINDING_MAX), message: `bucket refusal message ${cut(e.message, FINDING_MAX)}` });
      if (typeof e.data !== 'string' || !new RegExp(rateLimitError.dataPattern).test(e.data)) ctx.fail({ pointer: '/error/data', rule: `data matches ${rateLimitError.dataPattern}`, expected: rateLimitError.data, got: cut(e.data, FINDING_MAX), message: `bucket refusal hint ${cut(e.data, FINDING_MAX)}` });
      if (isRateLimited(x.other)) ctx.fail({ pointer: '/error', rule: 'the bucket is keyed by (wallet, instrument)', expected: `a request in ${b} passes (its bucket is full, the matching budget has ${x.matchingLeft} points)`, got: cut(x.other?.error, FINDING_MAX), message: `${b} was refused too: the refusal in ${a} was not per instrument` });
      const refill = x.refillHintMs ? `; right after a token was spent the hint said ${x.refillHintMs} ms, a refill of about ${(1000 / x.refillHintMs).toFixed(2)} token/s` : '';
      const capacity = x.refillHintMs ? Math.round(passes - (spanMs / x.refillHintMs)) : passes;
      ctx.observe({ assumption: 'bucket-scope', text: `${a}: ${passes} cancels passed within ${spanMs} ms across a window boundary, then ${rateLimitError.code} "${cut(e.data, FINDING_MAX)}" while the matching budget had ${x.matchingLeft} points left and ${b} still passed${x.refilledAfterMs !== null ? `; after ${x.refilledAfterMs} ms ${a} passed again (continuous refill)` : ''}${refill}. Observed capacity about ${capacity} (reference ${x.reference}).`, conforms: !isRateLimited(x.other) });
    },
  },
];

/** One matching-class request of the probes, where it went and what came back. */
interface Sent {
  method: string;
  instrument: string;
  response: RpcResponse | null;
  at: number;
}

/**
 * Spend the matching budget of a fresh wallet once per run. First cancel_by_label's accounting (one
 * instrument, then across instruments, getRateLimits around each); then the rest of the budget with
 * matching cancels of orders that do not exist, spread over the methods and over every instrument but
 * one, and one more request in that untouched instrument: its bucket is full, so only the shared
 * matching budget can refuse it. Then, with the budget spent: cancel_all and cancel_by_label both ways.
 */
function matchingProbe(ctx: Ctx) {
  return ctx.shared('exhaust-matching', async (p) => {
    const { conn, signer, subaccount, keyed } = await budgetConnection(p, { needWallet: true });
    p.note(`budget under test: ${keyed}`);
    const names = [...new Set(p.env.instruments.map((i) => i.instrument_name))];
    if (names.length < 2) return { unavailable: `needs two instruments or more from ${undecremented.name} (got ${names.length}): in one instrument the matching budget and the instrument bucket cannot be told apart` } as const;
    const send = (name: string, fields: Record<string, unknown>) => action(p, conn, signer!, name, subaccount ?? 0, fields, { raw: true }).catch(() => null);
    const fresh = names.at(-1)!;
    const spread = names.slice(0, -1);
    const label0 = await limits(p, conn);
    const tFirst = Date.now();
    const one = await send(cancelByLabel.name, { label: NO_LABEL, instrument_name: spread[0]! });
    const label1 = await limits(p, conn);
    const all = await send(cancelByLabel.name, { label: NO_LABEL });
    const before = await limits(p, conn);
    const remaining = before.remaining_matching?.remainingPoints;
    if (typeof remaining !== 'number') return { unavailable: 'getRateLimits gave no remaining_matching.remainingPoints' } as const;
    const probes: Sent[] = [];
    for (let i = 0; i <= remaining; i++) {
      const name = matchingCancels[i % matchingCancels.length]!.name;
      const instrument = i < remaining ? spread[i % spread.length]! : fresh;
      probes.push({ method: name, instrument, response: await send(name, cancelFields(name, instrument)), at: Date.now() });
    }
    const firstRefusal = probes.findIndex((x) => isRateLimited(x.response));
    const refusal = firstRefusal >= 0 ? probes[firstRefusal]! : null;
    const hint = refusal ? retryAfterMs(errorOf(refusal.response!)!.data) : null;
    const cancelAllResponse = await send(cancelAll.name, {});
    const oneSpent = await send(cancelByLabel.name, { label: NO_LABEL, instrument_name: fresh });
    const allSpent = await send(cancelByLabel.name, { label: NO_LABEL });
    const after = (await p.call(conn, getRateLimits.name, {}, { raw: true })).result as Limits | undefined;
    return {
      unavailable: null,
      signer: signer!,
      spread,
      fresh,
      before,
      remaining,
      probes,
      firstRefusal,
      // When the matching window resets (the refusal's hint), and how long a window is (from its first request).
      resetAt: refusal && hint !== null ? refusal.at + hint : null,
      windowMs: refusal && hint !== null ? refusal.at + hint - tFirst : null,
      cancelAll: cancelAllResponse,
      label: { before: label0, one, mid: label1, all, after: before, oneSpent, allSpent },
      after,
    } as const;
  });
}

/** The matching probe for a check: its transcript attached; inconclusive when it could not run. */
async function matching(ctx: Ctx) {
  const x = await matchingProbe(ctx);
  ctx.transcript.attach(x.transcript.entries);
  if (x.unavailable !== null) return ctx.inconclusive(x.unavailable);
  return x;
}

/**
 * Tier 2 (after the matching probe, same wallet): a fixed window lets two windows' worth through across
 * its boundary; the instrument bucket must not. Start the next matching window with one request in
 * instrument B, spend the rest of that window in instrument A just before it ends, then keep going in A
 * right after the boundary: the bucket, not the (fresh) matching budget, must refuse A while B passes.
 */
function bucket(ctx: Ctx) {
  return ctx.shared('instrument-bucket', async (p) => {
    const m = await matchingProbe(p);
    const base = { a: '', b: '', passes: 0, spanMs: 0, perWindow: 0, windowMs: 0, refusal: null, other: null, matchingLeft: 0, refilledAfterMs: null, refillHintMs: null, reference: '' };
    if (m.unavailable !== null) return { ...base, unavailable: m.unavailable };
    if (m.resetAt === null || m.windowMs === null) return { ...base, unavailable: 'the matching budget was never refused with a retry hint, so its window boundary is unknown (see ratelimit.matching-shared)' };
    const windowMs = Math.min(Math.max(m.windowMs, 500), 30_000);
    const conn = await p.connect();
    const [sub] = await p.mustLogin(conn, m.signer);
    const cancel = method('cancel');
    const [a, b] = [m.spread[0]!, m.fresh];
    const send = (instrument: string) => action(p, conn, m.signer, cancel, sub ?? 0, cancelFields(cancel, instrument), { raw: true }).catch(() => null);
    const until = (t: number) => p.sleep(Math.max(0, t - Date.now()));
    const type = p.env.instruments.find((i) => i.instrument_name === a)?.instrument_type;
    const ref = limitTable.find((l) => l.kind === 'bucket' && (l.instrumentTypes as readonly string[]).includes(type ?? ''));
    const reference = ref && ref.kind === 'bucket' ? `capacity ${ref.capacity}, refill ${ref.refillPerSecond}/s for ${type}` : 'none for this instrument type';

    // The next window, started by one request in B.
    await until(m.resetAt + 50);
    let t2 = Date.now();
    let start = await send(b);
    for (let i = 0; isRateLimited(start) && i < 2; i++) {
      await p.sleep((retryAfterMs(errorOf(start!)!.data) ?? 500) + 50);
      t2 = Date.now();
      start = await send(b);
    }
    if (isRateLimited(start)) return { ...base, unavailable: 'the matching budget still refused after its window should have reset' };
    const room = (await limits(p, conn)).remaining_matching?.remainingPoints ?? 0;

    // Spend the rest of this window in A just before it ends, then go on in A right after the boundary.
    const lead = Math.min(500, windowMs / 4);
    await until(t2 + windowMs - lead);
    const passed: number[] = [];
    let refusal: RpcResponse | null = null;
    let matchingLeft = 0;
    let boundaryCrossed = false;
    for (let round = 0; round < 4 && !refusal; round++) {
      const n = round === 0 ? room : m.remaining;
      for (let i = 0; i < n; i++) {
        const r = await send(a);
        if (isRateLimited(r)) {
          refusal = r;
          break;
        }
        passed.push(Date.now());
      }
      if (refusal) {
        // Which tier refused A? The matching budget has points left: the bucket did.
        const lim = await limits(p, conn);
        matchingLeft = lim.remaining_matching?.remainingPoints ?? 0;
        if (matchingLeft > 0) break;
        p.note('A was refused by the matching budget (its window had not turned yet); waiting for it');
        refusal = null;
        await p.sleep(Math.max(lim.remaining_matching?.msBeforeNext ?? 0, 20) + 50);
        boundaryCrossed = true;
      } else if (!boundaryCrossed) {
        await until(t2 + windowMs + 60);
        boundaryCrossed = true;
      } else break;
    }
    const spanMs = passed.length > 1 ? passed.at(-1)! - passed[0]! : 0;
    const result = { ...base, unavailable: null, a, b, passes: passed.length, spanMs, perWindow: m.remaining, windowMs, matchingLeft, reference };
    if (!refusal) return result;
    const other = await send(b);
    // The refill: once the hinted wait is over A passes again; right after, the hint is one token's time.
    let refilledAfterMs: number | null = null;
    let refillHintMs: number | null = null;
    const hint = retryAfterMs(errorOf(refusal)!.data);
    if (hint !== null && matchingLeft >= 3 && !isRateLimited(other)) {
      await p.sleep(hint + 30);
      if (!isRateLimited(await send(a))) {
        refilledAfterMs = hint + 30;
        const next = await send(a);
        if (isRateLimited(next)) refillHintMs = retryAfterMs(errorOf(next!)!.data);
      }
    }
    return { ...result, refusal, other, refilledAfterMs, refillHintMs };
  });
}

/**
 * Tier 2, the per-(wallet, instrument) order bucket. It is not reported by getRateLimits, so it is found
 * by behaviour (after the matching probe, with the same wallet): a fixed window lets two windows' worth
 * through across its boundary; the bucket, which refills continuously, must not.
 */
import { limitTable } from '@exchange-api/types';
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../../context';
import type { RpcResponse } from '../../connection';
import { retryAfterMs, isRetryHint } from '../../retry-hint';
import { S, errorOf, method, rateLimitError, FINDING_MAX } from '../util';
import { cancelFields, isRateLimited, limits } from './budget';
import { reportUnanswered, signedSender, type Unanswered } from './probes';
import { matchingProbe } from './matching';

/** A sender of cancels (of orders that do not exist) by instrument. */
type Send = (instrument: string) => Promise<RpcResponse | null>;

/** What the bucket probe found. */
interface BucketFindings {
  a: string;
  b: string;
  passes: number;
  spanMs: number;
  perWindow: number;
  windowMs: number;
  refusal: RpcResponse | null;
  other: RpcResponse | null;
  matchingLeft: number;
  refilledAfterMs: number | null;
  refillHintMs: number | null;
  reference: string;
  /** Requests that got no answer (the probe stops at the first: what follows would prove nothing). */
  unanswered: Unanswered[];
}

const none = (): BucketFindings => ({
  a: '',
  b: '',
  passes: 0,
  spanMs: 0,
  perWindow: 0,
  windowMs: 0,
  refusal: null,
  other: null,
  matchingLeft: 0,
  refilledAfterMs: null,
  refillHintMs: null,
  reference: '',
  unanswered: [],
});

/** The reference bucket of the instrument's type, as the limits table states it. */
function referenceBucket(p: Ctx, instrument: string): string {
  const type = p.env.instruments.find((i) => i.instrument_name === instrument)?.instrument_type;
  const ref = limitTable.find(
    (l) => l.kind === 'bucket' && (l.instrumentTypes as readonly string[]).includes(type ?? ''),
  );
  return ref && ref.kind === 'bucket'
    ? `capacity ${ref.capacity}, refill ${ref.refillPerSecond}/s for ${type}`
    : 'none for this instrument type';
}

/**
 * Start the next matching window with one request in B; returns when it started, or null when B stayed refused or got
 * no answer.
 */
async function startWindow(p: Ctx, send: Send, b: string): Promise<number | null> {
  let t2 = Date.now();
  let start = await send(b);
  for (let i = 0; isRateLimited(start) && i < 2; i++) {
    await p.sleep((retryAfterMs(errorOf(start!)!.data) ?? 500) + 50);
    t2 = Date.now();
    start = await send(b);
  }
  return start === null || isRateLimited(start) ? null : t2;
}

/**
 * Spend `room` requests in A just before the window ends, then go on in A right after the boundary
 * (up to `perWindow` a round) until A is refused while the matching budget still has points.
 */
async function spendAcrossBoundary(
  p: Ctx,
  conn: Parameters<typeof limits>[1],
  send: Send,
  a: string,
  room: number,
  perWindow: number,
  boundary: number,
) {
  const passed: number[] = [];
  let refusal: RpcResponse | null = null;
  let matchingLeft = 0;
  let boundaryCrossed = false;
  const until = (t: number) => p.sleep(Math.max(0, t - Date.now()));
  for (let round = 0; round < 4 && !refusal; round++) {
    const n = round === 0 ? room : perWindow;
    for (let i = 0; i < n; i++) {
      const r = await send(a);
      // No answer is no evidence either way: stop here (the check reports it).
      if (r === null) return { passed, refusal: null, matchingLeft };
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
      await until(boundary + 60);
      boundaryCrossed = true;
    } else break;
  }
  return { passed, refusal, matchingLeft };
}

/** Once the hinted wait is over A passes again; right after, the hint is one token's time. */
async function measureRefill(
  p: Ctx,
  send: Send,
  a: string,
  refusal: RpcResponse,
): Promise<{ refilledAfterMs: number | null; refillHintMs: number | null }> {
  const hint = retryAfterMs(errorOf(refusal)!.data);
  if (hint === null) return { refilledAfterMs: null, refillHintMs: null };
  await p.sleep(hint + 30);
  const again = await send(a);
  if (again === null || isRateLimited(again)) return { refilledAfterMs: null, refillHintMs: null };
  const next = await send(a);
  return { refilledAfterMs: hint + 30, refillHintMs: isRateLimited(next) ? retryAfterMs(errorOf(next!)!.data) : null };
}

/** What the bucket probe answers: its findings, or why it could not run. */
type BucketResult = BucketFindings & { unavailable: string | null };

/** The matching probe's findings the bucket probe builds on. */
type Matching = Awaited<ReturnType<typeof matchingProbe>>;

/** A logged-in connection of the signer, sending cancels; requests that get no answer go to `unanswered`. */
async function cancelSender(p: Ctx, signer: NonNullable<Matching['signer']>, unanswered: Unanswered[]) {
  const conn = await p.connect();
  const [sub] = await p.mustLogin(conn, signer);
  const cancel = method('cancel');
  const signed = signedSender(p, conn, signer, sub ?? 0, unanswered);
  const send: Send = (instrument) => signed(cancel, cancelFields(cancel, instrument));
  return { conn, send };
}

/**
 * Start the next matching window with one request in instrument B, spend the rest of that window in
 * instrument A just before it ends, then keep going in A right after the boundary: the bucket, not the
 * (fresh) matching budget, must refuse A while B passes.
 */
async function probeBucket(p: Ctx): Promise<BucketResult> {
  const m = await matchingProbe(p);
  if (m.unavailable !== null) return { ...none(), unavailable: m.unavailable };
  if (m.resetAt === null || m.windowMs === null)
    return {
      ...none(),
      unavailable:
        'the matching budget was never refused with a retry hint, so its window boundary ' +
        'is unknown (see ratelimit.matching-shared)',
    };
  const windowMs = Math.min(Math.max(m.windowMs, 500), 30_000);
  const base = none();
  const { conn, send } = await cancelSender(p, m.signer, base.unanswered);
  const [a, b] = [m.spread[0]!, m.fresh];
  await p.sleep(Math.max(0, m.resetAt + 50 - Date.now()));
  const t2 = await startWindow(p, send, b);
  if (t2 === null)
    return {
      ...base,
      unavailable: base.unanswered.length
        ? null
        : 'the matching budget still refused after its window should have reset',
    };
  const room = (await limits(p, conn)).remaining_matching?.remainingPoints ?? 0;
  await p.sleep(Math.max(0, t2 + windowMs - Math.min(500, windowMs / 4) - Date.now()));
  const { passed, refusal, matchingLeft } = await spendAcrossBoundary(
    p,
    conn,
    send,
    a,
    room,
    m.remaining,
    t2 + windowMs,
  );
  const spanMs = passed.length > 1 ? passed.at(-1)! - passed[0]! : 0;
  const result = {
    ...base,
    unavailable: null,
    a,
    b,
    passes: passed.length,
    spanMs,
    perWindow: m.remaining,
    windowMs,
    matchingLeft,
    reference: referenceBucket(p, a),
  };
  if (!refusal || base.unanswered.length) return result;
  const other = await send(b);
  const refill =
    matchingLeft >= 3 && other !== null && !isRateLimited(other)
      ? await measureRefill(p, send, a, refusal)
      : { refilledAfterMs: null, refillHintMs: null };
  return { ...result, refusal, other, ...refill };
}

/** The bucket probe, run once per run and shared by the checks that read it. */
function bucket(ctx: Ctx) {
  return ctx.shared('instrument-bucket', probeBucket);
}

/** A never refused A: a double burst across the boundary fails; a budget too small to tell is inconclusive. */
function judgeUnrefused(ctx: Ctx, x: BucketFindings) {
  const { a, passes, spanMs, perWindow, windowMs } = x;
  if (passes > perWindow)
    ctx.fail({
      rule: 'the per-instrument bucket refills continuously, so no window-boundary double burst',
      expected:
        `a ${rateLimitError.code} in ${a} once its bucket is empty, while the matching ` + `budget still has points`,
      got:
        `${passes} requests in ${a} passed within ${spanMs} ms across a window boundary ` +
        `(the matching budget allows ${perWindow} per ${windowMs} ms)`,
      message:
        `${passes} order-flow requests in one instrument passed within ${spanMs} ` +
        `ms: a window-boundary double burst`,
    });
  else
    ctx.inconclusive(
      `the matching budget (${perWindow} per window) is too small to empty a bucket across one window boundary`,
    );
}

/** The bucket's refusal is the rate-limit error, and refuses only the instrument whose bucket is empty. */
function judgeRefusal(ctx: Ctx, x: BucketFindings, e: NonNullable<ReturnType<typeof errorOf>>) {
  const { a, b } = x;
  if (e.message !== rateLimitError.message)
    ctx.fail({
      pointer: '/error/message',
      rule: 'the bucket answers with the rate-limit error',
      expected: rateLimitError.message,
      got: cut(e.message, FINDING_MAX),
      message: `bucket refusal message ${cut(e.message, FINDING_MAX)}`,
    });
  if (!isRetryHint(e.data))
    ctx.fail({
      pointer: '/error/data',
      rule: `data matches ${rateLimitError.dataPattern}`,
      expected: rateLimitError.data,
      got: cut(e.data, FINDING_MAX),
      message: `bucket refusal hint ${cut(e.data, FINDING_MAX)}`,
    });
  if (isRateLimited(x.other))
    ctx.fail({
      pointer: '/error',
      rule: 'the bucket is keyed by (wallet, instrument)',
      expected: `a request in ${b} passes (its bucket is full, the matching budget has ${x.matchingLeft} points)`,
      got: cut(x.other?.error, FINDING_MAX),
      message: `${b} was refused too: the refusal in ${a} was not per instrument`,
    });
}

/** What the bucket looked like: the burst, the refusal, the refill and the capacity they imply. */
function observeBucket(ctx: Ctx, x: BucketFindings, e: NonNullable<ReturnType<typeof errorOf>>) {
  const { a, b, passes, spanMs } = x;
  const refill = x.refillHintMs
    ? `; right after a token was spent the hint said ${x.refillHintMs} ms, a refill ` +
      `of about ${(1000 / x.refillHintMs).toFixed(2)} token/s`
    : '';
  const refilled =
    x.refilledAfterMs !== null ? `; after ${x.refilledAfterMs} ms ${a} passed again (continuous refill)` : '';
  const capacity = x.refillHintMs ? Math.round(passes - spanMs / x.refillHintMs) : passes;
  ctx.observe({
    assumption: 'bucket-scope',
    text:
      `${a}: ${passes} cancels passed within ${spanMs} ms across a window boundary, ` +
      `then ${rateLimitError.code} "${cut(e.data, FINDING_MAX)}" while the matching ` +
      `budget had ${x.matchingLeft} points left and ${b} still passed${refilled}` +
      `${refill}. Observed capacity about ${capacity} (reference ${x.reference}).`,
    conforms: !isRateLimited(x.other),
  });
}

/** The per-instrument bucket check. */
export const bucketChecks: Check[] = [
  {
    id: 'ratelimit.instrument-bucket',
    title:
      'Order flow also passes a per-(wallet, instrument) bucket that refills continuously: ' +
      'no window-boundary double burst',
    section: `${S.tier2}; ${S.errors} (-32000: the per-instrument order bucket; rule 2)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const x = await bucket(ctx);
      ctx.transcript.attach(x.transcript.entries);
      // A request that got no answer is no evidence; what the probe saw after it is not judged.
      reportUnanswered(ctx, x.unanswered);
      if (x.unanswered.length) return;
      if (x.unavailable !== null) return ctx.inconclusive(x.unavailable);
      if (!x.refusal) return judgeUnrefused(ctx, x);
      const e = errorOf(x.refusal)!;
      judgeRefusal(ctx, x, e);
      observeBucket(ctx, x, e);
    },
  },
];

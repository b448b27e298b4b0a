/**
 * Reading budgets: the methods the rate-limit checks use (from the generated method table), getRateLimits
 * as read on a connection, whether a window turned between two readings, and the one retry of a
 * measurement that a turning window spoilt.
 */
import { randomUUID } from 'node:crypto';
import { methodTable } from '@exchange-api/types';
import { cut } from '@exchange-api/validators';
import type { Ctx } from '../../context';
import type { RpcResponse, WsConn } from '../../connection';
import { errorOf, method, rateLimitError, FINDING_MAX } from '../util';

/** One budget object of getRateLimits. */
export type Budget = {
  remainingPoints: number;
  msBeforeNext: number;
  consumedPoints: number;
  isFirstInDuration: boolean;
};
/** The getRateLimits result. */
export type Limits = {
  remaining_matching: Budget;
  remaining_non_matching: Budget;
  remaining_per_endpoint: Record<string, Budget>;
  remaining_connections?: Budget;
};

/** public/getRateLimits. */
export const getRateLimits = methodTable.find((m) => m.id === 'publicGetRateLimits')!;
/** The method with a budget of its own (cancel_all). */
export const cancelAll = methodTable.find((m) => m.rateLimitClass === 'endpoint')!;
/**
 * Matching-class methods that cancel (never place) orders: safe to spend the matching budget with (by the tables' short
 * names).
 */
export const matchingCancels = methodTable.filter(
  (m) => m.rateLimitClass === 'matching' && m.rateLimitKey.startsWith('cancel'),
);
/** The custom-class method with a rule by instrument (cancel_by_label), and its two budgets. */
export const cancelByLabel = methodTable.find(
  (m) => m.rateLimitClass === 'custom' && m.rateLimitRule && 'singleInstrument' in m.rateLimitRule,
)!;
/** Which budget cancel_by_label draws on, with and without an instrument. */
export const labelRule = cancelByLabel.rateLimitRule as { singleInstrument: string; otherwise: string };
/** The custom-class method with no per-request decrement (public/get_all_live_instruments). */
export const undecremented = methodTable.find(
  (m) =>
    m.rateLimitClass === 'custom' &&
    m.rateLimitRule &&
    'decrement' in m.rateLimitRule &&
    m.rateLimitRule.decrement === 'none',
)!;
/** A label no order carries: cancel_by_label with it cancels nothing. */
export const NO_LABEL = 'conformance-no-such-label';

/** Params of a matching-class cancel that cancels nothing (an order that does not exist) in one instrument. */
export function cancelFields(name: string, instrument: string): Record<string, unknown> {
  if (name === method('cancel')) return { instrument_name: instrument, order_id: randomUUID() };
  if (name === method('cancelByNonce')) return { instrument_name: instrument, nonce: '1' };
  return { instrument_name: instrument };
}

/** Whether a response is the rate-limit error. */
export const isRateLimited = (r: RpcResponse | null | undefined): boolean =>
  !!r && errorOf(r)?.code === rateLimitError.code;

/**
 * getRateLimits on a connection (paced under the per-IP budget before login; a refusal is not retried but fails the
 * check).
 */
export async function limits(ctx: Ctx, conn: WsConn): Promise<Limits> {
  const r = await ctx.call(conn, getRateLimits.name, {}, { retryRateLimited: false });
  if (errorOf(r))
    ctx.abort({
      pointer: '/error',
      rule: 'public/getRateLimits needs no authentication',
      expected: 'a result',
      got: cut(r.error, FINDING_MAX),
      message: 'getRateLimits was refused',
    });
  return r.result as Limits;
}

/** The window turned between two readings of one budget (its count fell, or a new window began after use). */
export function turned(a: Budget | undefined, b: Budget | undefined): boolean {
  if (!a || !b) return false;
  return b.consumedPoints < a.consumedPoints || (b.isFirstInDuration === true && a.consumedPoints > 0);
}

/** What a measurement says: 'turned' when a window turned during it, so it proves nothing and is taken again. */
export type Measured = 'turned' | 'done';

/**
 * Take a measurement of budget counts until it falls within one window, at most twice; the check ends
 * inconclusive when the window turned during every attempt.
 */
export async function inOneWindow(ctx: Ctx, what: string, measure: () => Promise<Measured>): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if ((await measure()) === 'done') return;
    ctx.note(`the window turned during the measurement (${what}); measuring again`);
  }
  ctx.inconclusive(`the window turned during every measurement (${what})`);
}

/** End the check as failed when a budget object is missing from a reading. */
export function missingBudget(ctx: Ctx): never {
  return ctx.abort({
    pointer: '/result/remaining_non_matching',
    rule: 'budget object',
    expected: 'present',
    got: 'missing',
    message: 'no remaining_non_matching',
  });
}

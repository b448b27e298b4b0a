/**
 * Connections within the per-IP budget, each proven admitted by a round trip: a server serves only the
 * connections it admitted, so an answer on a connection is positive evidence that it counts. A socket
 * that merely opened proves nothing: the upgrade comes before the count, and a count shared by a fleet
 * answers later still. A connection refused within the budget is not judged at once: the server may
 * still count connections of this IP that were closing (closed here, their close not yet handled there,
 * as on a busy machine); the count is read until it has let go of them, and the connection opened again.
 */
import type { Ctx } from '../context';
import type { WsConn } from '../connection';
import { connectionLimitError } from './util';
import { getRateLimits, type Limits } from './ratelimit/budget';

/** How many times a connection refused within the budget is opened again, each after the count settled. */
const REOPENS = 3;
/** How many times the count is read while waiting for it to let go of closing connections. */
const SETTLE_READS = 8;

/** What a round trip on a fresh connection showed: admitted (its remaining_connections, if reported), or refused. */
export type Admission = { admitted: true; counted: Limits['remaining_connections'] | undefined } | { admitted: false };

/**
 * Ask getRateLimits on `conn` (paced, as it is not logged in): an answer proves it admitted; the
 * refusal frame or a close shows it refused; silence ends the check inconclusive.
 */
export async function roundTrip(ctx: Ctx, conn: WsConn): Promise<Admission> {
  await ctx.run.pacer.take();
  ctx.throwIfStopped();
  const r = await conn.request(getRateLimits.name, {}, { timeoutMs: 5000 });
  ctx.throwIfStopped();
  if (r) return { admitted: true, counted: (r.response.result as Limits | undefined)?.remaining_connections };
  const refused = conn.closeInfo || conn.frames.some((f) => f.text.startsWith(connectionLimitError.textFramePrefix));
  if (refused) return { admitted: false };
  return ctx.inconclusive(
    `${conn.label} neither answered getRateLimits within 5000 ms nor was refused: ` +
      `a late answer is no evidence either way`,
  );
}

/**
 * Read remaining_connections on `reader` until the server counts no more connections of this IP than
 * the `mine` this run holds; the budget it then reports (remaining + consumed), or null when it reports
 * no remaining_connections. Inconclusive when the count never comes down.
 */
export async function settledCount(ctx: Ctx, reader: WsConn, mine: number): Promise<number | null> {
  for (let i = 0; ; i++) {
    const proof = await roundTrip(ctx, reader);
    if (!proof.admitted) return ctx.inconclusive(`${reader.label}, admitted before, was closed by the server`);
    const c = proof.counted;
    if (!c) return null;
    if (c.consumedPoints <= mine) return c.remainingPoints + c.consumedPoints;
    if (i >= SETTLE_READS)
      ctx.inconclusive(`the server still counts ${c.consumedPoints} connections of this IP, this run holding ${mine}`);
    ctx.note(
      `the server counts ${c.consumedPoints} connections of this IP (this run holds ` +
        `${mine}): waiting for the others to go`,
    );
    await ctx.sleep(250);
  }
}

/**
 * Open a connection within the budget with `open` and prove it admitted. Refused, it is closed and opened
 * again once the count (read on `reader`, beside the `held` ones) has let go of closing connections;
 * still refused after that, the check ends inconclusive (see connections.limit for a budget that is
 * wrong) unless `refusedWithin` judges it first.
 */
export async function admittedWithin(
  ctx: Ctx,
  open: () => Promise<WsConn>,
  reader: WsConn | undefined,
  held: number,
  refusedWithin?: (conn: WsConn) => Promise<void>,
): Promise<WsConn> {
  for (let attempt = 0; ; attempt++) {
    const conn = await open();
    if ((await roundTrip(ctx, conn)).admitted) return conn;
    await conn.close();
    if (attempt >= REOPENS) {
      await refusedWithin?.(conn);
      return ctx.inconclusive(
        `${conn.label} was refused within the budget ${REOPENS + 1} times, after the count had settled each time`,
      );
    }
    ctx.note(`${conn.label} was refused within the budget: waiting for the server to let go of closing connections`);
    // Without a count to read (no reader yet, or none reported), a pause before the next try.
    if (!reader || (await settledCount(ctx, reader, held)) === null) await ctx.sleep(250);
  }
}

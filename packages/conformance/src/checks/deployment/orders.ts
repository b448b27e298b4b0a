/**
 * Order flow across the endpoints of a deployment (only with --allow-order-flow, with the caller's
 * wallet as the order-flow checks use it): a nonce used on A is refused on B, and an order placed on A
 * is pushed to a subscriber on B. Every order placed is a resting buy far below the touch, cancelled
 * before the check ends.
 */
import { channelTable, fillAddress } from '@exchange-api/types';
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../../context';
import type { RpcResponse, WsConn } from '../../connection';
import { S, codeObservation, errorOf, method, refused, FINDING_MAX } from '../util';
import { assetOf, signedParams } from '../actions';
import { DECIMAL_DIGITS, decimalToUnits, truncateTo, unitsToDecimal } from '@exchange-api/types/decimal';
import { touch } from '../order-activity';
import { endpoints, walletOnAll, type Named } from './common';

/** The fields of a resting buy at half the touch (skips the check when no price or step is known). */
async function restingFields(ctx: Ctx): Promise<Record<string, unknown>> {
  const inst = ctx.env.perp;
  if (!inst?.tick_size || !inst.amount_step) return ctx.skip('the instrument list gave no tick_size/amount_step');
  const tick = decimalToUnits(inst.tick_size, DECIMAL_DIGITS) ?? 0n;
  const { bid, ask } = await touch(ctx, inst);
  const ref = bid ?? ask;
  if (ref === null) return ctx.skip(`the book of ${inst.instrument_name} had no price in the sample window`);
  const low = truncateTo(ref / 2n, tick);
  return {
    instrument_name: inst.instrument_name,
    direction: 'buy',
    order_type: 'limit',
    amount: inst.amount_step,
    limit_price: unitsToDecimal(low > 0n ? low : tick, DECIMAL_DIGITS),
    max_fee: '1000',
    label: 'conformance-deployment',
  };
}

/** The order id of an accepted order. */
const idOf = (r: RpcResponse): string | null => {
  const id = (r.result as { order?: { order_id?: unknown } } | undefined)?.order?.order_id;
  return typeof id === 'string' ? id : null;
};

/** Orders to cancel when the check ends, with the connection each was placed on. */
type Placed = { conn: WsConn; sub: number; id: string }[];

/** Cancel what the check placed (answers kept in the transcript, not judged). */
async function cancelAll(ctx: Ctx, placed: Placed): Promise<void> {
  const instrument = ctx.env.perp!.instrument_name;
  for (const p of placed)
    if (!p.conn.closeInfo)
      await ctx.call(p.conn, method('cancel'), { subaccount_id: p.sub, instrument_name: instrument, order_id: p.id });
}

/** Place one resting order on a connection; null with the reason noted when it was refused. */
async function place(ctx: Ctx, conn: WsConn, params: Record<string, unknown>, on: Named): Promise<RpcResponse> {
  const r = await ctx.call(conn, method('order'), params);
  ctx.note(`order on ${on.name}: ${errorOf(r) ? `refused ${cut(r.error, 200)}` : `accepted as ${idOf(r)}`}`);
  return r;
}

/**
 * The request A accepted, sent again on `on`: refused (evidence once `on` accepts a fresh nonce), or accepted (a
 * finding).
 */
async function replayOn(
  ctx: Ctx,
  x: { conn: WsConn; on: Named; params: Record<string, unknown>; placed: Placed; sub: number; idA: string },
): Promise<void> {
  const again = await place(ctx, x.conn, x.params, x.on);
  const e = errorOf(again);
  if (!e) {
    x.placed.push({ conn: x.conn, sub: x.sub, id: idOf(again) ?? '' });
    return ctx.fail({
      pointer: '/result',
      rule:
        'a nonce is used once by a signer: a state-changing request already accepted ' +
        'is refused, whichever endpoint it reaches',
      expected: `${x.on.name} refuses the signed order A accepted (nonce ${String(x.params.nonce)})`,
      got:
        `A accepted it as order ${x.idA}; ${x.on.name} accepted it again as order ` +
        `${idOf(again) ?? cut(again.result, FINDING_MAX)}`,
      message: `${x.on.name} accepted an order whose nonce A had already used`,
    });
  }
  ctx.observe(codeObservation(`the nonce used on A, sent again on ${x.on.name}`, e, 'AUTH_INVALID_ACTION_SIGNATURE'));
  return undefined;
}

/** The nonce A accepted, sent again on every other endpoint, and a fresh one there as the control. */
async function nonceOnce(ctx: Ctx): Promise<void> {
  const all = endpoints(ctx);
  const w = await walletOnAll(ctx, { callers: true });
  const sub = w.subaccount ?? ctx.skip('the login returned no subaccount');
  const fields = await restingFields(ctx);
  const asset = await assetOf(ctx, w.conns[0]!, fields.instrument_name);
  const placed: Placed = [];
  try {
    const params = await signedParams(w.signer, method('order'), sub, fields, asset);
    const onA = await place(ctx, w.conns[0]!, params, all[0]!);
    const idA = idOf(onA);
    if (errorOf(onA) || !idA)
      ctx.inconclusive(
        `A refused the order (${cut(onA.error ?? onA.result, 200)}), so a refusal elsewhere proves nothing`,
      );
    placed.push({ conn: w.conns[0]!, sub, id: idA });
    for (const [i, on] of all.entries()) {
      if (i === 0) continue;
      await replayOn(ctx, { conn: w.conns[i]!, on, params, placed, sub, idA });
      if (ctx.findings.length) continue;
      // A refusal is evidence only from an endpoint that accepts the same order with a fresh nonce.
      const fresh = await place(
        ctx,
        w.conns[i]!,
        await signedParams(w.signer, method('order'), sub, fields, asset),
        on,
      );
      if (errorOf(fresh) || !idOf(fresh))
        ctx.inconclusive(
          `${on.name} refused a fresh order as well (${cut(fresh.error, 200)}): its ` +
            `refusal of the used nonce proves nothing`,
        );
      placed.push({ conn: w.conns[i]!, sub, id: idOf(fresh)! });
    }
  } finally {
    await cancelAll(ctx, placed);
  }
}

/** The deployment checks of order flow. */
export const orderChecks: Check[] = [
  {
    id: 'deployment.nonce-once',
    title: 'A nonce used on one endpoint is refused on another',
    section: `${S.furtherRules} (rule 3: state-changing actions need their own EIP-712 signature); ${S.errors}`,
    level: 'SHOULD',
    needs: ['endpoints', 'key', 'order-flow'],
    run: nonceOnce,
  },
  {
    id: 'deployment.push-across',
    title: 'An order placed through one endpoint is pushed to its subscriber on another',
    section: `${S.events} ({subaccount_id}.orders carries opens)`,
    level: 'MUST',
    needs: ['endpoints', 'key', 'order-flow'],
    async run(ctx) {
      const all = endpoints(ctx);
      const w = await walletOnAll(ctx, { callers: true });
      const sub = w.subaccount ?? ctx.skip('the login returned no subaccount');
      const channel = channelTable.find((c) => c.id === 'subaccountOrders')!;
      const address = fillAddress(channel.address, { subaccount_id: sub });
      for (const [i, conn] of w.conns.entries()) {
        const r = await ctx.call(conn, method('subscribe'), { channels: [address] });
        if (refused(r, address))
          ctx.inconclusive(`${all[i]!.name} refused the subscription to ${address}: ${cut(r.error ?? r.result, 200)}`);
      }
      const fields = await restingFields(ctx);
      const from = w.conns.map((c) => c.frames.length);
      const asset = await assetOf(ctx, w.conns[0]!, fields.instrument_name);
      const placedA = await place(
        ctx,
        w.conns[0]!,
        await signedParams(w.signer, method('order'), sub, fields, asset),
        all[0]!,
      );
      const id = idOf(placedA);
      if (errorOf(placedA) || !id)
        return ctx.inconclusive(`A refused the order (${cut(placedA.error ?? placedA.result, 200)})`);
      try {
        await judgePushes(ctx, { all, conns: w.conns, from, address, id });
      } finally {
        await cancelAll(ctx, [{ conn: w.conns[0]!, sub, id }]);
      }
    },
  },
];

/** Whether a frame is a push of `address` carrying the order `id`. */
const carries = (address: string, id: string) => (f: { json: unknown }) => {
  const p = (f.json as { params?: { channel?: unknown; data?: unknown } } | undefined)?.params;
  return (
    p?.channel === address &&
    Array.isArray(p.data) &&
    p.data.some((o) => (o as { order_id?: unknown })?.order_id === id)
  );
};

/** The push on A (the control) and on every other endpoint: one that A pushed and another did not is a finding. */
async function judgePushes(
  ctx: Ctx,
  x: { all: Named[]; conns: WsConn[]; from: number[]; address: string; id: string },
): Promise<void> {
  const onA = await x.conns[0]!.waitFor(carries(x.address, x.id), 5000, x.from[0]);
  for (const [i, on] of x.all.entries()) {
    if (i === 0) continue;
    const conn = x.conns[i]!;
    const got = await conn.waitFor(carries(x.address, x.id), 3000, x.from[i]);
    if (got) {
      ctx.note(`${on.name} pushed order ${x.id} on ${x.address}`);
      continue;
    }
    if (!onA)
      ctx.inconclusive(`neither A nor ${on.name} pushed order ${x.id} on ${x.address}: see orderflow.order-accepted`);
    // Silence is evidence only from an endpoint that is at work: it answers a request sent after the wait.
    const alive = await conn.request(method('publicGetRateLimits'), {}, { timeoutMs: 5000 });
    if (!alive) ctx.inconclusive(`${on.name} pushed nothing and answered no request since: it may only be slow`);
    ctx.fail({
      rule:
        '{subaccount_id}.orders carries opens to every subscriber of the address, ' +
        'whichever endpoint it is connected to',
      expected: `a push of order ${x.id} on ${x.address} at ${on.name}, as A pushed it`,
      got:
        `A pushed it ${onA.t} ms into the run; ${on.name} nothing within 3000 ms ` +
        `more, though it answered a request since`,
      message: `the order placed on A was pushed on A but not to the subscriber on ${on.name}`,
    });
  }
}

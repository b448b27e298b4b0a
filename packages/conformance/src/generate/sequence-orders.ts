/**
 * The order life cycle (only with --allow-order-flow, and only where the spec has the order-flow methods):
 * a resting buy far below the touch is placed, seen on the subaccount's orders channel and in its open
 * orders, replaced, the replacement cancelled and gone from the open orders; a second cancel of it and a
 * replace of it are refused with a documented code, never served.
 */
import type { Wallet } from 'ethers';
import { DECIMAL_DIGITS, decimalToUnits, truncateTo, unitsToDecimal } from '@exchange-api/types/decimal';
import { signedParams } from '../checks/actions';
import { isNotification, pushOf, type WsConn } from '../connection';
import type { Instrument } from '../instruments';
import { livePerp } from './names';
import { bodyOf, documentedError, SequenceLog } from './sequence-kit';
import type { TargetEnv } from './target-env';
import { rule } from './rules';
import type { CheckResult, TargetCounts } from '../model';

const NEEDED = [
  'private/order',
  'private/replace',
  'private/cancel',
  'private/get_open_orders',
  'public/get_instrument',
  'public/get_ticker',
];
const TITLE =
  'Order life cycle: place, pushed and open, replace, cancel, gone; cancel twice and replace a cancelled order refused';

type Ctx = {
  env: TargetEnv;
  log: SequenceLog;
  conn: WsConn;
  wallet: Wallet;
  sub: number;
  inst: Instrument;
};

/** Sign and send one order-flow request; the answer's body (null when none came). */
async function act(c: Ctx, name: string, fields: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const asset = bodyOf(
    (await c.log.call(c.conn, 'public/get_instrument', { instrument_name: c.inst.instrument_name }))!,
  )?.result as { base_asset_address?: string; base_asset_sub_id?: string } | undefined;
  const instrument = asset?.base_asset_address
    ? { base_asset_address: asset.base_asset_address, base_asset_sub_id: String(asset.base_asset_sub_id ?? '0') }
    : undefined;
  const sign = () => signedParams(c.wallet, name, c.sub, fields, instrument);
  const signed = { signed: { action: name, fields, ...(instrument ? { instrument } : {}) } };
  const ex = await c.log.call(c.conn, name, await sign(), true, signed, sign);
  return ex ? bodyOf(ex) : null;
}

const orderIdOf = (body: Record<string, unknown> | null, key = 'order'): string | null => {
  const o = (body?.result as Record<string, { order_id?: unknown }> | undefined)?.[key];
  return typeof o?.order_id === 'string' ? o.order_id : null;
};

async function openIds(c: Ctx): Promise<string[] | null> {
  const r = bodyOf((await c.log.call(c.conn, 'private/get_open_orders', { subaccount_id: c.sub }))!)?.result as
    { orders?: { order_id?: unknown }[] } | undefined;
  return Array.isArray(r?.orders) ? r.orders.map((o) => String(o.order_id)) : null;
}

/** The price a resting buy can sit at: half the best bid (or ask), on the tick. */
async function restingPrice(c: Ctx): Promise<string | null> {
  const t = bodyOf((await c.log.call(c.conn, 'public/get_ticker', { instrument_name: c.inst.instrument_name }))!)
    ?.result as Record<string, unknown> | undefined;
  const ref = decimalToUnits(String(t?.best_bid_price ?? t?.b ?? t?.best_ask_price ?? t?.a ?? ''), DECIMAL_DIGITS);
  const tick = decimalToUnits(String(c.inst.tick_size ?? ''), DECIMAL_DIGITS) ?? 0n;
  if (ref === null || ref <= 0n || tick <= 0n) return null;
  const low = truncateTo(ref / 2n, tick);
  return unitsToDecimal(low > 0n ? low : tick, DECIMAL_DIGITS);
}

function expectRefusal(c: Ctx, what: string, body: Record<string, unknown> | null): void {
  if (!body) c.log.inconclusive(`no answer to ${what}`);
  else if ('result' in body)
    c.log.fail(
      rule('order-action-refused', `${what} is refused`),
      'a documented error code',
      `a result: ${JSON.stringify(body.result).slice(0, 200)}`,
      undefined,
      { kind: 'refused' },
    );
  else if (documentedError(c.env, body)) c.log.pass();
  else
    c.log.fail('error-code-documented', 'a documented code', JSON.stringify(body.error), undefined, {
      kind: 'refused',
    });
}

async function lifeCycle(c: Ctx): Promise<void> {
  const from = c.conn.frames.length;
  const channel = `${c.sub}.orders`;
  await c.log.call(c.conn, c.env.spec.subscribe, { channels: [channel] });
  const price = await restingPrice(c);
  if (!price) return c.log.inconclusive('no price to rest an order at (no ticker or tick size)');
  const base = {
    instrument_name: c.inst.instrument_name,
    direction: 'buy',
    order_type: 'limit',
    amount: String(c.inst.amount_step),
    max_fee: '1000',
    label: 'conformance-generated',
  };
  const placed = await act(c, 'private/order', { ...base, limit_price: price });
  const id = orderIdOf(placed);
  if (!id)
    return c.log.fail(
      'order-accepted',
      'a result with order.order_id',
      JSON.stringify(placed?.error ?? placed).slice(0, 300),
      undefined,
      { kind: 'served' },
    );
  c.log.pass();
  const pushed = await c.conn.waitFor(
    (f) => isNotification(f.json) && pushOf(f).channel === channel && JSON.stringify(pushOf(f).data).includes(id),
    3000,
    from,
  );
  if (pushed) c.log.pass();
  else c.log.inconclusive(`no push of ${id} on ${channel} within 3000 ms`);
  const open1 = await openIds(c);
  if (open1?.includes(id)) c.log.pass();
  else c.log.fail('order-open', id, JSON.stringify(open1));
  const replaced = await act(c, 'private/replace', { ...base, limit_price: price, order_id_to_cancel: id });
  const newId = orderIdOf(replaced);
  if (newId && orderIdOf(replaced, 'cancelled_order') === id) c.log.pass();
  else
    return c.log.fail(
      'order-replaced',
      `cancelled_order ${id} and a new order`,
      JSON.stringify(replaced).slice(0, 300),
    );
  await cancelAndAfter(c, base, price, id, newId);
}

/** Cancel the replacement; both gone from the open orders; a second cancel and a replace of it refused. */
async function cancelAndAfter(
  c: Ctx,
  base: Record<string, unknown>,
  price: string,
  id: string,
  newId: string,
): Promise<void> {
  const cancelled = await act(c, 'private/cancel', { instrument_name: c.inst.instrument_name, order_id: newId });
  if (cancelled && 'result' in cancelled) c.log.pass();
  else
    c.log.fail('order-cancelled', 'a result', JSON.stringify(cancelled).slice(0, 300), undefined, {
      kind: 'served',
    });
  const open2 = await openIds(c);
  if (open2 && !open2.includes(id) && !open2.includes(newId)) c.log.pass();
  else c.log.fail('orders-gone', `neither ${id} nor ${newId}`, JSON.stringify(open2));
  expectRefusal(
    c,
    'a second cancel of a cancelled order',
    await act(c, 'private/cancel', { instrument_name: c.inst.instrument_name, order_id: newId }),
  );
  expectRefusal(
    c,
    'a replace of a cancelled order',
    await act(c, 'private/replace', { ...base, limit_price: price, order_id_to_cancel: newId }),
  );
}

/** Run the order life cycle on the session's logged-in connection. */
export async function runOrderLifeCycle(env: TargetEnv): Promise<{ result: CheckResult; counts: TargetCounts }> {
  const log = new SequenceLog(env, 'order-life-cycle', 'login');
  const missing = NEEDED.filter((n) => !env.spec.methods.some((m) => m.name === n));
  // The life cycle needs our spec's signed order methods: on another spec, the reason names what it lacks.
  const skip = missing.length
    ? `the order life cycle places, replaces and cancels signed orders: the spec ${env.spec.title} has ` +
      `${missing.length === NEEDED.length ? 'none' : 'not all'} of the methods it needs (no ${missing.join(', ')})`
    : !env.allowOrderFlow
      ? 'needs --allow-order-flow (the runner never places orders without it)'
      : env.session.noLogin;
  if (skip || !env.session.wallet) return log.result(TITLE, skip ?? 'no login');
  const conn = await env.session.conn('login');
  // The list names the instruments; kind, tick size and amount step are the records' (instruments.ts).
  const inst = await livePerp(env.spec, async (m, p) => bodyOf((await log.call(conn, m, p))!)?.result);
  if (!inst) return log.result(TITLE, 'no live perp with a tick size and an amount step');
  await lifeCycle({ env, log, conn, wallet: env.session.wallet, sub: env.session.subaccounts[0]!, inst });
  return log.result(TITLE);
}

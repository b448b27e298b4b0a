/**
 * Order flow (only with --allow-order-flow): a resting order and its cancel, a small crossing order, and
 * the action signature. Params follow the spec's Assumed*Params (the document does not show them).
 */
import { Wallet } from 'ethers';
import { methodTable } from '@exchange-api/types';
import { validators, cut } from '@exchange-api/validators';
import { newNonce, signAction } from '@exchange-api/auth';
import type { Check, Ctx, Instrument } from '../context';
import type { RpcResponse, WsConn } from '../connection';
import { S, codeObservation, errorOf, method, FINDING_MAX } from './util';
import { publicSamples, privateSamples, pushesOf } from './samples';

const SCALE = 10n ** 12n;

/** A decimal string as an integer count of 1e-12 units (null when it is not a decimal). */
export function toUnits(s: string): bigint | null {
  const m = /^(-?)([0-9]+)(?:\.([0-9]{1,12}))?$/.exec(s.trim());
  if (!m) return null;
  const v = BigInt(m[2]!) * SCALE + BigInt((m[3] ?? '').padEnd(12, '0') || '0');
  return m[1] ? -v : v;
}

/** Units back to a decimal string without trailing zeros. */
export function fromUnits(u: bigint): string {
  const neg = u < 0n;
  const a = neg ? -u : u;
  const frac = (a % SCALE).toString().padStart(12, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${a / SCALE}${frac ? `.${frac}` : ''}`;
}

function roundTo(value: bigint, step: bigint): bigint {
  return step > 0n ? (value / step) * step : value;
}

/** The best bid and ask of the instrument from the public samples (null when the book was empty). */
async function touch(p: Ctx, inst: Instrument): Promise<{ bid: bigint | null; ask: bigint | null }> {
  const samples = await publicSamples(p);
  const books = pushesOf(samples, 'orderbook').filter((x) => (x.data as { instrument_name?: unknown })?.instrument_name === inst.instrument_name);
  const last = books.at(-1)?.data as { bids?: [string, string][]; asks?: [string, string][] } | undefined;
  const first = (side?: [string, string][]) => (Array.isArray(side) && side[0] ? toUnits(String(side[0][0])) : null);
  return { bid: first(last?.bids), ask: first(last?.asks) };
}

/** Sign and send one order-flow request. */
export async function action(p: Ctx, conn: WsConn, signer: Wallet, name: string, subaccount: number, fields: Record<string, unknown>, opts: { raw?: boolean } = {}): Promise<RpcResponse> {
  const params = await signAction(signer, name, { ...fields, subaccount_id: subaccount, nonce: newNonce(), signature_expiry_sec: Math.floor(Date.now() / 1000) + 600 });
  return p.call(conn, name, params, { raw: opts.raw ?? false });
}

/** What the order activity did. */
export interface Activity {
  resting: RpcResponse | null;
  cancel: RpcResponse | null;
  crossing: RpcResponse | null;
  orderId: string | null;
}

/**
 * Place a resting buy far below the touch, cancel it, then buy the smallest amount at the ask. Runs on a
 * logged-in connection subscribed to the private channels, so their pushes are sampled meanwhile.
 */
export async function orderActivity(p: Ctx, conn: WsConn, subaccount: number): Promise<void> {
  const out: Activity = { resting: null, cancel: null, crossing: null, orderId: null };
  p.run.memo.set('order-activity', Promise.resolve(out));
  const key = p.options.key!;
  const inst = p.env.perp;
  if (!inst?.tick_size || !inst.amount_step) return;
  const tick = toUnits(inst.tick_size) ?? 0n;
  const step = toUnits(inst.amount_step) ?? 0n;
  const { bid, ask } = await touch(p, inst);
  const ref = bid ?? ask;
  if (ref === null || step <= 0n) return;
  const amount = fromUnits(step);
  const low = roundTo(ref / 2n, tick);
  out.resting = await action(p, conn, key, method('order'), subaccount, { instrument_name: inst.instrument_name, direction: 'buy', order_type: 'limit', amount, limit_price: fromUnits(low > 0n ? low : tick), max_fee: '1000', label: 'conformance' });
  const order = (out.resting.result as { order?: { order_id?: unknown } } | undefined)?.order;
  out.orderId = typeof order?.order_id === 'string' ? order.order_id : null;
  if (out.orderId) out.cancel = await action(p, conn, key, method('cancel'), subaccount, { instrument_name: inst.instrument_name, order_id: out.orderId });
  if (ask !== null) {
    const worst = roundTo(ask + ask / 20n + tick, tick);
    out.crossing = await action(p, conn, key, method('order'), subaccount, { instrument_name: inst.instrument_name, direction: 'buy', order_type: 'market', amount, limit_price: fromUnits(worst), max_fee: '1000', label: 'conformance' });
  }
}

async function activity(ctx: Ctx): Promise<Activity> {
  const samples = await privateSamples(ctx);
  ctx.transcript.attach(samples.transcript.entries);
  const a = (await ctx.run.memo.get('order-activity')) as Activity | undefined;
  if (!a || !a.resting) ctx.skip('no order could be placed: the instrument list gave no tick_size/amount_step or the book had no price');
  return a;
}

const orderMethod = methodTable.find((m) => m.id === 'order')!;

export const orderflowChecks: Check[] = [
  {
    id: 'orderflow.order-accepted',
    title: 'A signed resting order is accepted and appears on the orders channel',
    section: `${S.events} ({subaccount_id}.orders carries opens); ${S.furtherRules} (rule 3)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const a = await activity(ctx);
      const r = a.resting!;
      if (errorOf(r)) ctx.abort({ pointer: '/error', rule: 'a valid signed order is accepted', expected: 'a result', got: cut(r.error, FINDING_MAX), message: 'the resting order was refused' });
      const assumed = validators.assumedResults[orderMethod.name as keyof typeof validators.assumedResults];
      if (assumed) ctx.observe({ assumption: 'order-flow-results', text: `order result ${assumed(r.result) ? 'follows' : 'does not follow'} the assumed {order, trades}`, conforms: !!assumed(r.result) });
      const samples = await privateSamples(ctx);
      const seen = pushesOf(samples, 'subaccountOrders').some((x) => Array.isArray(x.data) && x.data.some((o) => (o as { order_id?: unknown }).order_id === a.orderId));
      if (!seen) ctx.fail({ rule: '{subaccount_id}.orders carries opens', expected: `an Order with order_id ${a.orderId}`, got: 'no such push', message: 'the new order was not pushed on the orders channel' });
    },
  },
  {
    id: 'orderflow.cancel',
    title: 'Cancelling the resting order is answered and pushed as cancelled',
    section: `${S.events} ({subaccount_id}.orders carries cancels); ${S.states}`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const a = await activity(ctx);
      const cancel = a.cancel;
      if (!cancel) return ctx.skip('the resting order returned no order_id to cancel');
      if (errorOf(cancel)) ctx.abort({ pointer: '/error', rule: 'cancel of an open order', expected: 'a result', got: cut(cancel.error, FINDING_MAX), message: 'the cancel was refused' });
      const samples = await privateSamples(ctx);
      const seen = pushesOf(samples, 'subaccountOrders').some((x) => Array.isArray(x.data) && x.data.some((o) => (o as { order_id?: unknown; order_status?: unknown }).order_id === a.orderId && (o as { order_status?: unknown }).order_status === 'cancelled'));
      if (!seen) ctx.fail({ rule: '{subaccount_id}.orders carries cancels', expected: `Order ${a.orderId} with order_status cancelled`, got: 'no such push', message: 'the cancel was not pushed on the orders channel' });
    },
  },
  {
    id: 'orderflow.action-signature',
    title: 'An order whose action signature is not the signer’s is refused, even after login',
    section: `${S.furtherRules} (rule 3: state-changing actions need their own signature)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const key = ctx.options.key!;
      const inst = ctx.env.perp;
      if (!inst) return ctx.skip('no instrument known');
      const conn = await ctx.connect();
      const [sub] = await ctx.mustLogin(conn, key);
      if (sub === undefined) return ctx.skip('the login returned no subaccount');
      const stranger = Wallet.createRandom();
      const signed = await signAction(stranger, method('order'), { instrument_name: inst.instrument_name, direction: 'buy', order_type: 'limit', amount: inst.amount_step ?? '1', limit_price: inst.tick_size ?? '1', max_fee: '1000', subaccount_id: sub, nonce: newNonce(), signature_expiry_sec: Math.floor(Date.now() / 1000) + 600 });
      // Claim the caller as signer while the signature is another key's.
      const r = await ctx.call(conn, method('order'), { ...signed, signer: key.address });
      if (!errorOf(r)) ctx.fail({ pointer: '/result', rule: 'state-changing actions need their own EIP-712 signature regardless of login', expected: 'an error', got: cut(r.result, FINDING_MAX), message: 'an order with a foreign action signature was accepted' });
      else ctx.observe(codeObservation('foreign action signature', errorOf(r), 'AUTH_INVALID_ACTION_SIGNATURE'));
    },
  },
];

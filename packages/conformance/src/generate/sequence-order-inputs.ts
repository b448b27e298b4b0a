/**
 * Generated valid order inputs, each signed freshly (only with --allow-order-flow): every form of a
 * decimal the params schema allows for the amount, the limit price and the fee ("1.5", "1.50", "01.5", a
 * JSON number, where the schema's pattern or type accepts it), and every value of the enumerations a
 * resting limit order can take. Each order rests far from the touch and must be accepted; each is then
 * cancelled, and a cancelled order is gone from the open orders (the state after a cancel). An order the
 * cancel left open is cleaned up by cancel_all.
 */
import type { Wallet } from 'ethers';
import { DECIMAL_DIGITS, decimalToUnits, truncateTo, unitsToDecimal } from '@exchange-api/types/decimal';
import { signedParams } from '../checks/actions';
import type { WsConn } from '../connection';
import { ClassTally } from './coverage';
import { shapeOf } from './shape';
import type { Instrument } from '../instruments';
import { livePerp } from './names';
import { bodyOf, documentedError, SequenceLog } from './sequence-kit';
import type { TargetEnv } from './target-env';
import type { CheckResult, TargetCounts } from '../model';

const units = (s: string) => decimalToUnits(s, DECIMAL_DIGITS);
const decimal = (u: bigint) => unitsToDecimal(u, DECIMAL_DIGITS);

const NEEDED = [
  'private/order',
  'private/cancel',
  'private/get_open_orders',
  'public/get_instrument',
  'public/get_ticker',
  'public/get_all_live_instruments',
];
const TITLE = 'Generated valid orders, each signed freshly: accepted, then cancelled and gone from the open orders';
const DECIMALS = ['amount', 'limit_price', 'max_fee'] as const;
/** Enumerations a resting limit order can take; the others make another kind of order (trigger, algo). */
const ORDER_ENUMS = ['direction', 'order_type', 'time_in_force'];
/** Enumerated values that would trade against the book instead of resting: never sent. */
const TRADES = new Set(['order_type=market']);
/** Values that end the order at once when it cannot fill: a refusal for that reason is theirs to give. */
const CANNOT_REST = new Set(['time_in_force=ioc', 'time_in_force=fok']);
/** Codes that say the input itself is wrong: never the answer to a valid input. */
const INPUT_CODES = new Set([-32600, -32602]);

/** The coverage classes of this sequence. */
const CLASSES = ['valid decimal form', 'valid enum value', 'state after cancel'] as const;

type Fields = Record<string, unknown>;
interface Variant {
  cls: (typeof CLASSES)[number];
  why: string;
  fields: Fields;
  /** An order that cannot rest (ioc, fok far from the touch) may be refused for it with a documented code. */
  mayRefuse?: boolean;
}
interface Ctx {
  env: TargetEnv;
  log: SequenceLog;
  tally: ClassTally;
  conn: WsConn;
  wallet: Wallet;
  sub: number;
  instrument: string;
  asset: { base_asset_address: string; base_asset_sub_id: string } | undefined;
}

/** Other spellings of a decimal: a trailing zero, a leading zero, a JSON number (the schema keeps what it allows). */
export function decimalForms(v: string): unknown[] {
  return [v.includes('.') ? `${v}0` : `${v}.0`, `0${v}`, Number(v)];
}

/** The values of an enumerated member (through anyOf branches such as `TimeInForce | null`). */
function enumOf(doc: Record<string, unknown>, schema: unknown): string[] {
  const s = shapeOf(doc, schema as never);
  const all = s.enum ?? s.branches.flatMap((b) => shapeOf(doc, b).enum ?? []);
  return all.filter((x): x is string => typeof x === 'string');
}

function variants(c: Ctx, buy: Fields, sellPrice: string): { list: Variant[]; unsent: string[]; kinds: string[] } {
  const m = c.env.spec.methods.find((x) => x.name === 'private/order')!;
  const props = shapeOf(c.env.values.doc, m.params).props;
  const list: Variant[] = [{ cls: 'valid enum value', why: 'the resting buy as the life cycle sends it', fields: buy }];
  for (const k of DECIMALS)
    for (const f of decimalForms(String(buy[k])))
      list.push({ cls: 'valid decimal form', why: `/${k} = ${JSON.stringify(f)}`, fields: { ...buy, [k]: f } });
  const unsent: string[] = [];
  for (const k of ORDER_ENUMS)
    for (const v of props[k] ? enumOf(c.env.values.doc, props[k]) : []) {
      if (buy[k] === v) continue;
      if (TRADES.has(`${k}=${v}`)) unsent.push(`/${k} = ${v}`);
      else {
        const fields = { ...buy, [k]: v, ...(k === 'direction' && v === 'sell' ? { limit_price: sellPrice } : {}) };
        list.push({ cls: 'valid enum value', why: `/${k} = ${v}`, fields, mayRefuse: CANNOT_REST.has(`${k}=${v}`) });
      }
    }
  // The other enumerations (trigger, algo) make another kind of order: named in the table, not sent.
  const kinds = Object.keys(props)
    .filter((k) => !ORDER_ENUMS.includes(k))
    .flatMap((k) => enumOf(c.env.values.doc, props[k]).map((v) => `/${k} = ${v}`));
  return { list, unsent, kinds };
}

/** Sign and send one request on the logged-in connection; the answer's body (null when none came). */
async function act(c: Ctx, name: string, fields: Fields): Promise<Record<string, unknown> | null> {
  const sign = () => signedParams(c.wallet, name, c.sub, fields, name === 'private/order' ? c.asset : undefined);
  const signed =
    name === 'private/order' ? { signed: { action: name, fields, ...(c.asset ? { instrument: c.asset } : {}) } } : {};
  const ex = await c.log.call(c.conn, name, await sign(), true, signed, sign);
  return ex ? bodyOf(ex) : null;
}

async function openIds(c: Ctx): Promise<string[] | null> {
  const ex = await c.log.call(c.conn, 'private/get_open_orders', { subaccount_id: c.sub });
  const r = bodyOf(ex!)?.result as { orders?: { order_id?: unknown }[] } | undefined;
  return Array.isArray(r?.orders) ? r.orders.map((o) => String(o.order_id)) : null;
}

/** Place one variant; cancel it where it rests; it is gone from the open orders after. */
async function placeAndCancel(c: Ctx, v: Variant): Promise<void> {
  const placed = await act(c, 'private/order', v.fields);
  const order = (placed?.result as { order?: { order_id?: unknown } } | undefined)?.order;
  const code = (placed?.error as { code?: unknown } | undefined)?.code;
  if (v.mayRefuse && documentedError(c.env, placed) && !INPUT_CODES.has(code as number)) {
    c.tally.ran(v.cls, 'pass');
    return c.log.pass();
  }
  if (typeof order?.order_id !== 'string') {
    c.tally.ran(v.cls, 'fail');
    return c.log.fail(
      'order-input-accepted',
      `a result with order.order_id for ${v.why}`,
      `${v.why}: ${JSON.stringify(placed?.error ?? placed).slice(0, 300)}`,
      undefined,
      { kind: 'served' },
    );
  }
  c.tally.ran(v.cls, 'pass');
  c.log.pass();
  const id = order.order_id;
  // An ioc or fok order far from the touch ends at once: there is nothing to cancel.
  if (!(await openIds(c))?.includes(id)) return;
  c.tally.generated('state after cancel');
  const cancelled = await act(c, 'private/cancel', { instrument_name: c.instrument, order_id: id });
  if (!cancelled || !('result' in cancelled)) {
    c.tally.ran('state after cancel', 'inconclusive');
    c.log.inconclusive(`the cancel of ${id} (${v.why}) got ${JSON.stringify(cancelled?.error ?? cancelled)}`);
    return cleanUp(c);
  }
  const open = await openIds(c);
  const gone = open !== null && !open.includes(id);
  c.tally.ran('state after cancel', gone ? 'pass' : 'fail');
  if (gone) return c.log.pass();
  c.log.fail('cancelled-order-gone', `open orders without ${id}`, JSON.stringify(open));
  await cleanUp(c);
}

/** An order a cancel left open is not left behind: cancel_all for the subaccount, where the spec has it. */
async function cleanUp(c: Ctx): Promise<void> {
  const ex = await c.log.call(c.conn, 'private/cancel_all', { subaccount_id: c.sub });
  if (!ex || !bodyOf(ex) || !('result' in bodyOf(ex)!))
    c.log.note(`an order may be left open on subaccount ${c.sub}: cancel_all was not served`);
}

async function prices(c: Ctx, tick: bigint): Promise<{ buy: string; sell: string } | null> {
  const t = bodyOf((await c.log.call(c.conn, 'public/get_ticker', { instrument_name: c.instrument }))!)?.result as
    Record<string, unknown> | undefined;
  const bid = units(String(t?.best_bid_price ?? t?.b ?? ''));
  const ask = units(String(t?.best_ask_price ?? t?.a ?? ''));
  const ref = bid && bid > 0n ? bid : ask;
  if (!ref || ref <= 0n || tick <= 0n) return null;
  const low = truncateTo(ref / 2n, tick);
  const high = truncateTo((ask && ask > ref ? ask : ref) * 2n, tick);
  return { buy: decimal(low > 0n ? low : tick), sell: decimal(high) };
}

async function run(c: Ctx, inst: Instrument): Promise<string | null> {
  const p = await prices(c, units(String(inst.tick_size ?? '')) ?? 0n);
  if (!p) return 'no price to rest an order at (no ticker or tick size)';
  const buy = {
    instrument_name: c.instrument,
    direction: 'buy',
    order_type: 'limit',
    amount: String(inst.amount_step),
    limit_price: p.buy,
    max_fee: '1000',
    label: 'conformance-generated',
  };
  const m = c.env.spec.methods.find((x) => x.name === 'private/order')!;
  const { list, unsent, kinds } = variants(c, buy, p.sell);
  for (const v of list) {
    // A spelling the schema refuses is not a valid input of this spec: it is not sent. Nor is one our signer
    // cannot encode (it refuses what the spec's Decimal pattern refuses): no input this run could sign.
    const probe = await signedParams(c.wallet, m.name, c.sub, v.fields, c.asset).catch(() => null);
    if (!probe || !c.env.schemas.valid(m.params, probe)) continue;
    c.tally.generated(v.cls);
    if (Date.now() > c.env.deadline) continue;
    await placeAndCancel(c, v);
  }
  c.tally.notReached('the --duration passed');
  if (unsent.length) {
    c.tally.generated('valid enum value: trades', unsent.length);
    c.tally.notReached(`would trade against the book, not rest: ${unsent.join(', ')}`);
  }
  if (kinds.length) {
    c.tally.generated('valid enum value: other order kinds', kinds.length);
    c.tally.notReached(`a trigger or algo order, which this sequence does not place: ${kinds.join(', ')}`);
  }
  return null;
}

/** Generated valid orders on the session's logged-in connection. */
export async function runOrderInputs(env: TargetEnv): Promise<{ result: CheckResult; counts: TargetCounts }> {
  const log = new SequenceLog(env, 'order-inputs', 'login');
  const tally = new ClassTally();
  const missing = NEEDED.filter((n) => !env.spec.methods.some((m) => m.name === n));
  const skip = missing.length
    ? `generated orders need the spec's signed order methods: the spec ${env.spec.title} has no ${missing.join(', ')}`
    : !env.allowOrderFlow
      ? 'needs --allow-order-flow (the runner never places orders without it)'
      : env.session.noLogin;
  const done = (why: string | null = null) => {
    const r = log.result(TITLE, why);
    // Skipped, the table still names the classes this sequence covers, each with the reason.
    const classes = why
      ? CLASSES.map((cls) => ({ cls, cases: 0, run: 0, pass: 0, fail: 0, notReached: why }))
      : tally.list();
    return { ...r, counts: { ...r.counts, classes } };
  };
  if (skip || !env.session.wallet) return done(skip ?? 'no login');
  const conn = await env.session.conn('login');
  // The list names the instruments; kind, tick size and amount step are the records' (instruments.ts).
  const inst = await livePerp(env.spec, async (m, p) => bodyOf((await log.call(conn, m, p))!)?.result);
  if (!inst) return done('no live perp with a tick size and an amount step');
  const instrument = String(inst.instrument_name);
  const got = bodyOf((await log.call(conn, 'public/get_instrument', { instrument_name: instrument }))!)?.result as
    { base_asset_address?: string; base_asset_sub_id?: unknown } | undefined;
  const asset = got?.base_asset_address
    ? { base_asset_address: got.base_asset_address, base_asset_sub_id: String(got.base_asset_sub_id ?? '0') }
    : undefined;
  const sub = env.session.subaccounts[0]!;
  const c: Ctx = { env, log, tally, conn, wallet: env.session.wallet, sub, instrument, asset };
  const why = await run(c, inst);
  if (why) log.inconclusive(why);
  return done();
}

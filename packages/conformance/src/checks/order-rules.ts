/**
 * The order rules a bot relies on (only with --allow-order-flow): a trigger order waits for its price,
 * reduce_only never opens a position, a fill never charges more than the signed max_fee, a subaccount
 * never trades with itself, and a session key's scope bounds what it signs. The document shows the
 * Order's states and fields and who may sign, not these rules; the venue's clients (ccxt's error table,
 * derive-ts) show them, so all but the signer's scope are SHOULD. Each order is the smallest amount step,
 * placed by a fresh random wallet when the server lets one log in (no position, no open orders of
 * the caller's); a server that refuses one skips the checks that need a flat account.
 */
import { Wallet } from 'ethers';
import { newNonce, signAction } from '@exchange-api/auth';
import { cut } from '@exchange-api/validators';
import type { Check, Ctx, Instrument } from '../context';
import type { RpcResponse, WsConn } from '../connection';
import { action, assetOf, signedParams } from './actions';
import { DECIMAL_DIGITS, decimalToUnits, truncateTo, unitsToDecimal } from '@exchange-api/types/decimal';
import { touch } from './order-activity';
import { S, codeObservation, errorOf, method, FINDING_MAX } from './util';

const units = (s: string) => decimalToUnits(s, DECIMAL_DIGITS);
const decimal = (u: bigint) => unitsToDecimal(u, DECIMAL_DIGITS);

/** A flat account on its own connection, and the instrument's units and touch. */
interface Flat {
  conn: WsConn;
  signer: Wallet;
  sub: number;
  inst: Instrument;
  tick: bigint;
  amount: string;
  ask: bigint;
  bid: bigint | null;
}

async function flatAccount(ctx: Ctx): Promise<Flat> {
  const inst = ctx.env.perp;
  if (!inst?.tick_size || !inst.amount_step) return ctx.skip('no instrument with tick_size and amount_step known');
  const tick = units(inst.tick_size) ?? 0n;
  const step = units(inst.amount_step) ?? 0n;
  const { bid, ask } = await touch(ctx, inst);
  if (ask === null || tick <= 0n || step <= 0n) return ctx.skip('the order book showed no ask to price against');
  const conn = await ctx.connect();
  const signer = Wallet.createRandom() as unknown as Wallet;
  await ctx.login(conn, signer);
  if (!conn.loggedIn?.[0]) return ctx.skip('needs a fresh wallet with no position, and the server refused one');
  return { conn, signer, sub: conn.loggedIn[0], inst, tick, amount: decimal(step), ask, bid };
}

/** A buy that crosses the ask by 5 % and a tick: filled at once unless something stops it. */
const crossing = (f: Flat, extra: Record<string, unknown> = {}) => ({
  instrument_name: f.inst.instrument_name,
  direction: 'buy',
  order_type: 'limit',
  time_in_force: 'ioc',
  amount: f.amount,
  limit_price: decimal(truncateTo(f.ask + f.ask / 20n + f.tick, f.tick)),
  max_fee: '1000',
  label: 'conformance',
  ...extra,
});

type OrderResult = {
  order?: { order_id?: unknown; order_status?: unknown };
  trades?: { trade_id?: unknown; trade_fee?: unknown }[];
};
const resultOf = (r: RpcResponse) => (r.result ?? {}) as OrderResult;
const traded = (r: RpcResponse) => (resultOf(r).trades ?? []).length > 0;

export const orderRuleChecks: Check[] = [
  {
    id: 'orderrules.trigger-rests',
    title: 'A stop order whose trigger price is far off does not fill at once: it waits untriggered (or is refused)',
    section: `${S.states} (Order: untriggered); Resources and their fields › Order (trigger_type, trigger_price)`,
    level: 'SHOULD',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const f = await flatAccount(ctx);
      const trigger = decimal(truncateTo(f.ask * 3n, f.tick));
      const r = await action(ctx, f.conn, f.signer, method('order'), f.sub, {
        ...crossing(f, { time_in_force: 'gtc' }),
        trigger_type: 'stoploss',
        trigger_price: trigger,
        trigger_price_type: 'mark',
      });
      const error = errorOf(r);
      if (error) {
        ctx.observe({ text: `a stop order was refused: ${cut(error, 200)}` });
        return;
      }
      const status = resultOf(r).order?.order_status;
      const id = resultOf(r).order?.order_id;
      if (typeof id === 'string')
        await ctx.call(f.conn, 'private/cancel_trigger_order', { subaccount_id: f.sub, order_id: id });
      if (traded(r) || status !== 'untriggered')
        ctx.fail({
          pointer: '/result',
          rule: 'a trigger order rests until its trigger price is crossed',
          expected: `order_status untriggered and no trades (stop-loss buy, trigger ${trigger}, ask ${decimal(f.ask)})`,
          got: cut(r.result, FINDING_MAX),
          message: traded(r)
            ? 'a stop order far from its trigger filled at once'
            : 'a stop order was not left untriggered',
        });
    },
  },
  {
    id: 'orderrules.reduce-only',
    title: 'A reduce_only order never opens a position',
    section: 'Resources and their fields › Order (reduce_only; ccxt’s derive error table: 11025 Reduce only reject)',
    level: 'SHOULD',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const f = await flatAccount(ctx);
      const r = await action(ctx, f.conn, f.signer, method('order'), f.sub, crossing(f, { reduce_only: true }));
      if (traded(r))
        ctx.fail({
          pointer: '/result/trades',
          rule: 'reduce_only never opens or increases a position',
          expected: 'an error, or no fill (the account holds no position)',
          got: cut(r.result, FINDING_MAX),
          message: 'a reduce_only buy with no position opened one',
        });
      if (errorOf(r))
        ctx.observe(codeObservation('reduce_only with no position', errorOf(r), 'RPC_REDUCE_ONLY_REJECT'));
    },
  },
  {
    id: 'orderrules.max-fee',
    title: 'A fill never charges more than the signed max_fee (max_fee 0 with a positive fee is refused)',
    section:
      'Resources and their fields › Order (max_fee; ccxt’s derive error table: 11023 Max fee order param is too low)',
    level: 'SHOULD',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const f = await flatAccount(ctx);
      const r = await action(ctx, f.conn, f.signer, method('order'), f.sub, crossing(f, { max_fee: '0' }));
      const charged = (resultOf(r).trades ?? []).filter((t) => (units(String(t.trade_fee ?? '0')) ?? 0n) > 0n);
      if (charged.length > 0)
        ctx.fail({
          pointer: '/result/trades',
          rule: 'no fill charges more than the signed max_fee',
          expected: 'an error, or fills with no fee',
          got: cut(charged, FINDING_MAX),
          message: 'an order signed with max_fee 0 was filled and charged a fee',
        });
      if (errorOf(r)) ctx.observe(codeObservation('max_fee 0 on a crossing order', errorOf(r), 'RPC_MAX_FEE_TOO_LOW'));
    },
  },
  {
    id: 'orderrules.self-trade',
    title: 'An order never fills against a resting order of its own subaccount',
    section: 'Resources and their fields › Trade (trade_id shared by the two sides); ccxt’s derive error table: 11007',
    level: 'SHOULD',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const f = await flatAccount(ctx);
      const price = f.ask - f.tick;
      if (f.bid === null || price <= f.bid) return ctx.inconclusive('no price inside the spread to rest a sell at');
      const sell = await action(ctx, f.conn, f.signer, method('order'), f.sub, {
        ...crossing(f, { direction: 'sell', time_in_force: 'gtc' }),
        limit_price: decimal(price),
      });
      const sellId = resultOf(sell).order?.order_id;
      if (errorOf(sell) || typeof sellId !== 'string')
        return ctx.inconclusive(`the resting sell was not placed (${cut(sell.error ?? sell.result, 120)})`);
      const buy = await action(ctx, f.conn, f.signer, method('order'), f.sub, {
        ...crossing(f),
        limit_price: decimal(price),
      });
      await action(ctx, f.conn, f.signer, method('cancel'), f.sub, {
        instrument_name: f.inst.instrument_name,
        order_id: sellId,
      });
      if (errorOf(buy))
        return ctx.observe(codeObservation('a buy crossing its own sell', errorOf(buy), 'RPC_SELF_CROSSING'));
      const ids = new Set((resultOf(buy).trades ?? []).map((t) => t.trade_id));
      if (ids.size === 0) return;
      const history = await ctx.call(f.conn, 'private/get_trade_history', { subaccount_id: f.sub, order_id: sellId });
      const sellTrades = (history.result as { trades?: { trade_id?: unknown }[] } | undefined)?.trades;
      if (!Array.isArray(sellTrades))
        return ctx.inconclusive(
          'the buy filled, and private/get_trade_history did not say what the sell filled against',
        );
      const own = sellTrades.filter((t) => ids.has(t.trade_id));
      if (own.length > 0)
        ctx.fail({
          pointer: '/result/trades',
          rule: 'a subaccount never trades with itself',
          expected: 'an error, or fills against others only',
          got: cut(own, FINDING_MAX),
          message: 'a buy filled against a resting sell of its own subaccount',
        });
    },
  },
  {
    id: 'orderrules.session-key-scope',
    title: 'An order signed by a session key registered without a trading scope is refused',
    section: `${S.whoMaySign} (a session key's authority is bounded by its access scopes); ${S.furtherRules} (rule 3)`,
    level: 'MUST',
    needs: ['key', 'order-flow'],
    async run(ctx) {
      const f = await flatAccount(ctx);
      const key = Wallet.createRandom() as unknown as Wallet;
      const now = Math.floor(Date.now() / 1000);
      const registration = await signAction(f.signer, 'private/set_session_key', {
        wallet: f.signer.address,
        public_session_key: key.address,
        expiry_sec: now + 3600,
        protocol_scopes: [],
        offchain_scopes: ['account_info'],
        nonce: newNonce(),
        signature_expiry_sec: now + 600,
      } as never);
      const reg = await ctx.call(f.conn, 'private/set_session_key', registration);
      if (errorOf(reg)) return ctx.skip(`the server registered no read-only session key (${cut(reg.error, 120)})`);
      const low = truncateTo(f.ask / 2n, f.tick);
      const params = await signedParams(
        key,
        method('order'),
        f.sub,
        { ...crossing(f, { time_in_force: 'gtc' }), limit_price: decimal(low > 0n ? low : f.tick) },
        await assetOf(ctx, f.conn, f.inst.instrument_name),
        f.signer.address,
      );
      const r = await ctx.call(f.conn, method('order'), params);
      const id = resultOf(r).order?.order_id;
      if (!errorOf(r)) {
        if (typeof id === 'string')
          await ctx.call(f.conn, method('cancel'), {
            subaccount_id: f.sub,
            instrument_name: f.inst.instrument_name,
            order_id: id,
          });
        return ctx.fail({
          pointer: '/result',
          rule: "a session key's authority is bounded by its access scopes",
          expected: 'an error (the key has no trading scope)',
          got: cut(r.result, FINDING_MAX),
          message: 'an order signed by a read-only session key was accepted',
        });
      }
      ctx.observe(codeObservation('order signed by a read-only key', errorOf(r), 'AUTH_INVALID_ACTION_SIGNATURE'));
    },
  },
];

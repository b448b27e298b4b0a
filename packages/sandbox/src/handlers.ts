/**
 * The method handlers, keyed by methodTable's names. Each one runs after the pipeline has checked
 * login, budgets, params and the action signature, so it only does what its method does.
 */
import { nonceText } from './actions';
import type { Connection } from './connection';
import type { Market } from './market';
import type { CallContext, Handler } from './pipeline';
import { readProof } from './pipeline';
import { RpcFailure } from './rpc';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from './subscriptions';
import { ownSubaccount, ownWallet, readHandlers } from './handlers-reads';
import type { HandlerParts } from './handler-parts';
import { triggerOrderHandlers } from './handlers/trigger-orders';
import { sessionKeyHandlers } from './handlers/session-keys';
import { transferHandlers } from './handlers/transfers';
import { cancelOnDisconnectHandlers } from './handlers/cancel-on-disconnect';
import { mmpHandlers } from './handlers/mmp';
import { algoOrderHandlers } from './handlers/algo-orders';
import { positionHandlers } from './handlers/positions';
import { marketDataHandlers } from './handlers/market-reads';
import { vaultHandlers } from './handlers/vaults';
import { accountChainHandlers } from './handlers/account-chain';
import { marginHandlers } from './handlers/margin';
import { debugHandlers } from './handlers/debug';
import { rfqHandlers } from './handlers/rfq';
import { orderQuoteHandlers } from './handlers/order-quote';

export type { HandlerParts } from './handler-parts';

type PlaceParams = Parameters<Market['place']>[1];
type ReplaceParams = Parameters<Market['replace']>[1];
type Scoped = { subaccount_id: number; instrument_name?: string };

/**
 * The status map of a subscription result. A Map first and an object last, so that an address such as
 * `__proto__` is an entry like any other instead of touching the object's prototype.
 */
class StatusMap {
  private readonly entries = new Map<string, string>();
  /** Record a verdict; an address listed twice keeps "ok" once it has it. */
  set(address: string, verdict: string): void {
    if (this.entries.get(address) !== 'ok') this.entries.set(address, verdict);
  }
  toJSON(): Record<string, string> {
    return Object.fromEntries(this.entries);
  }
}

const subscriptionResult = (conn: Connection, status: StatusMap) => ({
  status: status.toJSON(),
  current_subscriptions: [...conn.subscriptions],
});

function subscriptionHandlers({ access, index }: HandlerParts): Record<string, Handler> {
  return {
    subscribe: (ctx, p: { channels: string[] }) => {
      const conn = ctx.conn!;
      const status = new StatusMap();
      for (const address of p.channels) {
        if (conn.subscriptions.has(address)) {
          status.set(address, 'ok');
          continue;
        }
        if (conn.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          status.set(address, `Too many subscriptions (at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} per connection)`);
          continue;
        }
        const verdict = access.check(conn.session, address);
        if ('reason' in verdict) status.set(address, verdict.reason);
        else {
          index.add(conn, address, verdict.id, verdict.params);
          status.set(address, 'ok');
        }
      }
      return subscriptionResult(conn, status);
    },
    unsubscribe: (ctx, p: { channels?: string[] | null } | null) => {
      const conn = ctx.conn!;
      const status = new StatusMap();
      for (const address of p?.channels ?? [...conn.subscriptions])
        status.set(address, index.remove(conn, address) ? 'ok' : 'Not subscribed');
      // derive-ts reads the channels left as remaining_subscriptions; current_subscriptions is subscribe's name.
      const result = subscriptionResult(conn, status);
      return { ...result, remaining_subscriptions: result.current_subscriptions };
    },
  };
}

function accountHandlers({
  accounts,
  access,
  admission,
  index,
  limits,
  market,
}: HandlerParts): Record<string, Handler> {
  return {
    'public/login': (ctx, p) => {
      const conn = ctx.conn!;
      const session = accounts.verify(readProof(p, ctx.headers), ctx.ip, true);
      conn.session = session;
      // A new login may narrow what the connection can see.
      for (const address of [...conn.subscriptions]) if (access.refused(session, address)) index.remove(conn, address);
      return session.subaccounts;
    },
    'public/getRateLimits': async (ctx: CallContext) => {
      const result: Record<string, unknown> = await limits.report(
        { wallet: ctx.session?.wallet ?? null, ip: ctx.ip },
        ctx.spent,
      );
      if (ctx.conn) result.remaining_connections = await admission.report(ctx.ip, ctx.conn.id);
      return result;
    },
    'private/get_subaccounts': (ctx, p: { wallet: string }) => {
      const session = ownWallet(ctx, p.wallet);
      return { subaccount_ids: session.subaccounts, wallet: session.wallet };
    },
    'public/get_all_live_instruments': () => market.liveInstruments(),
  };
}

/**
 * The order flow, under the wire names the public clients call (the order-flow-names assumption). A
 * cancel carries no action signature, so its subaccount is checked against the login here.
 */
function orderHandlers({ market }: HandlerParts): Record<string, Handler> {
  const count = (ctx: CallContext, p: Scoped, keep: Parameters<Market['cancelWhere']>[1]) =>
    market.cancelWhere(ownSubaccount(ctx, p.subaccount_id), keep);
  return {
    'private/order': (ctx, p: PlaceParams) => market.place(ctx.session!, p),
    'private/replace': (ctx, p: ReplaceParams) => market.replace(ctx.session!, p),
    'private/cancel': (ctx, p: Scoped & { instrument_name: string; order_id: string }) =>
      market.cancel(ownSubaccount(ctx, p.subaccount_id), p.instrument_name, p.order_id),
    'private/cancel_by_instrument': (ctx, p: Scoped & { instrument_name: string }) => ({
      cancelled_orders: count(ctx, p, (o) => o.instrument_name === p.instrument_name),
    }),
    'private/cancel_by_nonce': (ctx, p: Scoped & { instrument_name: string; nonce: string | number }) => {
      const nonce = nonceText(p.nonce);
      const n = count(ctx, p, (o) => o.instrument_name === p.instrument_name && o.nonce === nonce);
      if (n === 0)
        throw RpcFailure.of(
          'RPC_ORDER_NOT_FOUND',
          `no open order of subaccount ${p.subaccount_id} in ${p.instrument_name} with nonce ${nonce}`,
        );
      return { cancelled_orders: n };
    },
    // cancel_trigger_orders / cancel_algo_orders: true cancels the waiting trigger / working algo orders too.
    'private/cancel_all': (
      ctx,
      p: Scoped & { cancel_trigger_orders?: boolean | null; cancel_algo_orders?: boolean | null },
    ) => {
      count(ctx, p, () => true);
      if (p.cancel_trigger_orders === true) market.triggers.cancelWhere(p.subaccount_id);
      if (p.cancel_algo_orders === true) market.algos.cancelAll(p.subaccount_id);
      return 'ok';
    },
    'private/cancel_by_label': (ctx, p: Scoped & { label: string; instrument_name?: string | null }) => ({
      cancelled_orders: count(
        ctx,
        p,
        (o) => (o.label ?? '') === p.label && (p.instrument_name == null || o.instrument_name === p.instrument_name),
      ),
    }),
  };
}

/** Every handler the sandbox serves, keyed by method name. */
export function createHandlers(parts: HandlerParts): Record<string, Handler> {
  return {
    ...subscriptionHandlers(parts),
    ...accountHandlers(parts),
    ...orderHandlers(parts),
    ...readHandlers(parts),
    ...triggerOrderHandlers(parts),
    ...sessionKeyHandlers(parts),
    ...transferHandlers(parts),
    ...cancelOnDisconnectHandlers(parts),
    ...mmpHandlers(parts),
    ...algoOrderHandlers(parts),
    ...positionHandlers(parts),
    ...marketDataHandlers(parts),
    ...vaultHandlers(parts),
    ...accountChainHandlers(parts),
    ...marginHandlers(parts),
    ...debugHandlers(parts),
    ...rfqHandlers(parts),
    ...orderQuoteHandlers(parts),
  };
}

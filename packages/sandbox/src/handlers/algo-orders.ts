/** The algo-order methods (market/algos.ts works the TWAP orders): list, cancel one, cancel all. */
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount } from '../handlers-reads';
import type { Handler } from '../pipeline';

type Sub = { subaccount_id: number };

/** The algo-order handlers, keyed by method name. */
export function algoOrderHandlers({ market }: HandlerParts): Record<string, Handler> {
  const { algos } = market;
  return {
    'private/get_algo_orders': (ctx, p: Sub) => algos.ofSubaccount(ownSubaccount(ctx, p.subaccount_id)),
    'private/cancel_algo_order': (ctx, p: Sub & { order_id: string }) =>
      algos.cancel(ownSubaccount(ctx, p.subaccount_id), p.order_id),
    'private/cancel_all_algo_orders': (ctx, p: Sub) => (algos.cancelAll(ownSubaccount(ctx, p.subaccount_id)), 'ok'),
  };
}

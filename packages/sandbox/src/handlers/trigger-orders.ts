/**
 * The trigger-order methods (market/triggers.ts holds the orders): list, cancel one, cancel all. They
 * carry no action signature, so the subaccount is checked against the login here.
 */
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount } from '../handlers-reads';
import type { Handler } from '../pipeline';

type Sub = { subaccount_id: number };

/** The trigger-order handlers, keyed by method name. */
export function triggerOrderHandlers({ market }: HandlerParts): Record<string, Handler> {
  const { triggers } = market;
  return {
    'private/get_trigger_orders': (ctx, p: Sub) => ({
      subaccount_id: p.subaccount_id,
      orders: triggers.ofSubaccount(ownSubaccount(ctx, p.subaccount_id)),
    }),
    'private/cancel_trigger_order': (ctx, p: Sub & { order_id: string }) =>
      triggers.cancel(ownSubaccount(ctx, p.subaccount_id), p.order_id),
    'private/cancel_all_trigger_orders': (ctx, p: Sub) => (
      triggers.cancelWhere(ownSubaccount(ctx, p.subaccount_id)),
      'ok'
    ),
  };
}

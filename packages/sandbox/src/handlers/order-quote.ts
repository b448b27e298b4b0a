/**
 * private/order_quote and public/order_quote: an order priced without placing it (market/order-estimate.ts).
 * Both are signed like an order: the private one is verified by the pipeline for the login (its nonce
 * spent, as derive-ts signs a fresh one for each quote); the public one, with no login, here for the
 * wallet that holds the subaccount.
 */
import type { Session } from '../accounts';
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount } from '../handlers-reads';
import { estimateOrder } from '../market/order-estimate';
import type { OrderParams } from '../market/orders';
import type { Handler } from '../pipeline';
import { RpcFailure } from '../rpc';

/** The handlers, keyed by method name. */
export function orderQuoteHandlers({ market, accounts, actions, clock }: HandlerParts): Record<string, Handler> {
  const estimate = (p: OrderParams) => {
    const { instruments, margin, ledger } = market.rfq.parts;
    return estimateOrder({ instruments, margin, ledger }, p, clock.now());
  };
  return {
    'private/order_quote': (ctx, p: OrderParams) =>
      estimate({ ...p, subaccount_id: ownSubaccount(ctx, p.subaccount_id) }),
    'public/order_quote': async (ctx, p: OrderParams) => {
      // On a logged-in connection the pipeline verified it for the login, as for any trade-signed method.
      if (ctx.session) return estimate(p);
      const wallet = accounts.walletOf(p.subaccount_id);
      if (!wallet)
        throw RpcFailure.of('AUTH_ACCESS_DENIED', `subaccount ${p.subaccount_id} is not known to the sandbox`);
      // No login: the signature is checked for the wallet that holds the subaccount.
      const holder = { wallet, signer: wallet, sessionKey: null, subaccounts: [p.subaccount_id] } as unknown as Session;
      await actions.verify(holder, 'public/order_quote', p as never, ctx.ip);
      return estimate(p);
    },
  };
}

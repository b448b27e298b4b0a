/**
 * Market maker protection's methods (market/mmp.ts holds the configs and counts). Setting and
 * resetting change how orders trade, so a session key needs the trade scope for them.
 */
import { parseFixed } from '../fixed';
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount } from '../handlers-reads';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure } from '../rpc';

type Scope = { subaccount_id: number; currency?: string | null };
type SetParams = {
  subaccount_id: number;
  currency: string;
  mmp_amount_limit?: string | number;
  mmp_delta_limit?: string | number;
  mmp_frozen_time: number;
  mmp_interval: number;
};

// A setting the model cannot take: 11000, the one refusal code of order-flow settings (the table has no other).
const invalid = (data: string) => RpcFailure.of('RPC_ORDER_REJECTED', data);

function limit(field: string, v: string | number | undefined): bigint {
  if (v === undefined) return 0n;
  const x = parseFixed(v);
  if (x === null || x < 0n)
    throw invalid(`/${field}: must be a decimal from 0 up, 0 for none (got ${String(v).slice(0, 40)})`);
  return x;
}

/** The MMP handlers, keyed by method name. */
export function mmpHandlers({ market, accounts }: HandlerParts): Record<string, Handler> {
  const trading = (ctx: CallContext, p: Scope) => {
    if (!accounts.allows(ctx.session!, 'trade'))
      throw RpcFailure.of('AUTH_ACCESS_DENIED', `session key ${ctx.session!.signer} lacks the trade scope`);
    return ownSubaccount(ctx, p.subaccount_id);
  };
  return {
    'private/set_mmp_config': (ctx, p: SetParams) => {
      const subaccount = trading(ctx, p);
      if (!market.currencies.has(p.currency))
        throw RpcFailure.of(
          'RPC_CURRENCY_NOT_FOUND',
          `/currency: ${JSON.stringify(p.currency).slice(0, 40)} is not one of ${[...market.currencies].join(', ')}`,
        );
      if (!Number.isSafeInteger(p.mmp_interval) || p.mmp_interval <= 0)
        throw invalid(`/mmp_interval: milliseconds above 0 (got ${p.mmp_interval})`);
      if (!Number.isSafeInteger(p.mmp_frozen_time) || p.mmp_frozen_time < 0)
        throw invalid(`/mmp_frozen_time: milliseconds from 0 (until reset) up (got ${p.mmp_frozen_time})`);
      const amountLimit = limit('mmp_amount_limit', p.mmp_amount_limit);
      const deltaLimit = limit('mmp_delta_limit', p.mmp_delta_limit);
      market.mmp.set({
        subaccount,
        currency: p.currency,
        amountLimit,
        deltaLimit,
        intervalMs: p.mmp_interval,
        frozenMs: p.mmp_frozen_time,
      });
      const { is_frozen: _f, mmp_unfreeze_time: _u, ...set } = market.mmp.list(subaccount, p.currency)[0]!;
      return set;
    },
    'private/get_mmp_config': (ctx, p: Scope) => market.mmp.list(ownSubaccount(ctx, p.subaccount_id), p.currency),
    'private/reset_mmp': (ctx, p: Scope) => (market.mmp.reset(trading(ctx, p), p.currency), 'ok'),
  };
}

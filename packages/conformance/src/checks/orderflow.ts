/**
 * Order flow (only with --allow-order-flow): a resting order and its cancel, a small crossing order, and
 * the action signature. Params follow the spec's Assumed*Params (the document does not show them). The
 * orders themselves are placed by the order activity of the private samples (order-activity.ts).
 */
import { Wallet } from 'ethers';
import { methodTable } from '@exchange-api/types';
import { validators, cut } from '@exchange-api/validators';
import { assetOf, signedParams } from './actions';
import type { Check, Ctx } from '../context';
import { S, codeObservation, errorOf, method, FINDING_MAX } from './util';
import { pushesOf } from './samples';
import { privateSamples } from './private-samples';
import type { Activity } from './order-activity';

/** What the order activity did, with the private samples' transcript; skips the check when no order could be placed. */
async function activity(ctx: Ctx): Promise<Activity> {
  const samples = await privateSamples(ctx);
  ctx.transcript.attach(samples.transcript.entries);
  const a = samples.activity;
  if (!a || !a.resting)
    ctx.skip('no order could be placed: the instrument list gave no tick_size/amount_step or the book had no price');
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
      if (errorOf(r))
        ctx.abort({
          pointer: '/error',
          rule: 'a valid signed order is accepted',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: 'the resting order was refused',
        });
      const assumed = validators.assumedResults[orderMethod.name as keyof typeof validators.assumedResults];
      if (assumed)
        ctx.observe({
          assumption: 'order-flow-results',
          text: `order result ${assumed(r.result) ? 'follows' : 'does not follow'} the assumed {order, trades}`,
          conforms: !!assumed(r.result),
        });
      const samples = await privateSamples(ctx);
      const seen = pushesOf(samples, 'subaccountOrders').some(
        (x) => Array.isArray(x.data) && x.data.some((o) => (o as { order_id?: unknown }).order_id === a.orderId),
      );
      if (!seen)
        ctx.fail({
          rule: '{subaccount_id}.orders carries opens',
          expected: `an Order with order_id ${a.orderId}`,
          got: 'no such push',
          message: 'the new order was not pushed on the orders channel',
        });
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
      if (errorOf(cancel))
        ctx.abort({
          pointer: '/error',
          rule: 'cancel of an open order',
          expected: 'a result',
          got: cut(cancel.error, FINDING_MAX),
          message: 'the cancel was refused',
        });
      const samples = await privateSamples(ctx);
      const seen = pushesOf(samples, 'subaccountOrders').some(
        (x) =>
          Array.isArray(x.data) &&
          x.data.some(
            (o) =>
              (o as { order_id?: unknown; order_status?: unknown }).order_id === a.orderId &&
              (o as { order_status?: unknown }).order_status === 'cancelled',
          ),
      );
      if (!seen)
        ctx.fail({
          rule: '{subaccount_id}.orders carries cancels',
          expected: `Order ${a.orderId} with order_status cancelled`,
          got: 'no such push',
          message: 'the cancel was not pushed on the orders channel',
        });
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
      // Signed by a stranger's key for the caller's wallet, as the clients sign (the action-signature assumption).
      const signed = await signedParams(
        stranger,
        method('order'),
        sub,
        {
          instrument_name: inst.instrument_name,
          direction: 'buy',
          order_type: 'limit',
          amount: inst.amount_step ?? '1',
          limit_price: inst.tick_size ?? '1',
          max_fee: '1000',
        },
        await assetOf(ctx, conn, inst.instrument_name),
        key.address,
      );
      // Claim the caller as signer while the signature is another key's.
      const r = await ctx.call(conn, method('order'), { ...signed, signer: key.address });
      if (!errorOf(r))
        return ctx.fail({
          pointer: '/result',
          rule: 'state-changing actions need their own EIP-712 signature regardless of login',
          expected: 'an error',
          got: cut(r.result, FINDING_MAX),
          message: 'an order with a foreign action signature was accepted',
        });
      ctx.observe(codeObservation('foreign action signature', errorOf(r), 'AUTH_INVALID_ACTION_SIGNATURE'));
      // The refusal is evidence only from a server that accepts a validly signed order (the order activity's).
      const resting = (await privateSamples(ctx)).activity?.resting;
      if (!resting || errorOf(resting))
        ctx.inconclusive(
          `no validly signed order was accepted either (${resting ? cut(resting.error, 80) : 'none could be placed'}` +
            `; see orderflow.order-accepted), so the refusal proves nothing`,
        );
    },
  },
];

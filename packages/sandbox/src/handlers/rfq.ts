/**
 * The RFQ methods (issue 31, item 5) over the market's RFQ desk (market/rfq-*.ts): a taker's RFQs
 * (send, cancel, read, best quote), makers' quotes (send, replace, cancel, read), the taker's signed
 * execution, and position transfers. The signed ones are checked here, between the desk's checks and
 * its commit, under the rfq module with the legs' assets (actions.ts); every write needs the trade
 * scope of the login. Each call first expires what the sandbox clock has passed.
 */
import { nonceText } from '../actions';
import type { HandlerParts } from '../handler-parts';
import { ownSubaccount, ownWallet } from '../handlers-reads';
import { pageOf } from '../market/history';
import { bestQuoteOf } from '../market/rfq-best';
import { privateQuote, publicQuote, publicRfq, type QuoteEntry, type RfqEntry } from '../market/rfq-book';
import { notFound, refuseUnmodelled } from '../market/rfq-desk';
import { commitExecution, prepareExecution, type ExecuteParams } from '../market/rfq-execute';
import { readLegs, sameLegs } from '../market/rfq-legs';
import { mayQuote } from '../market/rfq-pushes';
import { cancelQuotes, commitQuote, ownOpenQuote, prepareQuote, type QuoteParams } from '../market/rfq-quotes';
import { commitTransfer, prepareTransfer, type TransferHalf } from '../market/rfq-transfer';
import type { CallContext, Handler } from '../pipeline';
import { RpcFailure } from '../rpc';
import { rfqDebugHandlers } from './rfq-debug';

const DEFAULT_PAGE = 100;
const MOST_PER_PAGE = 1000;
const STATUSES = ['open', 'filled', 'cancelled', 'expired'];

type Query = {
  subaccount_id: number;
  rfq_id?: string | null;
  quote_id?: string | null;
  rfq_subaccount_id?: number | null;
  status?: string | null;
  from_timestamp?: number | null;
  to_timestamp?: number | null;
  page?: number | null;
  page_size?: number | null;
};
type Filtered = { id: string; status: string; updated: number };

/** A read's subaccount, its status filter checked first (refused even when no record would be tested). */
function readerOf(desk: HandlerParts['market']['rfq'], ctx: CallContext, p: Query): number {
  if (p.status != null && !STATUSES.includes(p.status))
    throw RpcFailure.of('RPC_ORDER_REJECTED', `/status: one of ${STATUSES.join(', ')} (got ${p.status.slice(0, 40)})`);
  desk.sweep();
  return ownSubaccount(ctx, p.subaccount_id);
}

/** Whether a record passes a read's filters (status, id, time span on its last update). */
function passes(p: Query, e: Filtered, idField: 'rfq_id' | 'quote_id'): boolean {
  return (
    (p.status == null || e.status === p.status) &&
    (p[idField] == null || e.id === p[idField]) &&
    (p.from_timestamp == null || e.updated >= p.from_timestamp) &&
    (p.to_timestamp == null || e.updated <= p.to_timestamp)
  );
}

const page = <T>(items: T[], p: Query) => pageOf(items, p.page, Math.min(p.page_size ?? DEFAULT_PAGE, MOST_PER_PAGE));

/** The handlers, keyed by method name. */
export function rfqHandlers(parts: HandlerParts): Record<string, Handler> {
  return { ...takerHandlers(parts), ...makerHandlers(parts), ...signedHandlers(parts), ...rfqDebugHandlers(parts) };
}

/** The caller's subaccount for a write: its own, and a login with the trade scope. */
function writer({ accounts, market }: HandlerParts, ctx: CallContext, subaccount: number): number {
  ownSubaccount(ctx, subaccount);
  if (!accounts.allows(ctx.session!, 'trade'))
    throw RpcFailure.of('AUTH_ACCESS_DENIED', `session key ${ctx.session!.signer} lacks the trade scope`);
  market.rfq.sweep();
  return subaccount;
}

/** The taker's side: its RFQs and the quotes on them. */
function takerHandlers(parts: HandlerParts): Record<string, Handler> {
  const desk = parts.market.rfq;
  const reader = (ctx: CallContext, p: Query) => readerOf(desk, ctx, p);
  return {
    'private/send_rfq': (ctx, p) =>
      desk.sendRfq(ctx.session!, { ...p, subaccount_id: writer(parts, ctx, p.subaccount_id) }),
    'private/cancel_rfq': (ctx, p: { subaccount_id: number; rfq_id: string }) =>
      desk.cancelRfq(writer(parts, ctx, p.subaccount_id), p.rfq_id),
    'private/cancel_batch_rfqs': (
      ctx,
      p: { subaccount_id: number; rfq_id?: string | null; label?: string | null },
    ) => ({
      cancelled_ids: desk.cancelRfqs(writer(parts, ctx, p.subaccount_id), p),
    }),
    'private/get_rfqs': (ctx, p: Query) => {
      const sub = reader(ctx, p);
      const all = desk.book.rfqsWhere((e) => e.subaccount === sub && passes(p, e, 'rfq_id'));
      const { items, pagination } = page(all, p);
      return { rfqs: items.map((e) => desk.privateView(e)), pagination };
    },
    'private/poll_quotes': (ctx, p: Query) => {
      const sub = reader(ctx, p);
      const mine = (q: QuoteEntry) =>
        q.role === undefined && !q.isTransfer && desk.book.rfq(q.rfqId)?.subaccount === sub;
      const { items, pagination } = page(
        desk.book.quotesWhere((q) => mine(q) && passes(p, q, 'quote_id') && (p.rfq_id == null || q.rfqId === p.rfq_id)),
        p,
      );
      return { quotes: items.map(publicQuote), pagination };
    },
    'private/rfq_get_best_quote': (
      ctx,
      p: {
        subaccount_id: number;
        rfq_id?: string | null;
        direction?: 'buy' | 'sell';
        legs?: QuoteParams['legs'];
        extra_fee?: string | number | null;
      },
    ) => {
      refuseUnmodelled(p);
      const sub = reader(ctx, p);
      const e = p.rfq_id == null ? null : desk.ownRfq(sub, p.rfq_id);
      if (!e && !p.legs) throw RpcFailure.of('RPC_ORDER_REJECTED', 'name the RFQ (rfq_id) or its legs (legs)');
      const legs = p.legs ? readLegs(parts.market.rfq.parts.instruments, p.legs) : e!.legs;
      if (e && !sameLegs(e.legs, legs))
        throw RpcFailure.of('RPC_ORDER_REJECTED', `legs: not RFQ ${e.id}'s legs; leave them out to use its own`);
      return bestQuoteOf({ book: desk.book, margin: desk.parts.margin }, sub, legs, p.direction ?? 'buy', e);
    },
  };
}

/** The makers' side: the RFQs open to them and their own quotes. */
function makerHandlers(parts: HandlerParts): Record<string, Handler> {
  const desk = parts.market.rfq;
  const reader = (ctx: CallContext, p: Query) => readerOf(desk, ctx, p);
  return {
    'private/poll_rfqs': (ctx, p: Query) => {
      reader(ctx, p);
      const wallet = ctx.session!.wallet;
      const open = (e: RfqEntry) =>
        mayQuote(e, wallet) &&
        passes(p, e, 'rfq_id') &&
        (p.rfq_subaccount_id == null || e.subaccount === p.rfq_subaccount_id);
      const { items, pagination } = page(desk.book.rfqsWhere(open), p);
      return { rfqs: items.map(publicRfq), pagination };
    },
    'private/get_quotes': (ctx, p: Query) => {
      const sub = reader(ctx, p);
      const mine = (q: QuoteEntry) =>
        q.subaccount === sub && passes(p, q, 'quote_id') && (p.rfq_id == null || q.rfqId === p.rfq_id);
      const { items, pagination } = page(desk.book.quotesWhere(mine), p);
      return { quotes: items.map(privateQuote), pagination };
    },
    'private/cancel_quote': (
      ctx,
      p: {
        subaccount_id: number;
        quote_id: string;
        rfq_id?: string | null;
        label?: string | null;
        nonce?: string | number | null;
      },
    ) => {
      const q = ownOpenQuote(desk, writer(parts, ctx, p.subaccount_id), { quote_id: p.quote_id });
      if (
        (p.rfq_id != null && q.rfqId !== p.rfq_id) ||
        (p.label != null && q.label !== p.label) ||
        (p.nonce != null && q.nonce !== nonceText(p.nonce))
      )
        throw notFound(`quote ${q.id} does not match rfq_id, label or nonce as given`);
      desk.closeQuote(q, 'cancelled', 'user_request', desk.parts.clock.now());
      return privateQuote(q);
    },
    'private/cancel_batch_quotes': (ctx, p: Query & { label?: string | null; nonce?: string | number | null }) => ({
      cancelled_ids: cancelQuotes(desk, writer(parts, ctx, p.subaccount_id), p),
    }),
  };
}

/** The signed methods: quotes, executions and position transfers. */
function signedHandlers(parts: HandlerParts): Record<string, Handler> {
  const { actions } = parts;
  const desk = parts.market.rfq;
  return {
    'private/send_quote': async (ctx, p: QuoteParams) => {
      writer(parts, ctx, p.subaccount_id);
      const prepared = prepareQuote(desk, ctx.session!, p);
      await actions.verify(ctx.session!, 'private/send_quote', p as never, ctx.ip, { instruments: prepared.assets });
      return commitQuote(desk, prepared);
    },
    'private/replace_quote': async (
      ctx,
      p: QuoteParams & { quote_id_to_cancel?: string | null; nonce_to_cancel?: string | number | null },
    ) => {
      const sub = writer(parts, ctx, p.subaccount_id);
      const by = { quote_id: p.quote_id_to_cancel, nonce: p.nonce_to_cancel };
      const old = ownOpenQuote(desk, sub, by);
      if (old.rfqId !== p.rfq_id)
        throw RpcFailure.of(
          'RPC_ORDER_REJECTED',
          `rfq_id: quote ${old.id} is on RFQ ${old.rfqId}; a replacement stays on it`,
        );
      const prepared = prepareQuote(desk, ctx.session!, p);
      await actions.verify(ctx.session!, 'private/replace_quote', p as never, ctx.ip, { instruments: prepared.assets });
      ownOpenQuote(desk, sub, { quote_id: old.id });
      desk.closeQuote(old, 'cancelled', 'user_request', desk.parts.clock.now(), false);
      return { cancelled_quote: privateQuote(old), quote: commitQuote(desk, prepared), create_quote_error: null };
    },
    'private/execute_quote': async (ctx, p: ExecuteParams) => {
      writer(parts, ctx, p.subaccount_id);
      const prepared = prepareExecution(desk, p);
      await actions.verify(ctx.session!, 'private/execute_quote', p as never, ctx.ip, { instruments: prepared.assets });
      return commitExecution(desk, ctx.session!, prepared, p);
    },
    'private/transfer_positions': async (
      ctx,
      p: { wallet: string; maker_params: TransferHalf; taker_params: TransferHalf },
    ) => {
      const session = ownWallet(ctx, p.wallet);
      for (const h of [p.maker_params, p.taker_params]) writer(parts, ctx, h.subaccount_id);
      const { legs, assets } = prepareTransfer(desk, p.maker_params, p.taker_params);
      const opts = { instruments: assets, scope: 'transfer' as const };
      await actions.verify(session, 'private/send_quote', p.maker_params as never, ctx.ip, opts);
      await actions.verify(session, 'private/execute_quote', p.taker_params as never, ctx.ip, opts);
      return commitTransfer(desk, session, legs, { maker: p.maker_params, taker: p.taker_params });
    },
  };
}

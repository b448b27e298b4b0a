/**
 * The RFQ channels' pushes as things happen: an RFQ's record on `{wallet}.rfqs` to its taker's wallet
 * and to every subscribed wallet that may quote it; a quote's record on its maker's
 * `{subaccount_id}.quotes`; and the RFQ's best quotes on its taker's `{subaccount_id}.best.quotes`
 * whenever its quotes change.
 */
import { address } from '../channels';
import type { Margin } from './margin';
import { bestQuotePushes } from './rfq-best';
import { publicRfq, publishedQuote, type QuoteEntry, type RfqBook, type RfqEntry } from './rfq-book';
import type { Publisher } from './types';

/** Whether a maker's wallet may quote the RFQ: never its own taker's; only a named one when it names any. */
export const mayQuote = (e: RfqEntry, wallet: string): boolean =>
  wallet !== e.wallet && (e.counterparties === null || e.counterparties.includes(wallet));

/** Pushes the RFQ channels. */
export class RfqPushes {
  constructor(
    private readonly out: Publisher,
    private readonly deps: { book: RfqBook; margin: Margin },
    /** Every change is pushed: told of each, whoever subscribes. */
    private readonly changed: () => void,
  ) {}

  /** The RFQ's record to its taker's wallet and to the subscribed wallets that may quote it. */
  rfq(e: RfqEntry): void {
    this.changed();
    // Its taker and those who may quote it (mayQuote): everyone but named counterparties' RFQs.
    const values = e.counterparties === null ? undefined : [e.wallet, ...e.counterparties];
    this.out.publishTo('walletRfqs', [publicRfq(e)], { param: 'wallet', ...(values && { values }) });
  }

  /** The quote's record to its maker, and (unless `best` is false) the RFQ's best quotes to its taker. */
  quote(q: QuoteEntry, best = true): void {
    this.changed();
    this.out.publish(address('subaccountQuotes', { subaccount_id: q.subaccount }), [publishedQuote(q)]);
    const e = best && !q.isTransfer ? this.deps.book.rfq(q.rfqId) : undefined;
    if (e) this.best(e);
  }

  /** The RFQ's best quotes to its taker. */
  best(e: RfqEntry): void {
    this.out.publish(address('subaccountBestQuotes', { subaccount_id: e.subaccount }), bestQuotePushes(this.deps, e));
  }
}

/**
 * Channel access: whether a connection with this login may subscribe to an address, and if not, the
 * reason the subscribe result's status map gives (the subscription-result assumption).
 *
 * Addresses are subscribed exactly as spelled, so a parameter with several spellings of one value
 * would make each spelling a subscription of its own, each pushed the same data: a wallet in its 2^40
 * letter cases, a subaccount id with leading zeros. Only the canonical spelling is accepted: the
 * wallet as its EIP-55 checksummed address (what login, every payload's `wallet` and ethers give),
 * the subaccount id in plain decimal. The refusal names the spelling to use.
 */
import { matchChannel } from '@exchange-api/types';
import { normalizeAddress } from '@exchange-api/auth';
import type { Accounts, Session } from './accounts';
import { namedError } from './rpc';

/** What the market lists, as far as channel parameters need it. */
export interface Listing {
  hasInstrument(name: string): boolean;
  hasCurrency(currency: string): boolean;
}

/** A subscribable channel (its id and parameters), or the reason it is refused. */
export type Verdict = { reason: string } | { id: string; params: Record<string, string> };

/** Decides subscriptions for the subscribe handler, after login and on the heartbeat. */
export class ChannelAccess {
  constructor(
    private readonly listing: Listing,
    private readonly accounts: Accounts,
  ) {}

  /** Why an address would be refused for this login, or its channel when it may be subscribed. */
  check(session: Session | null, address: string): Verdict {
    const m = matchChannel(address);
    if (!m) return { reason: 'Invalid channel' };
    const p = m.params;
    if (p.instrument_name !== undefined && !this.listing.hasInstrument(p.instrument_name))
      return { reason: 'Unknown instrument' };
    if (p.currency !== undefined && !this.listing.hasCurrency(p.currency)) return { reason: 'Unknown currency' };
    if (p.subaccount_id !== undefined) {
      if (!/^[0-9]{1,18}$/.test(p.subaccount_id)) return { reason: 'Invalid channel' };
      const plain = p.subaccount_id.replace(/^0+(?=[0-9])/, '');
      if (plain !== p.subaccount_id)
        return { reason: `Invalid channel: write subaccount id ${p.subaccount_id} as ${plain}` };
    }
    if (p.wallet !== undefined) {
      const wallet = normalizeAddress(p.wallet);
      if (!wallet) return { reason: 'Invalid channel' };
      if (wallet !== p.wallet)
        return { reason: `Invalid channel: write the wallet in its checksummed form, ${wallet} (got ${p.wallet})` };
    }
    if (m.channel.access === 'private') {
      const denied = { reason: namedError('AUTH_ACCESS_DENIED').message };
      if (!session) return { reason: namedError('AUTH_REQUIRED').message };
      if (!this.accounts.allows(session, 'read')) return denied;
      if (p.subaccount_id !== undefined && !session.subaccounts.includes(Number(p.subaccount_id))) return denied;
      if (p.wallet !== undefined && normalizeAddress(p.wallet) !== session.wallet) return denied;
    }
    return { id: m.channel.id, params: p };
  }

  /** Whether the address is refused for this login. */
  refused(session: Session | null, address: string): boolean {
    return 'reason' in this.check(session, address);
  }
}

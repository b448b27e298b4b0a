/**
 * A sandbox's state as a whole: the ports (ports.ts) with the bus between members, alone (memory.ts)
 * or a fleet's (redis/fleet.ts). Built once, before the rest of the sandbox, by the composition root.
 */
import type { Ownership, Publisher } from '../market';
import type { SubscriptionIndex } from '../subscriptions';
import type { Accounts } from '../accounts';
import type { Handler, CallContext } from '../pipeline';
import type { Faults } from '../faults';
import type { Resting } from '../market/instrument';
import type { ActionInstrument } from '@exchange-api/auth';
import type { BookKeeper, BucketStore, NonceStore, RfqHandover, SharedRecords, SlotStore, WindowStore } from './ports';

/** What a fleet member's routing needs of its sandbox. */
export interface MemberParts {
  index: SubscriptionIndex;
  accounts: Accounts;
  handlers: Readonly<Record<string, Handler>>;
  books: BookKeeper & {
    restingOf(orderId: string): Resting | undefined;
    assetOf(instrument: string): ActionInstrument | undefined;
    /** The RFQ desk, served by one member of a fleet and handed over when it moves. */
    rfq: RfqHandover;
  };
  faults: Faults;
}

/** The pipeline's last step: another member's answer, or null when this process serves the call. */
export type Forward = (ctx: CallContext, method: string, params: unknown) => Promise<unknown> | null;

/** Everything a sandbox keeps, and the bus between members: alone (memory), or a fleet's (Redis). */
export interface SandboxState {
  windows: WindowStore;
  buckets: BucketStore;
  slots: SlotStore;
  nonces: NonceStore;
  /** Records every member holds alike (keys, whitelists, MMP, cancel on disconnect). */
  shared: SharedRecords;
  /** Which books are this process's: null alone (all of them). */
  ownership: Ownership | null;
  /** The bus the market publishes to: delivered here alone, to every member in a fleet. */
  publisher(index: SubscriptionIndex, restingOf: (orderId: string) => Resting | undefined): Publisher;
  /** The routing of calls to the member owning their book, or null alone. */
  router(parts: MemberParts): Forward | null;
  /** This member's id and books, or null alone. */
  member: { id: string; owned(): string[] } | null;
  /** Start serving (a fleet member listens on the bus and takes its share of the books). */
  start(parts: MemberParts): Promise<void>;
  /** Stop (a fleet member gives its books back and leaves). */
  leave(books: BookKeeper | null): Promise<void>;
}

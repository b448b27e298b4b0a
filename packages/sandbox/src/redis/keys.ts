/**
 * The names of everything a fleet keeps in Redis, in one place. Every key starts with `xsb:`. The part
 * in braces is the key's hash tag: on a Redis Cluster only that part picks the slot, so the keys one
 * script touches together share a tag (the fleet's own keys `{fleet}`, an IP's slots `{conn:IP}`, an
 * instrument's lease, epoch and book `{book:NAME}`); a key no script pairs with another has its own.
 */
export const keys = {
  /** Fleet members by id: a member is alive while its key exists (refreshed well within the lease). */
  alive: (member: string) => `xsb:{fleet}:alive:${member}`,
  /** The set of member ids ever seen (dead ones are pruned as they are found). */
  members: 'xsb:{fleet}:members',
  /** The source of member ids. */
  memberSeq: 'xsb:{fleet}:member-seq',
  /** The configuration every member must share (seed, instruments, accounts, session keys, limits). */
  config: 'xsb:{fleet}:config',
  /**
   * The fleet's generation: a hash (id, floor, restored:MEMBER) written when the fleet starts and kept
   * with no expiry. Gone or replaced means Redis lost the shared state (recovery.ts).
   */
  generation: 'xsb:{fleet}:generation',
  /** The wallets that logged in anywhere, with their subaccounts. */
  accounts: 'xsb:{fleet}:accounts',
  /**
   * Per-IP connection slots: a hash of member → connections held, and member@ → until when (Redis
   * time, ms) they count: each holder refreshes it every cycle, so a dead member's slots lapse.
   */
  connections: (ip: string) => `xsb:{conn:${ip}}:slots`,
  /** Which connection opened the IP's current run (member:connection). */
  connectionsFirst: (ip: string) => `xsb:{conn:${ip}}:first`,
  /** A fixed window of a tier-1 budget. */
  window: (limit: string, key: string) => `xsb:rl:${limit}:${key}`,
  /** The prefix of tier-1 windows (rate-limiter-flexible adds `:key`). */
  windowPrefix: (limit: string) => `xsb:rl:${limit}`,
  /** A tier-2 bucket of a (wallet, instrument). */
  bucket: (limit: string, key: string) => `xsb:bucket:${limit}:${key}`,
  /** A used (signer, nonce) pair, kept until its signature expires. */
  nonce: (signer: string, nonce: string) => `xsb:nonce:${signer}:${nonce}`,
  /** The member that owns an instrument's book, for as long as its lease lasts. */
  lease: (instrument: string) => `xsb:{book:${instrument}}:lease`,
  /** How many times an instrument's ownership was taken: part of its id streams, so ids never repeat. */
  epoch: (instrument: string) => `xsb:{book:${instrument}}:epoch`,
  /** The resting user orders of an instrument (order id → record), for the next owner. */
  book: (instrument: string) => `xsb:{book:${instrument}}:book`,
  /** Records every member holds alike, of one kind (key → `VERSION JSON`; shared.ts). */
  shared: (kind: string) => `xsb:{fleet}:shared:${kind}`,
  /** The source of the shared records' versions (a later change has a higher one). */
  sharedVersion: 'xsb:{fleet}:shared-version',
  /** The open RFQs and quotes (kind:id → record) of the RFQ desk served by this instrument's owner (rfq-keep.ts). */
  rfqs: (home: string) => `xsb:{book:${home}}:rfqs`,
  /** The addresses a member's connections hold (address → channel id and parameters). */
  subscriptions: (member: string) => `xsb:subs:${member}`,
} as const;

/**
 * Pub/sub channels. All share the hash tag `{bus}`: on a Redis Cluster they are shard channels of one
 * slot, whose master holds every member's subscriptions (connect.ts, publish).
 */
export const channels = {
  /** Pushed frames: every member delivers them to its own subscribers. */
  push: 'xsb:{bus}:push',
  /** A member's subscriptions changed (the message is its id). */
  subscriptions: 'xsb:{bus}:subs-changed',
  /** Requests for one member (order flow for the instruments it owns). */
  calls: (member: string) => `xsb:{bus}:call:${member}`,
  /** Requests for every member (the cancels that span instruments). */
  everyone: 'xsb:{bus}:call-all',
  /** A member found the shared state lost (the message is its id): every member re-publishes what it holds. */
  lost: 'xsb:{bus}:state-lost',
  /** A shared record changed (shared.ts): every member applies it and acknowledges. */
  shared: 'xsb:{bus}:shared',
  /** Acknowledgements of shared records to the member that changed them. */
  sharedAcks: (member: string) => `xsb:{bus}:shared-ack:${member}`,
  /** Replies (and acknowledgements) to one member. */
  replies: (member: string) => `xsb:{bus}:reply:${member}`,
} as const;

/**
 * The part of a key that picks its Redis Cluster slot, by Redis's rule: what is between the first `{`
 * and the next `}` when that is not empty, else the whole key. Keys with the same part share a slot.
 */
export function slotPart(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close <= open + 1 ? key : key.slice(open + 1, close);
}

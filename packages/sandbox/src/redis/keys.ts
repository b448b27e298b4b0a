/** The names of everything a fleet keeps in Redis, in one place. Every key starts with `xsb:`. */
export const keys = {
  /** Fleet members by id: a member is alive while its key exists (refreshed well within the lease). */
  alive: (member: string) => `xsb:alive:${member}`,
  alivePrefix: 'xsb:alive:',
  /**
   * A member's connection slots count while this key exists: refreshed with the alive key but lasting
   * longer, so a member stalled past its alive key (a loaded machine) keeps its slots.
   */
  slotsAlive: (member: string) => `xsb:slots-alive:${member}`,
  slotsAlivePrefix: 'xsb:slots-alive:',
  /** The set of member ids ever seen (dead ones are pruned as they are found). */
  members: 'xsb:members',
  /** The source of member ids. */
  memberSeq: 'xsb:member-seq',
  /** The configuration every member must share (seed, instruments, accounts, session keys, limits). */
  config: 'xsb:config',
  /** The wallets that logged in anywhere, with their subaccounts. */
  accounts: 'xsb:accounts',
  /** Per-IP connection slots: a hash of member → connections held. */
  connections: (ip: string) => `xsb:conn:${ip}`,
  /** Which connection opened the IP's current run (member:connection). */
  connectionsFirst: (ip: string) => `xsb:conn-first:${ip}`,
  /** A fixed window of a tier-1 budget. */
  window: (limit: string, key: string) => `xsb:rl:${limit}:${key}`,
  /** A tier-2 bucket of a (wallet, instrument). */
  bucket: (limit: string, key: string) => `xsb:bucket:${limit}:${key}`,
  /** A used (signer, nonce) pair, kept until its signature expires. */
  nonce: (signer: string, nonce: string) => `xsb:nonce:${signer}:${nonce}`,
  /** The member that owns an instrument's book, for as long as its lease lasts. */
  lease: (instrument: string) => `xsb:lease:${instrument}`,
  /** How many times an instrument's ownership was taken: part of its id streams, so ids never repeat. */
  epoch: (instrument: string) => `xsb:epoch:${instrument}`,
  /** The resting user orders of an instrument (order id → record), for the next owner. */
  book: (instrument: string) => `xsb:book:${instrument}`,
  /** The addresses a member's connections hold (address → channel id and parameters). */
  subscriptions: (member: string) => `xsb:subs:${member}`,
} as const;

/** Pub/sub channels. */
export const channels = {
  /** Pushed frames: every member delivers them to its own subscribers. */
  push: 'xsb:push',
  /** A member's subscriptions changed (the message is its id). */
  subscriptions: 'xsb:subs-changed',
  /** Requests for one member (order flow for the instruments it owns). */
  calls: (member: string) => `xsb:call:${member}`,
  /** Requests for every member (the cancels that span instruments). */
  everyone: 'xsb:call-all',
  /** Replies to one member. */
  replies: (member: string) => `xsb:reply:${member}`,
} as const;

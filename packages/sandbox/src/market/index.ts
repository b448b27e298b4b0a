/** The simulated market (see market.ts); the server imports it from here. */
export { Market, type Ownership } from './market';
export { QUOTE_SIGNED_FIELDS, quoteAction, legsHash } from './rfqs';
export type { Publisher, Cadence, Producer, OrderOutcome, OrderFields, ActionFieldsLike, PrivateTrade } from './types';

/** The simulated market (see market.ts); the server imports it from here. */
export { Market } from './market';
export { QUOTE_ACTION_METHOD, QUOTE_SIGNED_FIELDS } from './rfqs';
export type { Publisher, Cadence, Producer, OrderOutcome, OrderFields, ActionFieldsLike, PrivateTrade } from './types';

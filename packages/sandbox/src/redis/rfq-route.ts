/**
 * RFQs across a fleet. The RFQ desk (market/rfq-desk.ts) is served by one member: the owner of the
 * first instrument's book, the desk's home, whose id streams it already draws RFQ and quote ids on.
 * Every RFQ method is routed there as an order is to its book's owner (calls.ts: acknowledged, sent
 * again when not, served once per call id, verified again), so every member sees one set of RFQs and
 * quotes; their state changes happen in one process, one call at a time (a quote is executed once, a
 * cancel racing an execution finds it filled); the simulated maker answers on the owner only; an
 * execution settles once, on the owner. Its pushes reach every member's subscribers through the bus.
 */

/** The instrument whose owner serves the RFQ desk: the first listed, the desk's home (market/rfq-desk.ts). */
export const rfqHome = (options: { instruments: ReadonlyArray<{ instrument_name: string }> }): string =>
  options.instruments[0]!.instrument_name;

/** The methods served by the RFQ desk's owner (the public `…_debug` ones compute only, and stay local). */
export const RFQ_METHODS: ReadonlySet<string> = new Set([
  'private/send_rfq',
  'private/poll_rfqs',
  'private/get_rfqs',
  'private/cancel_rfq',
  'private/cancel_batch_rfqs',
  'private/send_quote',
  'private/replace_quote',
  'private/cancel_quote',
  'private/cancel_batch_quotes',
  'private/poll_quotes',
  'private/get_quotes',
  'private/rfq_get_best_quote',
  'private/execute_quote',
  'private/transfer_positions',
]);

/** The instrument whose owner serves a call: the RFQ desk's home for an RFQ method, else the one it names. */
export function servingInstrument(method: unknown, params: unknown, rfqHome: string): string | null {
  if (typeof method === 'string' && RFQ_METHODS.has(method)) return rfqHome;
  const named = (params as { instrument_name?: unknown } | null)?.instrument_name;
  return typeof named === 'string' ? named : null;
}

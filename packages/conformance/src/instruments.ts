/**
 * The server's live instruments and what the runner needs to know of each (kind, currency, tick size,
 * amount step). `public/get_all_live_instruments` answers names only (the venue's `string[]`, as derive-ts
 * reads it; the document shows no payload and says nothing of how a name encodes its kind), so the
 * details come from the instrument records: `public/get_all_instruments`, one request per instrument type
 * (page 1 of each), when the spec has it, else `public/get_instrument` for the first names. The checks
 * (discover.ts) and the generated run (generate/names.ts, generate/sequence-order-inputs.ts) both read it.
 */

/** The method that lists the live instruments' names (our spec's). */
export const LIVE_METHOD = 'public/get_all_live_instruments';
/** Every instrument of a type, with its record (our spec's; params instrument_type). */
export const BY_TYPE_METHOD = 'public/get_all_instruments';
/** One instrument's record by name (our spec's). */
export const ONE_METHOD = 'public/get_instrument';
/** Without a list by type: how many names are looked up one by one (each costs a point of the budget). */
export const MAX_LOOKUPS = 8;

/** An instrument as the runner uses it: its name, and what its record told (absent when none did). */
export interface Instrument {
  instrument_name: string;
  instrument_type?: string;
  base_currency?: string;
  tick_size?: string;
  amount_step?: string;
}

/** How the caller asks the server: the result of one request, or undefined when there was none. */
export type Ask = (method: string, params: Record<string, unknown>) => Promise<unknown>;

/** The live instruments, in the server's order, each with its record's details where one was found. */
export async function liveInstruments(
  ask: Ask,
  has: (method: string) => boolean,
  instrumentTypes: readonly string[],
): Promise<Instrument[]> {
  const list = await ask(LIVE_METHOD, {});
  const names = Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
  const records = new Map<string, Record<string, unknown>>();
  const keep = (r: unknown) => {
    const rec = r as Record<string, unknown> | null;
    if (rec && typeof rec === 'object' && typeof rec.instrument_name === 'string')
      records.set(rec.instrument_name, rec);
  };
  if (names.length && has(BY_TYPE_METHOD) && instrumentTypes.length) {
    for (const t of instrumentTypes) {
      const got = await ask(BY_TYPE_METHOD, { instrument_type: t });
      const rows = Array.isArray(got) ? got : (got as { instruments?: unknown } | undefined)?.instruments;
      if (Array.isArray(rows)) rows.forEach(keep);
    }
  } else if (has(ONE_METHOD)) {
    for (const n of names.slice(0, MAX_LOOKUPS)) keep(await ask(ONE_METHOD, { instrument_name: n }));
  }
  return names.map((n) => detailsOf(n, records.get(n)));
}

function detailsOf(name: string, r: Record<string, unknown> | undefined): Instrument {
  const out: Instrument = { instrument_name: name };
  for (const k of ['instrument_type', 'base_currency', 'tick_size', 'amount_step'] as const)
    if (typeof r?.[k] === 'string') out[k] = r[k] as string;
  return out;
}

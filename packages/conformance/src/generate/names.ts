/**
 * Names the server tells about, preferred for fields of those names so that valid inputs reach past the
 * "unknown instrument" answer: instruments (from public/get_all_live_instruments, names only) and their
 * currencies (from the instrument records, instruments.ts), and the wallet's subaccount ids (from
 * public/login). Both are our spec's methods; on a spec without them that part is skipped, and `skipped`
 * says why in that spec's words, its title and what it lacks (the console's first lines, and the reason of
 * any channel template left without a value).
 */
import { BY_TYPE_METHOD, liveInstruments, LIVE_METHOD, type Ask, type Instrument } from '../instruments';
import { loginMethod, type Session } from './session';
import { deref, type GenSpec } from './spec';
import type { Hints } from './values';

/** The list of live instruments (our spec's method). */
export const INSTRUMENTS_METHOD = LIVE_METHOD;

/** The instrument types the spec's list by type takes (the enum of its instrument_type param), else none. */
function instrumentTypesOf(spec: GenSpec): string[] {
  const m = spec.methods.find((x) => x.name === BY_TYPE_METHOD);
  const params = deref(spec.doc, m?.params) as { properties?: Record<string, unknown> } | undefined;
  const e = (deref(spec.doc, params?.properties?.instrument_type) as { enum?: unknown } | undefined)?.enum;
  return Array.isArray(e) ? e.filter((x): x is string => typeof x === 'string') : [];
}

/** The server's live instruments with their records' details, asked through `ask` (instruments.ts). */
export function serverInstruments(spec: GenSpec, ask: Ask): Promise<Instrument[]> {
  return liveInstruments(ask, (name) => spec.methods.some((m) => m.name === name), instrumentTypesOf(spec));
}

/** The first live perp with a tick size and an amount step (what a resting order needs), else undefined. */
export async function livePerp(spec: GenSpec, ask: Ask): Promise<Instrument | undefined> {
  const all = await serverInstruments(spec, ask);
  return all.find((i) => i.instrument_type === 'perp' && i.tick_size && i.amount_step);
}

/** What the server told, and why the parts it did not tell were not asked. */
export interface Names {
  hints: Hints;
  /** One reason per part not asked (empty when every part was). */
  skipped: string[];
}

/** Subaccount ids and the wallet, from the login (why not, when there is none). */
function fromLogin(spec: GenSpec, session: Session, hints: Hints): string | null {
  if (!loginMethod(spec))
    return (
      `subaccount ids and the wallet are not known: ` +
      `the spec ${spec.title} has no public/login, the login that tells them`
    );
  if (!session.wallet || session.noLogin) return `subaccount ids are not known: ${session.noLogin ?? 'no login'}`;
  hints.wallet = [session.wallet.address];
  hints.subaccount_id = session.subaccounts.slice(0, 2);
  return null;
}

/** Ask the server for the names it knows; each part the spec has no method for is skipped with the reason. */
export async function namesOf(spec: GenSpec, session: Session): Promise<Names> {
  const hints: Hints = {};
  const skipped: string[] = [];
  const login = fromLogin(spec, session, hints);
  if (login) skipped.push(login);
  if (!spec.methods.some((m) => m.name === INSTRUMENTS_METHOD)) {
    skipped.push(
      `instrument and currency names are not known: ` +
        `the spec ${spec.title} has no ${INSTRUMENTS_METHOD}, the method that lists them`,
    );
    return { hints, skipped };
  }
  const conn = await session.conn('anon');
  const live = await serverInstruments(spec, async (m, p) => (await conn.request(m, p))?.response.result);
  if (live.length) hints.instrument_name = live.slice(0, 2).map((i) => i.instrument_name);
  else skipped.push(`instrument names are not known: ${INSTRUMENTS_METHOD} listed no live instrument`);
  const currencies = [...new Set(live.map((i) => i.base_currency).filter((c) => typeof c === 'string'))];
  if (currencies.length) hints.currency = currencies.slice(0, 2);
  return { hints, skipped };
}

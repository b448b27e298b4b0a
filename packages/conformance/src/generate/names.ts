/**
 * Names the server tells about, preferred for fields of those names so that valid inputs reach past the
 * "unknown instrument" answer: instruments and currencies (from public/get_all_live_instruments) and the
 * wallet's subaccount ids (from public/login). Both are our spec's methods; on a spec without them that
 * part is skipped, and `skipped` says why in that spec's words, its title and what it lacks (the
 * console's first lines, and the reason of any channel template left without a value).
 */
import { loginMethod, type Session } from './session';
import type { GenSpec } from './spec';
import type { Hints } from './values';

/** The list of live instruments (our spec's method). */
export const INSTRUMENTS_METHOD = 'public/get_all_live_instruments';

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
  const got = await (await session.conn('anon')).request(INSTRUMENTS_METHOD, {});
  const list = Array.isArray(got?.response.result) ? (got.response.result as Record<string, unknown>[]) : [];
  const live = list.filter((i) => typeof i?.instrument_name === 'string' && i.is_active !== false);
  if (live.length) hints.instrument_name = live.slice(0, 2).map((i) => i.instrument_name);
  else skipped.push(`instrument names are not known: ${INSTRUMENTS_METHOD} listed no live instrument`);
  const currencies = [...new Set(live.map((i) => i.base_currency).filter((c) => typeof c === 'string'))];
  if (currencies.length) hints.currency = currencies.slice(0, 2);
  return { hints, skipped };
}

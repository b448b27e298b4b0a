/** Discovery: before the checks, ask the server for its budgets and instruments on one short-lived connection. */
import { limitOf, methodTable, publicBudget, recordTable } from '@exchange-api/types';
import { liveInstruments, LIVE_METHOD } from './instruments';
import { WsConn } from './connection';
import { Transcript } from './transcript';
import type { Env, Resolved } from './run-state';

/** The server could not be reached (exit code 2 on the command line). */
export class UnreachableError extends Error {
  readonly code = 'UNREACHABLE';
}

/** Ask the server for its budgets and instruments on one short-lived connection. */
export async function discover(o: Resolved, t0: number): Promise<{ env: Env; transcript: Transcript }> {
  const transcript = new Transcript(t0);
  let conn: WsConn;
  try {
    conn = await WsConn.open(o.ws, transcript, 'discovery');
  } catch (err) {
    throw new UnreachableError((err as Error).message);
  }
  let env: Env;
  try {
    env = referenceEnv();
    await readBudgets(conn, env);
    await readInstruments(conn, env);
  } finally {
    await conn.close();
  }
  env.perp = env.instruments.find((i) => i.instrument_type === 'perp') ?? env.instruments[0];
  env.option = env.instruments.find((i) => i.instrument_type === 'option');
  env.currency = env.perp?.base_currency;
  return { env, transcript };
}

/** The reference values: they stand until the server reports its own; a spec without them cannot be paced. */
function referenceEnv(): Env {
  const connRef = limitOf('connections', 'connections');
  if (!publicBudget)
    throw new Error(
      'limitTable has no per-IP request budget (a window limit with scope ip): ' +
        'the runner paces unauthenticated requests under it',
    );
  const pubRef = limitOf(publicBudget, 'window');
  return {
    instruments: [],
    perp: undefined,
    option: undefined,
    currency: undefined,
    connectionBudget: connRef.max,
    connectionBudgetSource: 'reference',
    anonBudget: { points: pubRef.points, windowMs: pubRef.windowMs, source: 'reference' },
    rateLimits: null,
  };
}

type Bucket = {
  remainingPoints?: unknown;
  consumedPoints?: unknown;
  msBeforeNext?: unknown;
  isFirstInDuration?: unknown;
};

/** The server's own budgets, from getRateLimits, over the reference values where it reports them. */
async function readBudgets(conn: WsConn, env: Env): Promise<void> {
  const limits = await conn.request(methodTable.find((m) => m.id === 'publicGetRateLimits')!.name, {});
  const result = limits?.response.result as Record<string, Bucket> | undefined;
  env.rateLimits = result ?? null;
  const c = result?.remaining_connections;
  if (c && typeof c.remainingPoints === 'number' && typeof c.consumedPoints === 'number') {
    env.connectionBudget = c.remainingPoints + c.consumedPoints;
    env.connectionBudgetSource = 'server';
  }
  const nm = result?.remaining_non_matching;
  if (nm && typeof nm.remainingPoints === 'number' && typeof nm.consumedPoints === 'number') {
    const windowMs =
      nm.isFirstInDuration === true && typeof nm.msBeforeNext === 'number' && nm.msBeforeNext > 0
        ? nm.msBeforeNext
        : env.anonBudget.windowMs;
    env.anonBudget = { points: nm.remainingPoints + nm.consumedPoints, windowMs, source: 'server' };
  }
}

/**
 * The server's live instruments, when the spec has the method listing them: their names, and each one's
 * kind, currency and tick size from the instrument records (instruments.ts).
 */
async function readInstruments(conn: WsConn, env: Env): Promise<void> {
  const has = (name: string) => methodTable.some((m) => m.name === name);
  if (!has(LIVE_METHOD)) return;
  const types = recordTable.find((r) => r.name === 'InstrumentType')?.values ?? [];
  const ask = async (method: string, params: Record<string, unknown>) =>
    (await conn.request(method, params))?.response.result;
  env.instruments = await liveInstruments(ask, has, types);
}

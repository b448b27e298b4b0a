/**
 * Before the checks: is the runner's own wallet (--key) let in at all? A server that denies access to
 * that wallet (AUTH_ACCESS_DENIED: a wallet it does not know, say a sandbox that knows only its
 * configured wallets) refuses every login of it, and every check that logs in would report the same
 * refusal as a failure of the server. Said once instead, and those checks are not run.
 */
import { errorByName } from '@exchange-api/types';
import { Ctx, Stop } from './context';
import type { RunState } from './run-state';

/** The runner's wallet was refused: which, what the server answered, and the sentence that says so. */
export interface KeyRefusal {
  wallet: string;
  error: { code: number; message: string; data?: unknown };
  /** The one line that reports it (console, reports). */
  reason: string;
  /** The reason of each check that needed the login and was not run. */
  notRun: string;
}

/** The answer that means "not this wallet", by name from the spec's error table, never a bare number. */
const accessDenied = errorByName('AUTH_ACCESS_DENIED');

/**
 * Log the runner's wallet in once. Null when it is let in, when no key was given, or when the answer
 * is anything but an access denial (a refused valid proof is then what the login checks report).
 */
export async function keyRefusal(run: RunState): Promise<KeyRefusal | null> {
  const key = run.options.key;
  if (!key) return null;
  const ctx = new Ctx(run, 'runner.key');
  try {
    const conn = await ctx.connect('key');
    const response = await ctx.login(conn, key);
    const error = response.error;
    if (conn.loggedIn || !error || error.code !== accessDenied.code) return null;
    const answer = `${accessDenied.code} ${String(error.message ?? accessDenied.message)}`;
    const said = typeof error.data === 'string' ? `: ${error.data.slice(0, 200)}` : '';
    return {
      wallet: key.address,
      error: {
        code: accessDenied.code,
        message: String(error.message ?? ''),
        ...('data' in error ? { data: error.data } : {}),
      },
      reason:
        `the runner's wallet ${key.address} (--key) was refused at login (${answer}` +
        `${said}): the checks that need a login were not run`,
      notRun: `not run: it needs a login, and the server refused the runner's wallet (said once, above the checks)`,
    };
  } catch (err) {
    // A server that cannot be reached here is the checks' to report, one by one as ever.
    if (err instanceof Stop) return null;
    throw err;
  } finally {
    await ctx.closeAll();
  }
}

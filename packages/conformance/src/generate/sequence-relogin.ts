/**
 * A second login on one connection, and what it leaves subscribed. The document drops subscriptions only
 * on `unsubscribe` ("drops the listed channels; when channels is omitted, drops all subscriptions") and
 * keeps a logged-in connection authenticated for its wallet, so after the same wallet logs in again every
 * subscription held before is held still. What a login by another wallet does to the first one's private
 * channels the document does not say: what the server did is a note, never a failure.
 */
import { Wallet } from 'ethers';
import { signLogin } from '@exchange-api/auth';
import { WsConn } from '../connection';
import { addressesOf } from './channel-addresses';
import { classesOf } from '../model';
import { bodyOf, SequenceLog } from './sequence-kit';
import { loginMethod } from './session';
import type { Exchange } from './session';
import type { TargetEnv } from './target-env';
import type { CheckResult, TargetCounts } from '../model';

const TITLE = 'A second login on one connection: answered, and the subscriptions held are what the document implies';
/** An address no template makes: unsubscribing it drops nothing, and the answer says what is held. */
const UNKNOWN_ADDRESS = 'no.such.channel.subscribed';

const currentOf = (ex: Exchange | null): string[] | null => {
  const cur = (bodyOf(ex!)?.result as { current_subscriptions?: unknown } | undefined)?.current_subscriptions;
  return ex && Array.isArray(cur) ? cur.map(String) : null;
};

/** Log in on the connection with a fresh proof of `wallet`: the subaccount ids, or why not. */
async function login(log: SequenceLog, conn: WsConn, wallet: Wallet, what: string): Promise<number[] | string> {
  const ex = await log.call(conn, loginMethod(log.env.spec)!.name, await signLogin(wallet), false, { login: true });
  if (ex?.outcome.kind === 'closed') {
    log.fail('login-connection-kept', `an answer to ${what}`, ex.outcome.what, ex);
    return 'closed';
  }
  const result = ex ? bodyOf(ex)?.result : undefined;
  if (Array.isArray(result)) return result as number[];
  return ex ? JSON.stringify(bodyOf(ex)?.error ?? ex.outcome).slice(0, 200) : 'no such method';
}

/** What the connection holds, read by unsubscribing an address it never subscribed to. */
async function held(log: SequenceLog, conn: WsConn): Promise<string[] | null> {
  return currentOf(await log.call(conn, log.env.spec.unsubscribe, { channels: [UNKNOWN_ADDRESS] }, true));
}

async function relogin(env: TargetEnv, log: SequenceLog, conn: WsConn, wallet: Wallet): Promise<void> {
  const first = await login(log, conn, wallet, 'the first login');
  if (typeof first === 'string') return log.inconclusive(`the first login on the fresh connection: ${first}`);
  const pub = env.spec.channels.find((c) => c.access === 'public' && addressesOf(c, env).valid.length);
  const priv = env.spec.channels.find((c) => c.access === 'private' && addressesOf(c, env).valid.length);
  const wanted = [pub, priv].flatMap((c) => (c ? [addressesOf(c, env).valid[0]!] : []));
  if (!wanted.length) return log.inconclusive('no channel address to subscribe to');
  const before = currentOf(await log.call(conn, env.spec.subscribe, { channels: wanted }, true));
  if (!before)
    return log.note(
      `${env.spec.subscribe}'s result carries no current_subscriptions (the subscription-result assumption)`,
    );
  const again = await login(log, conn, wallet, 'a second login by the same wallet');
  if (again === 'closed') return;
  if (typeof again === 'string')
    return log.note(
      `a second login by the same wallet on one connection was refused (${again}); the document is silent`,
    );
  log.pass();
  const after = await held(log, conn);
  if (!after) return log.inconclusive(`no current_subscriptions after the second login`);
  const lost = before.filter((c) => !after.includes(c));
  if (lost.length)
    log.fail(
      'relogin-keeps-subscriptions',
      JSON.stringify([...before].sort()),
      JSON.stringify([...after].sort()),
      undefined,
      { kind: 'subscriptions', expected: before },
    );
  else log.pass();
  await otherWallet(log, conn, after, priv ? addressesOf(priv, env).valid[0]! : null);
}

/** Another wallet logs in on the connection: what it leaves held is noted (the document does not say). */
async function otherWallet(log: SequenceLog, conn: WsConn, before: string[], priv: string | null): Promise<void> {
  const other = await login(log, conn, Wallet.createRandom() as unknown as Wallet, 'a login by another wallet');
  if (other === 'closed') return;
  if (typeof other === 'string')
    return log.note(
      `a login by another wallet on a logged-in connection was refused (${other}); the document is silent`,
    );
  const after = await held(log, conn);
  if (!after) return log.inconclusive('no current_subscriptions after a login by another wallet');
  const kept = priv !== null && after.includes(priv);
  log.note(
    `after another wallet logged in on the connection it holds ${JSON.stringify(after)} (before: ` +
      `${JSON.stringify(before)})${kept ? `; the first wallet's ${priv} is still held` : ''}; the document does ` +
      'not say what a login by another wallet does to the first one’s subscriptions',
  );
}

/** The second-login sequence, on a connection of its own. */
export async function runRelogin(env: TargetEnv): Promise<{ result: CheckResult; counts: TargetCounts }> {
  const log = new SequenceLog(env, 'login-again');
  const skip = !loginMethod(env.spec)
    ? `the spec ${env.spec.title} has no public/login, the login this sequence needs`
    : env.session.noLogin;
  if (skip || !env.session.wallet) return classed(log.result(TITLE, skip ?? 'no login'));
  const conn = await WsConn.open(env.session.ws, env.session.transcript, 'generate-sequence-login-again');
  try {
    await relogin(env, log, conn, env.session.wallet);
  } finally {
    await conn.close();
  }
  return classed(log.result(TITLE));
}

/** The coverage row of this sequence is named for the state it checks. */
function classed(r: { result: CheckResult; counts: TargetCounts }): { result: CheckResult; counts: TargetCounts } {
  const classes = classesOf(r.counts).map((row) => ({ ...row, cls: 'state after a second login' }));
  return { ...r, counts: { ...r.counts, classes } };
}

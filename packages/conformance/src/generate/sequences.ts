/**
 * Stateful sequences: a private call before and after login on a fresh connection; random runs of
 * subscribe and unsubscribe (by the seed) checked against a model of what the connection is subscribed
 * to, then what it is pushed; a second login (sequence-relogin.ts); the order life cycle and generated
 * orders (sequence-orders.ts, sequence-order-inputs.ts, only with --allow-order-flow).
 */
import fc from 'fast-check';
import { signLogin } from '@exchange-api/auth';
import { isNotification, pushOf, WsConn } from '../connection';
import { addressesOf } from './channel-addresses';
import { runOrderLifeCycle } from './sequence-orders';
import { runOrderInputs } from './sequence-order-inputs';
import { runRelogin } from './sequence-relogin';
import { bodyOf, documentedError, SequenceLog } from './sequence-kit';
import { typical } from './values';
import { loginMethod } from './session';
import type { TargetEnv } from './target-env';
import type { CheckResult, TargetCounts } from '../model';

type Done = { result: CheckResult; counts: TargetCounts };

/** A private method before login is refused with a documented code; after login on the same connection it is served. */
async function loginThenPrivate(env: TargetEnv): Promise<Done> {
  const log = new SequenceLog(env, 'login-then-private');
  const title = 'A private call is refused before login and served after it, on one connection';
  const m = env.spec.methods.find((x) => x.auth === 'login' && !x.orderFlow && x.transports.includes('ws'));
  const skip = !loginMethod(env.spec)
    ? `the spec ${env.spec.title} has no public/login, the login this sequence needs`
    : !m
      ? `the spec ${env.spec.title} has no private method on WebSocket`
      : env.session.noLogin;
  if (skip || !m || !env.session.wallet) return log.result(title, skip ?? 'no login');
  const conn = await WsConn.open(env.session.ws, env.session.transcript, 'generate-sequence-login');
  try {
    const params = typical(env.values, m.params);
    const before = await log.call(conn, m.name, params, false);
    const b = bodyOf(before!);
    if (!b) log.inconclusive(`no answer to ${m.name} before login`);
    else if ('result' in b)
      log.fail(
        'private-refused-before-login',
        'an error',
        `a result: ${before!.outcome.kind === 'response' ? before!.outcome.text.slice(0, 200) : ''}`,
        before!,
        { kind: 'refused' },
      );
    else if (documentedError(env, b)) log.pass();
    else
      log.fail('error-code-documented', 'a documented code', JSON.stringify(b.error), before!, {
        kind: 'refused',
      });
    const proof = await signLogin(env.session.wallet);
    const login = await log.call(conn, loginMethod(env.spec)!.name, proof, false, { login: true });
    if (!Array.isArray(bodyOf(login!)?.result))
      return (log.inconclusive('the login was not accepted on the fresh connection'), log.result(title));
    const after = await log.call(conn, m.name, params, true);
    const a = bodyOf(after!);
    if (!a) log.inconclusive(`no answer to ${m.name} after login`);
    else if (!('result' in a))
      log.fail('private-served-after-login', 'a result', JSON.stringify(a.error), after!, {
        kind: 'served',
      });
    else if (env.schemas.valid(m.result, a.result)) log.pass();
    else log.note(`${m.name}'s result after login does not conform: ${env.schemas.why(m.result, a.result)}`);
  } finally {
    await conn.close();
  }
  return log.result(title);
}

type Op =
  | { op: 'subscribe' | 'unsubscribe'; channels: number[] }
  | { op: 'unsubscribe-all' }
  | { op: 'unsubscribe-named'; names: string[] };

/** An address no template makes: unsubscribing it drops nothing. */
const UNKNOWN_ADDRESS = 'no.such.channel.subscribed';

/**
 * The edges the document's semantics decide, after the random run: every pool address subscribed, then an
 * empty list (drops nothing: only an omitted list drops all), an address never subscribed (drops nothing)
 * and a list partly known (drops the known one alone).
 */
const edgeOps = (pool: string[]): Op[] => [
  { op: 'subscribe', channels: pool.map((_, i) => i) },
  { op: 'unsubscribe-named', names: [] },
  { op: 'unsubscribe-named', names: [UNKNOWN_ADDRESS] },
  { op: 'unsubscribe-named', names: [pool[0]!, UNKNOWN_ADDRESS] },
];

/** Random runs of subscribe and unsubscribe against a model; then only the model's channels are pushed. */
async function subscriptions(env: TargetEnv): Promise<Done> {
  const log = new SequenceLog(env, 'subscribe-unsubscribe');
  const title = 'Random subscribe/unsubscribe runs: current subscriptions and pushes follow the model';
  const pool = env.spec.channels
    .filter((c) => c.access === 'public')
    .flatMap((c) => addressesOf(c, env).valid.slice(0, 2))
    .slice(0, 4);
  if (pool.length < 2) return log.result(title, 'fewer than two public addresses to subscribe to');
  const index = fc.array(fc.integer({ min: 0, max: pool.length - 1 }), { minLength: 1, maxLength: pool.length });
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constantFrom('subscribe' as const, 'unsubscribe' as const), channels: index }),
    fc.constant({ op: 'unsubscribe-all' as const }),
  );
  const ops = fc.sample(fc.array(opArb, { minLength: 4, maxLength: 8 }), { seed: env.values.seed, numRuns: 1 })[0]!;
  const conn = await WsConn.open(env.session.ws, env.session.transcript, 'generate-sequence-subscriptions');
  try {
    const model = new Set<string>();
    let from = 0;
    for (const op of [...ops, ...edgeOps(pool)]) {
      await step(env, log, conn, pool, model, op);
      from = conn.frames.length;
    }
    await checkPushes(log, conn, model, from);
  } finally {
    await conn.close();
  }
  return log.result(title);
}

async function step(
  env: TargetEnv,
  log: SequenceLog,
  conn: WsConn,
  pool: string[],
  model: Set<string>,
  op: Op,
): Promise<void> {
  const channels =
    op.op === 'unsubscribe-all'
      ? undefined
      : op.op === 'unsubscribe-named'
        ? op.names
        : [...new Set(op.channels.map((i) => pool[i]!))];
  const name = op.op === 'subscribe' ? env.spec.subscribe : env.spec.unsubscribe;
  const ex = await log.call(conn, name, channels ? { channels } : {}, false);
  const body = ex ? bodyOf(ex) : null;
  if (!body || !('result' in body))
    return log.inconclusive(`${name} ${JSON.stringify(channels ?? 'all')} got no result`);
  if (op.op === 'subscribe') channels!.forEach((c) => model.add(c));
  else if (channels) channels.forEach((c) => model.delete(c));
  else model.clear();
  const current = (body.result as { current_subscriptions?: unknown } | null)?.current_subscriptions;
  if (!Array.isArray(current))
    return log.note(
      `${name}'s result carries no current_subscriptions to compare (the subscription-result assumption)`,
    );
  const same = current.length === model.size && current.every((c) => model.has(String(c)));
  if (same) log.pass();
  else
    log.fail(
      'subscriptions-follow-requests',
      JSON.stringify([...model].sort()),
      JSON.stringify([...current].sort()),
      ex!,
      { kind: 'subscriptions', expected: [...model] },
    );
}

/** After the last request's answer, pushes come only on the model's channels (a window; silence proves nothing). */
async function checkPushes(log: SequenceLog, conn: WsConn, model: Set<string>, from: number): Promise<void> {
  await conn.waitFor(() => false, 1500, conn.frames.length);
  const pushes = conn.frames
    .slice(from)
    .filter((f) => isNotification(f.json))
    .map(pushOf);
  const stray = pushes.find((p) => p.channel === undefined || !model.has(p.channel));
  if (stray)
    log.fail(
      'only-subscribed-pushed',
      `pushes on ${JSON.stringify([...model])} only`,
      `a push on ${stray.channel}`,
      undefined,
      { kind: 'pushes', subscribed: [...model] },
    );
  else if (pushes.length || model.size === 0) log.pass();
  else log.inconclusive('nothing was pushed on the subscribed channels in the window');
}

/** The sequences, by name (`generated.sequence.<name>`). */
export const SEQUENCES = [
  'login-then-private',
  'subscribe-unsubscribe',
  'login-again',
  'order-life-cycle',
  'order-inputs',
] as const;

/** Every chosen sequence; each outcome passed to `done` as it comes. */
export async function runSequences(
  env: TargetEnv,
  chosen: (id: string) => boolean,
  done: (d: Done) => void,
): Promise<void> {
  if (Date.now() > env.deadline) return;
  if (chosen('generated.sequence.login-then-private')) done(await loginThenPrivate(env));
  if (chosen('generated.sequence.subscribe-unsubscribe')) done(await subscriptions(env));
  if (chosen('generated.sequence.login-again')) done(await runRelogin(env));
  if (chosen('generated.sequence.order-life-cycle')) done(await runOrderLifeCycle(env));
  if (chosen('generated.sequence.order-inputs')) done(await runOrderInputs(env));
}

/** Subscriptions: subscribe/unsubscribe answers, only subscribed channels pushed, parameter enumerations. */
import { channelTable } from '@exchange-api/types';
import { validators, cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../context';
import type { Push, WsConn } from '../connection';
import { S, errorOf, method, publicChannels, refused, sampleAddresses, FINDING_MAX } from './util';
import { publicSamples } from './samples';

/** Two public addresses that push often (order book and fast ticker), from the table and the environment. */
function busyAddresses(ctx: Ctx): [string, string] {
  const env = ctx.env;
  const all = publicChannels.flatMap((c) => sampleAddresses(c, env).map((a) => ({ c, a })));
  const book = all.find((x) => x.c.id === 'orderbook');
  const other =
    all.find((x) => x.c.id !== 'orderbook' && x.c.parameters.some((p) => p.enum)) ?? all.find((x) => x !== book);
  if (!book || !other) ctx.skip('no instrument known: public/get_all_live_instruments returned none');
  return [book.a, other.a];
}

function observeResult(ctx: Ctx, what: string, result: unknown): void {
  const ok = validators.results[method('subscribe') as 'subscribe'](result);
  ctx.observe({
    assumption: 'subscription-result',
    text: `${what} result ${ok ? 'follows' : 'does not follow'} {status, current_subscriptions}: ${cut(result, 200)}`,
    conforms: ok,
  });
}

async function subscribe(ctx: Ctx, conn: WsConn, channels: string[]) {
  const r = await ctx.call(conn, method('subscribe'), { channels });
  if (errorOf(r))
    ctx.abort({
      pointer: '/error',
      rule: 'subscribe subscribes the connection to each listed channel',
      expected: 'a result',
      got: cut(r.error, FINDING_MAX),
      message: `subscribe to ${channels.join(', ')} was refused`,
    });
  for (const a of channels)
    if (refused(r, a))
      ctx.abort({
        pointer: `/result/status/${a}`,
        rule: 'subscribe subscribes the connection to each listed channel',
        expected: 'ok',
        got: cut((r.result as { status?: Record<string, unknown> })?.status?.[a], FINDING_MAX),
        message: `subscribe to ${a} was refused`,
      });
  return r;
}

/** Wait until each address has pushed at least once (or the time is up); returns the ones that did not. */
async function awaitPushes(conn: WsConn, addresses: string[], from: number, ms: number): Promise<string[]> {
  const until = Date.now() + ms;
  for (;;) {
    const missing = addresses.filter((a) => !conn.pushes(from).some((p) => p.channel === a));
    if (missing.length === 0 || Date.now() > until) return missing;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Connect, subscribe to `addresses` and wait until they have pushed (or `ms` is up). Ends the check
 * inconclusive when `needed` stayed silent (all of them for 'all', every address for 'any'): a later
 * absence of pushes would prove nothing. Returns the connection and the silent addresses.
 */
async function subscribeAndHear(
  ctx: Ctx,
  addresses: string[],
  ms: number,
  needed: string[] | 'any',
): Promise<{ conn: WsConn; missing: string[] }> {
  const conn = await ctx.connect();
  await subscribe(ctx, conn, addresses);
  const missing = await awaitPushes(conn, addresses, 0, ms);
  const silent =
    needed === 'any'
      ? missing.length === addresses.length
        ? addresses
        : []
      : needed.filter((a) => missing.includes(a));
  if (silent.length > 0)
    ctx.inconclusive(
      `nothing was pushed on ${silent.join(', ')} within ${(ms / 1000).toFixed(1)}` +
        ` s, so silence later would prove nothing`,
    );
  return { conn, missing };
}

/** An out-of-enumeration value for a parameter: one past the largest number, or a made-up word. */
function outside(values: readonly string[]): string {
  const nums = values.map(Number);
  return nums.every((n) => Number.isInteger(n)) ? String(Math.max(...nums) + 1) : `${values[0]}x`;
}

/**
 * For each enumerated parameter of each public channel, an address with that value outside its
 * enumeration (`bad`) and the same address with the first value inside it (`good`). Skips the check when a
 * free parameter has no known value.
 */
function outsideAddresses(ctx: Ctx): { bad: string[]; good: string[] } {
  const env = ctx.env;
  const bad: string[] = [];
  const good: string[] = [];
  for (const c of channelTable.filter((x) => x.access === 'public')) {
    for (const wrong of c.parameters.filter((p) => p.enum)) {
      let a: string = c.address;
      let g: string = c.address;
      for (const p of c.parameters) {
        const v = p.enum
          ? p.enum[0]
          : p.name === 'instrument_name'
            ? env.perp?.instrument_name
            : p.name === 'currency'
              ? env.currency
              : undefined;
        if (!v) return ctx.skip(`no value known for {${p.name}} of ${c.address}`);
        a = a.replace(`{${p.name}}`, p === wrong ? outside(p.enum!) : v);
        g = g.replace(`{${p.name}}`, v);
      }
      bad.push(a);
      good.push(g);
    }
  }
  return { bad, good: [...new Set(good)] };
}

/** Grace after an unsubscribe answer for pushes already in flight. */
const GRACE_MS = 250;

/** Listen for `ms` after an unsubscribe answer: every push meanwhile, and those past the grace (`late`). */
async function listenAfterUnsubscribe(
  ctx: Ctx,
  conn: WsConn,
  ms: number,
): Promise<{ all: Push[]; late: Push[]; cut: number }> {
  const cut = ctx.transcript.now() + GRACE_MS;
  const from = conn.frames.length;
  await ctx.sleep(ms);
  const all = conn.pushes(from);
  return { all, late: all.filter((p) => p.frame.t > cut), cut };
}

export const subscriptionChecks: Check[] = [
  {
    id: 'subscriptions.subscribe',
    title: 'subscribe to a public channel is answered with a result',
    section: `${S.framing} (subscribe); ${S.events}`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const [a] = busyAddresses(ctx);
      const conn = await ctx.connect();
      const r = await subscribe(ctx, conn, [a]);
      observeResult(ctx, 'subscribe', r.result);
    },
  },
  {
    id: 'subscriptions.unsubscribe',
    title: 'unsubscribe of a list is answered with a result',
    section: `${S.framing} (unsubscribe)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const [a] = busyAddresses(ctx);
      const conn = await ctx.connect();
      await subscribe(ctx, conn, [a]);
      const r = await ctx.call(conn, method('unsubscribe'), { channels: [a] });
      if (errorOf(r))
        ctx.abort({
          pointer: '/error',
          rule: 'unsubscribe drops the listed channels',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: 'unsubscribe was refused',
        });
      observeResult(ctx, 'unsubscribe', r.result);
      const current = (r.result as { current_subscriptions?: unknown })?.current_subscriptions;
      if (Array.isArray(current) && current.includes(a))
        ctx.fail({
          pointer: '/result/current_subscriptions',
          rule: 'unsubscribe drops the listed channels',
          expected: `without ${a}`,
          got: cut(current, FINDING_MAX),
          message: 'the unsubscribed channel is still listed',
        });
    },
  },
  {
    id: 'subscriptions.only-subscribed',
    title: 'Only subscribed channels are pushed',
    section: `${S.events}; ${S.framing} (subscribe)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const [a] = busyAddresses(ctx);
      // Nothing is required of a here: pushes on other channels alone must fail the check.
      const { conn } = await subscribeAndHear(ctx, [a], 2000, []);
      await ctx.sleep(500);
      const pushes = conn.pushes(0);
      if (pushes.length === 0) ctx.inconclusive(`nothing was pushed on ${a} within 2.5 s`);
      for (const p of pushes) {
        if (p.channel !== a)
          ctx.fail({
            pointer: '/params/channel',
            rule: 'only subscribed channels are pushed',
            expected: a,
            got: cut(p.channel, FINDING_MAX),
            message: `a push arrived on ${cut(p.channel, FINDING_MAX)}, which was never subscribed`,
          });
      }
    },
  },
  {
    id: 'subscriptions.unsubscribe-list',
    title: 'After unsubscribing one of two channels, only the other is pushed',
    section: `${S.framing} (unsubscribe: drops the listed channels)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const [a, b] = busyAddresses(ctx);
      const { conn, missing } = await subscribeAndHear(ctx, [a, b], 2500, [a]);
      await ctx.call(conn, method('unsubscribe'), { channels: [a] });
      const { all, late, cut } = await listenAfterUnsubscribe(ctx, conn, 1500);
      for (const p of late.filter((x) => x.channel === a).slice(0, 3))
        ctx.fail({
          pointer: '/params/channel',
          rule: 'unsubscribe drops the listed channels',
          expected: `no push on ${a}`,
          got: `a push at +${p.frame.t - cut + GRACE_MS} ms after the answer`,
          message: `${a} was still pushed after it was unsubscribed`,
        });
      if (!missing.includes(b) && !all.some((p) => p.channel === b))
        ctx.fail({
          rule: 'unsubscribe drops only the listed channels',
          expected: `pushes on ${b}`,
          got: 'none in 1.5 s',
          message: `${b} stopped although only ${a} was unsubscribed`,
        });
    },
  },
  {
    id: 'subscriptions.unsubscribe-all',
    title: 'unsubscribe without channels drops every subscription',
    section: `${S.framing} (unsubscribe: when channels is omitted, drops all)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const [a, b] = busyAddresses(ctx);
      const { conn } = await subscribeAndHear(ctx, [a, b], 2500, 'any');
      const r = await ctx.call(conn, method('unsubscribe'), {});
      if (errorOf(r))
        ctx.abort({
          pointer: '/error',
          rule: 'unsubscribe with channels omitted',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: 'unsubscribe of everything was refused',
        });
      observeResult(ctx, 'unsubscribe (all)', r.result);
      const { late } = await listenAfterUnsubscribe(ctx, conn, 1500);
      for (const p of late.slice(0, 3))
        ctx.fail({
          pointer: '/params/channel',
          rule: 'unsubscribe with channels omitted drops all subscriptions',
          expected: 'no pushes',
          got: `a push on ${cut(p.channel, FINDING_MAX)}`,
          message: 'pushes continued after unsubscribing from everything',
        });
    },
  },
  {
    id: 'subscriptions.parameter-enums',
    title: 'Every enumerated channel parameter value is accepted',
    section: `${S.events} (parameters)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const env = ctx.env;
      const addresses: string[] = [];
      for (const c of publicChannels.filter((x) => x.parameters.some((p) => p.enum))) {
        let combos: string[] = [c.address];
        for (const p of c.parameters) {
          const values = p.enum
            ? [...p.enum]
            : [
                p.name === 'instrument_name'
                  ? env.perp?.instrument_name
                  : p.name === 'currency'
                    ? env.currency
                    : undefined,
              ].filter((v): v is string => !!v);
          if (values.length === 0) ctx.skip(`no value known for {${p.name}} of ${c.address}`);
          combos = combos.flatMap((t) => values.map((v) => t.replace(`{${p.name}}`, v)));
        }
        addresses.push(...combos);
      }
      const conn = await ctx.connect();
      const r = await ctx.call(conn, method('subscribe'), { channels: addresses });
      if (errorOf(r))
        ctx.abort({
          pointer: '/error',
          rule: 'enumerated parameter values',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: 'subscribing to every enumerated combination was refused',
        });
      for (const a of addresses)
        if (refused(r, a))
          ctx.fail({
            pointer: `/result/status/${a}`,
            rule: 'enumerated parameter values are accepted',
            expected: 'ok',
            got: cut((r.result as { status?: Record<string, unknown> })?.status?.[a], FINDING_MAX),
            message: `${a} was refused`,
          });
      await ctx.call(conn, method('unsubscribe'), {});
    },
  },
  {
    id: 'subscriptions.parameter-enums-invalid',
    title: 'A channel parameter value outside its enumeration is refused',
    section: `${S.events} (parameters: one of …)`,
    level: 'SHOULD',
    needs: [],
    async run(ctx) {
      const { bad, good } = outsideAddresses(ctx);
      const conn = await ctx.connect();
      const r = await ctx.call(conn, method('subscribe'), { channels: bad });
      if (!errorOf(r))
        for (const a of bad)
          if (!refused(r, a))
            ctx.fail({
              pointer: `/result/status/${a}`,
              rule: 'parameter values come from the enumeration',
              expected: 'refused',
              got: 'ok',
              message: `${a} was accepted although a parameter is outside its enumeration`,
            });
      if (ctx.findings.length > 0) return;
      // The refusal is evidence only when the same addresses with the value inside the enumeration are served.
      const ok = await ctx.call(conn, method('subscribe'), { channels: good });
      const alsoRefused = good.filter((a) => refused(ok, a));
      if (alsoRefused.length > 0)
        ctx.inconclusive(
          `${alsoRefused.join(', ')}, with every value inside its enumeration, was ` +
            `refused too (${cut(ok.error ?? ok.result, 80)}), so the refusal proves nothing`,
        );
    },
  },
  {
    id: 'subscriptions.notification-frame',
    title: 'Pushes use the assumed notification frame (method subscription, params.channel, params.data)',
    section: `${S.events} (rule 3: the outer frame is not shown; notification-frame assumption)`,
    level: 'SHOULD',
    needs: [],
    async run(ctx) {
      const samples = await publicSamples(ctx);
      if (samples.unavailable) ctx.skip(samples.unavailable);
      if (samples.pushes.length === 0) ctx.inconclusive(`nothing was pushed within ${samples.windowMs} ms`);
      const bad = samples.pushes.filter((p) => !validators.schemas.SubscriptionNotification(p.frame.json));
      ctx.observe({
        assumption: 'notification-frame',
        text:
          bad.length === 0
            ? `all ${samples.pushes.length} pushes used the assumed frame`
            : `${bad.length} of ${samples.pushes.length} pushes did not use the assumed ` +
              `frame, e.g. ${cut(bad[0]!.frame.json, 200)}`,
        conforms: bad.length === 0,
      });
      if (bad.length > 0) {
        ctx.transcript.attach(bad.slice(0, 3).map((p) => p.frame.entry));
        ctx.fail({
          pointer: '/',
          rule: 'notification-frame assumption',
          expected: '{"jsonrpc":"2.0","method":"subscription","params":{"channel","data"}}',
          got: cut(bad[0]!.frame.json, 120),
          message: `${bad.length} pushes did not use the assumed frame`,
        });
      }
    },
  },
];

/**
 * RFQs across a fleet (two members on a redis-server of the test's own): the RFQ desk is served by the
 * owner of the first instrument's book and every RFQ method reaches it from any member, so a taker on
 * one member and a maker on the other see one RFQ (poll and `{wallet}.rfqs`) and its quotes; a quote is
 * executed once even when two executions race through both members; cancels work through either; the
 * simulated maker answers once, seen alike through both.
 */
import { describe, expect, it } from 'vitest';
import { quietMarket } from './helpers';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { useFleet } from './fleet-setup';
import { Redis } from 'ioredis';
import { keys } from '../src/redis/keys';
import { signRfq, trader, units, valid } from './rfq-support';
import type { Sandbox, SandboxOptions } from '../src/index';
import { rfqHandlers } from '../src/handlers/rfq';
import { RFQ_METHODS } from '../src/redis/rfq-route';
import type { HandlerParts } from '../src/handler-parts';

const fleet = useFleet();
const LEG = { instrument_name: 'TEST-PERP', amount: '2.5', direction: 'buy' };

/** Two members of one fleet on the one-perp market: the owner of its book (the RFQ desk's home) and the other. */
async function pair(rfq: SandboxOptions['rfq']): Promise<{ owner: Sandbox; other: Sandbox }> {
  const options: SandboxOptions = {
    ...quietMarket,
    limits: { ...quietMarket.limits, connections: { max: 20 } },
    control: true,
    rfq,
    redis: fleet.redis().url,
  };
  const a = await fleet.start(options);
  const b = await fleet.start(options);
  return a.fleet!.owned().includes('TEST-PERP') ? { owner: a, other: b } : { owner: b, other: a };
}

/**
 * Look again every 20 ms until `done` holds, for what happens on the members' own cycles of 1 s (a lease
 * taken, a state written again). A hang stopper, not a speed test.
 */
async function eventually(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const by = Date.now() + 40_000;
  while (!(await done())) {
    if (Date.now() > by) throw new Error(`${what}: not so after 40 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const PLACES = [
  { name: 'the taker on the other member, the maker on the owner', takerOnOwner: false },
  { name: 'the taker on the owner, the maker on the other member', takerOnOwner: true },
];

it("routes every RFQ method the desk serves to the desk's owner (the debug ones compute only)", () => {
  // Only the handlers' names are read: the parts are never used until a handler is called.
  const served = Object.keys(rfqHandlers({ market: { rfq: {} } } as unknown as HandlerParts));
  expect(served.filter((m) => !m.endsWith('_debug')).sort()).toEqual([...RFQ_METHODS].sort());
});

describe.skipIf(!hasRedisServer)(`RFQs across a fleet${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  it.each(PLACES)('$name: seen, quoted, executed once, cancelled through either member', async (place) => {
    const { owner, other } = await pair({ maker: { enabled: false } });
    const [onA, onB] = place.takerOnOwner ? [owner, other] : [other, owner];
    const taker = await trader(onA.wsUrl);
    const maker = await trader(onB.wsUrl);
    // Each also logged in on the other member: what they do there reaches the same desk.
    const takerOnB = await trader(onB.wsUrl, taker.w);
    const makerOnA = await trader(onA.wsUrl, maker.w);
    await maker.c.call('subscribe', { channels: [`${maker.w.address}.rfqs`, `${maker.sub}.quotes`] });
    await taker.c.call('subscribe', { channels: [`${taker.sub}.best.quotes`, `${taker.w.address}.rfqs`] });

    const rfq = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG] });
    valid('private/send_rfq', rfq);
    const seen = await maker.c.nextPush(`${maker.w.address}.rfqs`, undefined, (d) => d[0].rfq_id === rfq.rfq_id);
    expect(seen[0]).toMatchObject({ status: 'open', wallet: taker.w.address });
    const polled = await maker.c.call('private/poll_rfqs', { subaccount_id: maker.sub, status: 'open' });
    expect(polled.rfqs.map((r: any) => r.rfq_id)).toEqual([rfq.rfq_id]);

    const quote = (price: string) =>
      signRfq(maker.w, 'private/send_quote', {
        subaccount_id: maker.sub,
        rfq_id: rfq.rfq_id,
        direction: 'sell',
        legs: [{ ...LEG, price }],
        max_fee: '1',
      });
    const sent = await maker.c.call('private/send_quote', await quote('101'));
    valid('private/send_quote', sent);
    await maker.c.nextPush(`${maker.sub}.quotes`, undefined, (d) => d[0].quote_id === sent.quote_id);
    const best = await taker.c.nextPush(`${taker.sub}.best.quotes`, undefined, (d) => d[0].rfq_id === rfq.rfq_id);
    expect(best.find((x: any) => x.result.direction === 'buy').result.best_quote.quote_id).toBe(sent.quote_id);

    // Two executions of the one quote race, one through each member: one fills it, the other is refused.
    const execute = () =>
      signRfq(taker.w, 'private/execute_quote', {
        subaccount_id: taker.sub,
        rfq_id: rfq.rfq_id,
        quote_id: sent.quote_id,
        direction: 'buy',
        legs: sent.legs,
        max_fee: '1',
      });
    const [x, y] = await Promise.all([execute(), execute()]);
    const answers = await Promise.all([
      taker.c.request('private/execute_quote', x),
      takerOnB.c.request('private/execute_quote', y),
    ]);
    const filled = answers.filter((r) => r.result?.status === 'filled');
    const refused = answers.filter((r) => r.error);
    expect(filled).toHaveLength(1);
    expect(refused.map((r) => r.error.code)).toEqual([11001]);
    expect(refused[0].error.data).toMatch(new RegExp(`(RFQ ${rfq.rfq_id}|quote ${sent.quote_id}) is filled`));
    const again = await takerOnB.c.request('private/execute_quote', await execute());
    expect(again.error).toMatchObject({ code: 11001, data: `RFQ ${rfq.rfq_id} is filled` });
    // Settled once, on the desk's member (balances and positions are per member: docs/sandbox.md).
    const ownerSide = place.takerOnOwner ? taker : takerOnB;
    expect(await ownerSide.position(taker.sub, 'TEST-PERP')).toBe(units('2.5'));
    await maker.c.nextPush(`${maker.sub}.quotes`, undefined, (d) => d[0].status === 'filled');

    // Cancels through either member: the maker's quote through the taker's member, the RFQ through the maker's.
    const second = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG] });
    const open = await maker.c.call(
      'private/send_quote',
      await signRfq(maker.w, 'private/send_quote', {
        subaccount_id: maker.sub,
        rfq_id: second.rfq_id,
        direction: 'sell',
        legs: [{ ...LEG, price: '102' }],
        max_fee: '1',
      }),
    );
    const cancelled = await makerOnA.c.call('private/cancel_quote', {
      subaccount_id: maker.sub,
      quote_id: open.quote_id,
    });
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'user_request' });
    expect(await takerOnB.c.call('private/cancel_rfq', { subaccount_id: taker.sub, rfq_id: second.rfq_id })).toBe('ok');
    const closed = await maker.c.nextPush(
      `${maker.w.address}.rfqs`,
      undefined,
      (d) => d[0].rfq_id === second.rfq_id && d[0].status === 'cancelled',
    );
    expect(closed[0].cancel_reason).toBe('user_request');
    const read = await taker.c.call('private/get_rfqs', { subaccount_id: taker.sub });
    expect(read.rfqs.map((r: any) => [r.rfq_id, r.status])).toEqual([
      [second.rfq_id, 'cancelled'],
      [rfq.rfq_id, 'filled'],
    ]);
    const again2 = await takerOnB.c.request('private/cancel_rfq', { subaccount_id: taker.sub, rfq_id: second.rfq_id });
    expect(again2.error).toMatchObject({ code: 11001, data: `RFQ ${second.rfq_id} is cancelled` });
  });

  it('the simulated maker answers an RFQ once, the same two quotes read through either member', async () => {
    const { owner, other } = await pair({ maker: { enabled: true, delayMs: 0 } });
    const taker = await trader(other.wsUrl);
    const takerOnOwner = await trader(owner.wsUrl, taker.w);
    await taker.c.call('subscribe', { channels: [`${taker.sub}.best.quotes`] });
    const rfq = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG] });
    const best = await taker.c.nextPush(
      `${taker.sub}.best.quotes`,
      undefined,
      (d) => d[0].rfq_id === rfq.rfq_id && d.every((x: any) => x.result.best_quote),
    );
    expect(best.map((x: any) => x.result.direction).sort()).toEqual(['buy', 'sell']);
    const ids = async (c: typeof taker.c) =>
      (await c.call('private/poll_quotes', { subaccount_id: taker.sub, rfq_id: rfq.rfq_id })).quotes
        .map((q: any) => q.quote_id)
        .sort();
    const seen = await ids(taker.c);
    expect(seen).toHaveLength(2);
    expect(await ids(takerOnOwner.c)).toEqual(seen);
  });

  it('hands the open RFQs and quotes to the next member serving them when the owner leaves', async () => {
    const { owner, other } = await pair({ maker: { enabled: false } });
    const taker = await trader(other.wsUrl);
    const maker = await trader(other.wsUrl);
    const rfq = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG] });
    const quoted = await maker.c.call(
      'private/send_quote',
      await signRfq(maker.w, 'private/send_quote', {
        subaccount_id: maker.sub,
        rfq_id: rfq.rfq_id,
        direction: 'sell',
        legs: [{ ...LEG, price: '101' }],
        max_fee: '1',
      }),
    );
    // An RFQ nobody subscribed to and nobody quoted moves too.
    const quiet = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG], label: 'quiet' });
    expect(other.fleet!.owned()).toEqual([]);
    await owner.close();
    await eventually('the other member takes the book', () => other.fleet!.owned().includes('TEST-PERP'));
    const open = await taker.c.call('private/get_rfqs', { subaccount_id: taker.sub, status: 'open' });
    expect(open.rfqs.map((r: any) => r.rfq_id)).toEqual([quiet.rfq_id, rfq.rfq_id]);
    const quotes = await taker.c.call('private/poll_quotes', { subaccount_id: taker.sub, rfq_id: rfq.rfq_id });
    expect(quotes.quotes.map((q: any) => [q.quote_id, q.status])).toEqual([[quoted.quote_id, 'open']]);
    const executed = await taker.c.call(
      'private/execute_quote',
      await signRfq(taker.w, 'private/execute_quote', {
        subaccount_id: taker.sub,
        rfq_id: rfq.rfq_id,
        quote_id: quoted.quote_id,
        direction: 'buy',
        legs: quoted.legs,
        max_fee: '1',
      }),
    );
    expect(executed).toMatchObject({ status: 'filled', rfq_id: rfq.rfq_id });
  });

  it('writes the open RFQs and quotes again when Redis lost everything, so a later move keeps them', async () => {
    const { owner, other } = await pair({ maker: { enabled: true, delayMs: 0 } });
    const taker = await trader(other.wsUrl);
    const rfq = await taker.c.call('private/send_rfq', { subaccount_id: taker.sub, legs: [LEG] });
    const r = new Redis(fleet.redis().url, { maxRetriesPerRequest: 0 });
    try {
      // The RFQ and the simulated maker's two quotes.
      const kept = () => r.hlen(keys.rfqs('TEST-PERP'));
      await eventually('the RFQ and its quotes are kept', async () => (await kept()) === 3);
      await r.flushall();
      await eventually('they are written again', async () => (await kept()) === 3);
    } finally {
      r.disconnect();
    }
    await owner.close();
    await eventually('the other member takes the book', () => other.fleet!.owned().includes('TEST-PERP'));
    const quotes = await taker.c.call('private/poll_quotes', { subaccount_id: taker.sub, rfq_id: rfq.rfq_id });
    expect(quotes.quotes.map((q: any) => q.status)).toEqual(['open', 'open']);
  });
});

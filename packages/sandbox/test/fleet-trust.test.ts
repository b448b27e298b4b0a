/**
 * What a fleet member takes from Redis and from the other members, and what it does not: a routed
 * call is verified again by the member that serves it (Redis is a trust boundary: anything that can
 * PUBLISH could otherwise place orders for any wallet), and a used nonce stays used whatever the
 * clocks of the members say (its expiry is counted by Redis's clock, not the claiming member's).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { signLogin } from '@exchange-api/auth';
import { Client, control, newWallet, signed } from './helpers';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { quiet, useFleet } from './fleet-setup';
import { channels, keys } from '../src/redis/keys';

const fleet = useFleet();
const { start } = fleet;

const order = (sub: number) => ({
  instrument_name: 'ETH-PERP',
  order_type: 'limit',
  max_fee: '10',
  subaccount_id: sub,
  direction: 'buy',
  amount: '0.01',
  limit_price: '100',
});

async function trader(url: string, w = newWallet()) {
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  return { w, c, sub: sub! };
}

/** A raw Redis client of the test's, as an intruder on the bus would have. */
async function raw(): Promise<Redis> {
  const r = new Redis(fleet.redis().url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  await r.connect();
  return r;
}

type Answer = { id: string; ack?: true; error?: { code: number; data?: string } };

/**
 * PUBLISH a call to a member as if from member `m999`, `sends` times with one id (as a sender does that
 * saw no acknowledgement), and wait for as many answers on m999's reply channel (each after its
 * acknowledgement): the member read it and decided.
 */
async function publishCall(member: string, call: Record<string, unknown>, sends = 1): Promise<Answer[]> {
  const sub = await raw();
  const pub = await raw();
  try {
    const id = randomUUID();
    const answers: Answer[] = [];
    const answered = new Promise<Answer[]>((resolve) => {
      sub.on('message', (_channel: string, text: string) => {
        const m = JSON.parse(text) as Answer;
        if (m.id === id && !m.ack && answers.push(m) === sends) resolve(answers);
      });
    });
    await sub.subscribe(channels.replies('m999'));
    const message = JSON.stringify({ id, from: 'm999', ip: '127.0.0.1', transport: 'ws', ...call });
    for (let i = 0; i < sends; i++) expect(await pub.publish(channels.calls(member), message)).toBe(1);
    return await answered;
  } finally {
    sub.disconnect();
    pub.disconnect();
  }
}

/** One call published, its one answer. */
const forge = async (member: string, call: Record<string, unknown>) => (await publishCall(member, call))[0]!;

describe.skipIf(!hasRedisServer)(`a fleet member's trust${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  it('does not place a forged routed order for another wallet (PUBLISH, signature 0x00)', async () => {
    const sb = await start({ ...quiet, redis: fleet.redis().url });
    const victim = await trader(sb.wsUrl);
    const intruder = newWallet();
    const params = {
      ...order(victim.sub),
      nonce: '1',
      signer: victim.w.address,
      signature: '0x00',
      signature_expiry_sec: Math.floor(Date.now() / 1000) + 600,
    };
    const member = sb.fleet!.member;
    // The victim's session as claimed, with no proof; with the intruder's own proof; the intruder's own
    // session (a real proof) acting on the victim's subaccount, with the intruder's real signature.
    const noProof = await forge(member, {
      method: 'private/order',
      params,
      session: { wallet: victim.w.address, signer: victim.w.address, subaccounts: [victim.sub] },
    });
    const proof = await signLogin(intruder);
    const claimed = await forge(member, {
      method: 'private/order',
      params,
      session: { wallet: victim.w.address, signer: intruder.address, subaccounts: [victim.sub], proof },
    });
    const own = await forge(member, {
      method: 'private/order',
      params: await signed(intruder, 'private/order', order(victim.sub)),
      session: { wallet: intruder.address, signer: intruder.address, subaccounts: [victim.sub], proof },
    });
    for (const [name, reply] of Object.entries({ noProof, claimed, own })) {
      expect(reply.error, name).toBeDefined();
      expect(String(reply.error!.data), name).not.toMatch(/^$/);
    }
    expect(noProof.error!.data).toMatch(/no login proof/);
    expect(claimed.error!.data).toMatch(/session names .* its proof/);
    expect(own.error!.data).toMatch(/subaccount .* is not one of the caller's/);
    const open = (await victim.c.call('private/get_open_orders', { subaccount_id: victim.sub })) as {
      orders: unknown[];
    };
    expect(open.orders).toEqual([]);
  });

  it('refuses a routed signed order whose nonce no member claimed (a real signature replayed on the bus)', async () => {
    const sb = await start({ ...quiet, redis: fleet.redis().url });
    const t = await trader(sb.wsUrl);
    const params = await signed(t.w, 'private/order', order(t.sub));
    const reply = await forge(sb.fleet!.member, {
      method: 'private/order',
      params,
      session: {
        wallet: t.w.address,
        signer: t.w.address,
        subaccounts: [t.sub],
        proof: await signLogin(t.w),
      },
    });
    expect(reply.error?.code).toBe(14004);
    expect(reply.error?.data).toMatch(/no member of the fleet claimed/);
    // The same signature, sent as a client sends it, is placed: it was refused for the bus alone.
    const placed = (await t.c.call('private/order', params)) as { order: { order_status: string } };
    expect(placed.order.order_status).toBe('open');
  });

  it('serves a call sent twice (one id: a sender that saw no acknowledgement) once, and answers both', async () => {
    const sb = await start({ ...quiet, redis: fleet.redis().url });
    const t = await trader(sb.wsUrl);
    const params = await signed(t.w, 'private/order', order(t.sub));
    // The member that received the request claimed its nonce before routing it.
    const r = await raw();
    try {
      await r.set(keys.nonce(t.w.address, BigInt(String(params.nonce)).toString()), '1', 'PX', 600_000);
    } finally {
      r.disconnect();
    }
    const session = { wallet: t.w.address, signer: t.w.address, subaccounts: [t.sub], proof: await signLogin(t.w) };
    const [first, second] = (await publishCall(
      sb.fleet!.member,
      { method: 'private/order', params, session },
      2,
    )) as Array<Answer & { result: { order: { order_id: string } } }>;
    expect(first!.error).toBeUndefined();
    expect(second).toEqual(first);
    const open = (await t.c.call('private/get_open_orders', { subaccount_id: t.sub })) as {
      orders: Array<{ order_id: string }>;
    };
    expect(open.orders.map((o) => o.order_id)).toEqual([first!.result.order.order_id]);
  });

  it("keeps a nonce used while its signature lives by any member's clock, however far another's moved", async () => {
    const options = { ...quiet, control: true, redis: fleet.redis().url };
    const a = await start(options);
    const b = await start(options);
    const w = newWallet();
    const onA = await trader(a.wsUrl, w);
    const onB = await trader(b.wsUrl, w);
    const lifetimeS = 60;
    const expiry = Math.floor(Date.now() / 1000) + lifetimeS;
    // A's clock runs 55 s ahead of B's: by A's, the signature has a few seconds left.
    await control(a, 'advance', { ms: (lifetimeS - 5) * 1000 });
    const params = await signed(w, 'private/order', order(onA.sub), { expiry });
    expect(
      ((await onA.c.call('private/order', params)) as { order: { order_status: string } }).order.order_status,
    ).toBe('open');
    // B (its clock not moved) accepts the signature for about a minute more: the nonce must be kept that long,
    // by Redis's clock (by A's clock, it lapsed within seconds and B took the same order again).
    const r = await raw();
    try {
      const left = await r.pttl(keys.nonce(w.address, BigInt(String(params.nonce)).toString()));
      const [seconds] = await r.time();
      expect(left).toBeGreaterThanOrEqual(expiry * 1000 - Number(seconds) * 1000 - 2000);
    } finally {
      r.disconnect();
    }
    const replay = await onB.c.request('private/order', params);
    expect(replay.error.code).toBe(14004);
  });
});

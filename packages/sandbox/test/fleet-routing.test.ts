/**
 * Order flow routed to a book's owner is never lost: the owner acknowledges a call before serving it,
 * a call not acknowledged is sent again (with its id, so the owner serves it once), and one never
 * acknowledged is answered as not served. The owner here is the test's: a raw Redis subscriber holding
 * a book's lease as member m77, which acknowledges only what the test says.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { Client, newWallet, signed } from './helpers';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { quiet, useFleet } from './fleet-setup';
import { channels, keys } from '../src/redis/keys';
import { SENDS } from '../src/redis/calls';

const fleet = useFleet();

/** Member m77 as the test plays it: it owns ETH-PERP's lease and sees every call sent to it. */
async function fakeOwner(answer: (sends: number) => boolean) {
  const sub = new Redis(fleet.redis().url, { maxRetriesPerRequest: 0 });
  const pub = new Redis(fleet.redis().url, { maxRetriesPerRequest: 0 });
  await pub.set(keys.lease('ETH-PERP'), 'm77', 'PX', 60_000);
  const ids: string[] = [];
  sub.on('message', (_channel: string, text: string) => {
    const m = JSON.parse(text) as { id: string; from: string };
    ids.push(m.id);
    if (!answer(ids.length)) return;
    const to = channels.replies(m.from);
    void pub
      .publish(to, JSON.stringify({ id: m.id, ack: true }))
      .then(() => pub.publish(to, JSON.stringify({ id: m.id, result: { served_by: 'm77' } })));
  });
  await sub.subscribe(channels.calls('m77'));
  return { ids, close: () => (sub.disconnect(), pub.disconnect()) };
}

async function orderThrough(url: string) {
  const w = newWallet();
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  const params = await signed(w, 'private/order', {
    instrument_name: 'ETH-PERP',
    order_type: 'limit',
    max_fee: '10',
    subaccount_id: sub!,
    direction: 'buy',
    amount: '0.01',
    limit_price: '100',
  });
  return c.request('private/order', params);
}

describe.skipIf(!hasRedisServer)(`routed order flow${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  it('sends a call again, with its id, until the owner acknowledges it; answers with its answer', async () => {
    const owner = await fakeOwner((sends) => sends === 2);
    try {
      const sb = await fleet.start({ ...quiet, redis: fleet.redis().url });
      expect(sb.fleet!.owned()).not.toContain('ETH-PERP');
      const reply = await orderThrough(sb.wsUrl);
      expect(reply.result).toEqual({ served_by: 'm77' });
      expect(owner.ids).toHaveLength(2);
      expect(owner.ids[1]).toBe(owner.ids[0]);
    } finally {
      owner.close();
    }
  });

  it(`answers -32603 "not served" once the owner acknowledged none of ${SENDS} sends`, async () => {
    const owner = await fakeOwner(() => false);
    try {
      const sb = await fleet.start({ ...quiet, redis: fleet.redis().url });
      const reply = await orderThrough(sb.wsUrl);
      expect(reply.error.code).toBe(-32603);
      expect(reply.error.data).toMatch(
        new RegExp(
          `private/order: .*\\(m77\\) did not acknowledge it after ${SENDS} sends .*: it was not served; retry`,
        ),
      );
      expect(owner.ids).toHaveLength(SENDS);
      expect(new Set(owner.ids).size).toBe(1);
    } finally {
      owner.close();
    }
  });
});

/**
 * Trigger and TWAP orders in a fleet: held by the owner of their instrument's book (routed there as
 * orders are), listed and cancelled through any member, and moved with the book when its lease moves
 * (kept in Redis beside its resting orders). Two members on a redis-server of the test's own.
 */
import { describe, expect, it } from 'vitest';
import { Client, control, newWallet, signed, signFor } from './helpers';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { quiet, useFleet } from './fleet-setup';
import type { Sandbox, SandboxOptions } from '../src/index';

const fleet = useFleet();

/** Two perps, so that each member of two owns one. */
const twoBooks: SandboxOptions = {
  ...quiet,
  control: true,
  instruments: ['TST-PERP', 'TSX-PERP'].map((instrument_name) => ({
    instrument_name,
    instrument_type: 'perp' as const,
    base_currency: 'TST',
    tick_size: '0.01',
    amount_step: '0.1',
    price: 100,
  })),
};

/** Wait for a state the members' own cycles bring (a look every 20 ms, bounded by the test's timeout). */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 20));
}

async function pair(): Promise<[Sandbox, Sandbox]> {
  signFor(twoBooks.instruments);
  const a = await fleet.start({ ...twoBooks, redis: fleet.redis().url });
  const b = await fleet.start({ ...twoBooks, redis: fleet.redis().url });
  await until(() => a.fleet!.owned().length === 1 && b.fleet!.owned().length === 1);
  return [a, b];
}

async function trader(url: string, w = newWallet()) {
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  const order = async (fields: Record<string, unknown>) =>
    c.request('private/order', await signed(w, 'private/order', { ...fields, subaccount_id: sub! }));
  const waiting = async () => (await c.call('private/get_trigger_orders', { subaccount_id: sub })).orders;
  const working = async () => c.call('private/get_algo_orders', { subaccount_id: sub });
  return { w, c, sub: sub!, order, waiting, working };
}

const stop = (instrument_name: string) => ({
  instrument_name,
  order_type: 'limit',
  max_fee: '1',
  amount: '1',
  direction: 'sell',
  limit_price: '80',
  trigger_type: 'stoploss',
  trigger_price: '95',
});
const twap = (instrument_name: string) => ({
  instrument_name,
  order_type: 'limit',
  max_fee: '1',
  amount: '1',
  direction: 'buy',
  limit_price: '101',
  algo_type: 'twap',
  algo_duration_sec: 60,
  algo_num_slices: 4,
});
const ids = (orders: Array<{ order_id: string }>) => orders.map((o) => o.order_id).sort();

describe.skipIf(!hasRedisServer)(
  `trigger and TWAP orders in a fleet${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`,
  () => {
    it('are listed and cancelled through any member, whichever holds them', async () => {
      const [a, b] = await pair();
      const onA = await trader(a.wsUrl);
      const onB = await trader(b.wsUrl, onA.w);
      const stops = [];
      const twaps = [];
      for (const name of ['TST-PERP', 'TSX-PERP']) {
        stops.push((await onA.order(stop(name))).result.order.order_id);
        twaps.push((await onA.order(twap(name))).result.order.order_id);
      }
      expect(ids(await onB.waiting())).toEqual([...stops].sort());
      expect(ids(await onB.working())).toEqual([...twaps].sort());
      // One held by A, cancelled through B; one held by B, through A.
      const cancelled = await onB.c.call('private/cancel_trigger_order', {
        subaccount_id: onB.sub,
        order_id: stops[0],
      });
      expect(cancelled).toMatchObject({ order_id: stops[0], order_status: 'cancelled' });
      const gone = await onB.c.request('private/cancel_trigger_order', { subaccount_id: onB.sub, order_id: stops[0] });
      expect(gone.error).toMatchObject({ code: 11001 });
      const algo = await onA.c.call('private/cancel_algo_order', { subaccount_id: onA.sub, order_id: twaps[1] });
      expect(algo).toMatchObject({ order_id: twaps[1], order_status: 'cancelled' });
      expect(ids(await onA.waiting())).toEqual([stops[1]]);
      expect(ids(await onA.working())).toEqual([twaps[0]]);
      // The cancels of all span the fleet too.
      expect(await onA.c.call('private/cancel_all_trigger_orders', { subaccount_id: onA.sub })).toBe('ok');
      expect(await onB.c.call('private/cancel_all_algo_orders', { subaccount_id: onB.sub })).toBe('ok');
      expect(await onB.waiting()).toEqual([]);
      expect(await onA.working()).toEqual([]);
    });

    const moved =
      "move with their book: the next owner lists them, triggers the stop on its mark and runs the TWAP's slices";
    it(moved, async () => {
      const [a, b] = await pair();
      const name = a.fleet!.owned()[0]!;
      const onB = await trader(b.wsUrl);
      await onB.c.call('subscribe', { channels: [`${onB.sub}.orders`] });
      const stopId = (await onB.order(stop(name))).result.order.order_id;
      const twapId = (await onB.order(twap(name))).result.order.order_id;
      // A leaves: B takes A's book, with the orders waiting on it.
      await a.close();
      await until(() => b.fleet!.owned().includes(name));
      expect(ids(await onB.waiting())).toEqual([stopId]);
      expect(ids(await onB.working())).toEqual([twapId]);
      // The mark falls through the trigger on B: the stop enters B's book.
      expect(await control(b, 'mark', { instrument: name, price: 94 })).toMatchObject({ status: 200 });
      const entered = await onB.c.nextPush(`${onB.sub}.orders`, undefined, (d) =>
        d.some(
          (o: { order_id: string; order_status: string }) => o.order_id === stopId && o.order_status !== 'untriggered',
        ),
      );
      expect(entered.find((o: { order_id: string }) => o.order_id === stopId).order_status).not.toBe('untriggered');
      expect(await onB.waiting()).toEqual([]);
      // B's clock passes the first slice's time: B runs it.
      await control(b, 'advance', { ms: 15_000 });
      const [working] = await onB.working();
      expect(working).toMatchObject({ order_id: twapId, algo_slices_completed: 1 });
    });
  },
);

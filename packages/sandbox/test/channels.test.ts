import { describe, expect, it } from 'vitest';
import { channelTable, fillAddress } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import { Client, newWallet, signed, start } from './helpers';
import { signRfq } from './rfq-support';
import { defaultInstruments } from '../src/index';

describe('every channel', () => {
  it('every pushed payload on every channel validates against the spec', async () => {
    const sb = await start({
      market: { intervalMs: 20 },
      limits: { bucket_perp_spot: { capacity: 50 }, matching: { points: 50 } },
    });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const names: string[] = await c.call('public/get_all_live_instruments', {});
    // The list names the instruments; their type and currency are public/get_instrument's.
    const instruments: any[] = [];
    for (const n of names) instruments.push(await c.call('public/get_instrument', { instrument_name: n }));
    const addresses = new Map<string, string>();
    // Fill every template with every enum value and every instrument/currency the sandbox lists.
    const values: Record<string, string[]> = {
      instrument_name: instruments.map((i) => i.instrument_name),
      currency: [...new Set(instruments.map((i) => i.base_currency as string))],
      subaccount_id: [String(sub)],
      wallet: [w.address],
    };
    for (const ch of channelTable) {
      let combos: Record<string, string>[] = [{}];
      for (const p of ch.parameters) {
        const vals = p.enum ? [...p.enum] : (values[p.name] ?? []);
        combos = combos.flatMap((c) => vals.map((v) => ({ ...c, [p.name]: v })));
      }
      if (ch.id === 'tradesByType' || ch.id === 'tradesByTypeBatch')
        combos = combos.filter((k) =>
          instruments.some((i) => i.instrument_type === k.instrument_type && i.base_currency === k.currency),
        );
      // A fill settles at once: of the Batch machine's states only Settled is ever pushed (batch-status-channels).
      combos = combos.filter((k) => k.batch_status === undefined || k.batch_status === 'Settled');
      for (const k of combos) addresses.set(fillAddress(ch.address, k), ch.id);
    }
    const r = await c.call('subscribe', { channels: [...addresses.keys()] });
    expect(Object.entries(r.status).filter(([, s]) => s !== 'ok')).toEqual([]);
    // Drive the private order channels: a fill against the book.
    for (const inst of instruments) {
      const price =
        inst.instrument_type === 'perp' && inst.instrument_name === 'BTC-PERP'
          ? '90000'
          : inst.instrument_type === 'option'
            ? '1000'
            : '5000';
      await c.call(
        'private/order',
        await signed(w, 'private/order', {
          subaccount_id: sub!,
          instrument_name: inst.instrument_name,
          direction: 'buy',
          order_type: 'limit',
          amount: inst.amount_step,
          limit_price: price,
          max_fee: '100',
        }),
      );
    }
    // Drive the RFQ channels: an RFQ of this wallet (the simulated maker answers it), and a quote of its own on
    // another wallet's RFQ.
    const leg = { instrument_name: 'ETH-PERP', amount: '1', direction: 'buy' };
    await c.call('private/send_rfq', { subaccount_id: sub, legs: [leg] });
    const other = await Client.connect(sb.wsUrl);
    const [otherSub] = await other.login(newWallet());
    const theirs = await other.call('private/send_rfq', { subaccount_id: otherSub, legs: [leg] });
    const quote = { subaccount_id: sub!, rfq_id: theirs.rfq_id, direction: 'sell', max_fee: '10' };
    await c.call(
      'private/send_quote',
      await signRfq(w, 'private/send_quote', { ...quote, legs: [{ ...leg, price: '3100' }] }, defaultInstruments),
    );
    const seen = () =>
      new Set(c.frames.filter((f) => f.json?.method === 'subscription').map((f) => f.json.params.channel));
    // Each arriving frame is a chance to be done; a channel that never comes fails below, by name.
    await c.until(() => seen().size >= addresses.size).catch(() => undefined);
    expect([...addresses.keys()].filter((a) => !seen().has(a))).toEqual([]);
    let checked = 0;
    for (const f of c.frames) {
      if (f.json?.method !== 'subscription') continue;
      expect(validators.schemas.SubscriptionNotification(f.json)).toBe(true);
      const id = addresses.get(f.json.params.channel)!;
      const ok = validators.channels[id as keyof typeof validators.channels](f.json.params.data);
      expect(ok, `${f.json.params.channel}: ${f.text.slice(0, 300)}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(addresses.size);
  });
});

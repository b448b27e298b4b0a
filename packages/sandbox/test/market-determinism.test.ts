/**
 * A seed gives the same synthetic trades whatever is subscribed: every producer draws from its own
 * seeded random stream, so RFQs, quotes and generated samples never shift the simulation's draws.
 */
import { describe, expect, it } from 'vitest';
import { channelTable, fillAddress } from '@exchange-api/types';
import { Market, type Publisher } from '../src/market';
import { Accounts, derivedSubaccounts } from '../src/accounts';
import { Clock } from '../src/clock';
import { resolveOptions } from '../src/options';

/** A clock that does not move, so two markets stamp their records alike. */
class StillClock extends Clock {
  override now(): number {
    return 1_800_000_000_000;
  }
}

/** A market whose publisher records every trade pushed on the public trade channels. */
function market(seed: number, subscribed: (id: string) => Map<string, Record<string, string>>) {
  const options = resolveOptions({ seed });
  const clock = new StillClock();
  const accounts = new Accounts(options, clock);
  const trades: unknown[] = [];
  const out: Publisher = {
    addresses: (id) => subscribed(id),
    publish: (address, data) => {
      if (address.startsWith('trades.') && address.split('.').length === 2) trades.push(data);
    },
    publishTo: () => {},
  };
  return { market: new Market(options, clock, accounts, out), trades };
}

/**
 * Every channel of channelTable subscribed with plausible parameters (first enum value, or an own subaccount and
 * wallet).
 */
function everything(wallet: string): (id: string) => Map<string, Record<string, string>> {
  const [sub] = derivedSubaccounts(wallet);
  const values: Record<string, string> = {
    instrument_name: 'ETH-PERP',
    currency: 'ETH',
    subaccount_id: String(sub),
    wallet,
    instrument_type: 'perp',
  };
  const byId = new Map<string, Map<string, Record<string, string>>>();
  for (const ch of channelTable) {
    const params = Object.fromEntries(
      ch.parameters.map((p) => [p.name, p.name === 'instrument_type' ? 'perp' : p.enum ? p.enum[0]! : values[p.name]!]),
    );
    byId.set(ch.id, new Map([[fillAddress(ch.address, params), params]]));
  }
  return (id) => byId.get(id) ?? new Map();
}

describe('the simulation draws from its own random streams', () => {
  it(
    'the same seed gives the same synthetic trades whether nothing or every channel ' +
      'is subscribed, and generated samples are drawn',
    () => {
      const wallet = '0x00000000000000000000000000000000000000a1';
      const subscribed = everything(wallet);
      const quiet = market(11, () => new Map());
      const busy = market(11, subscribed);
      for (let i = 0; i < 120; i++) {
        quiet.market.tick();
        busy.market.tick();
        // The control plane's generated samples draw too (ids, takers, RFQs, quotes).
        for (const ch of channelTable) for (const address of subscribed(ch.id).keys()) busy.market.produce(address);
      }
      expect(quiet.trades.length).toBeGreaterThan(10);
      const differing = quiet.trades.findIndex((t, i) => JSON.stringify(t) !== JSON.stringify(busy.trades[i]));
      expect(
        differing,
        `trade ${differing} differs: ${JSON.stringify(quiet.trades[differing])} vs ` +
          `${JSON.stringify(busy.trades[differing])}`,
      ).toBe(-1);
      expect(busy.trades.length).toBe(quiet.trades.length);
    },
  );

  it('another seed gives other trades', () => {
    const a = market(11, () => new Map());
    const b = market(12, () => new Map());
    for (let i = 0; i < 60; i++) {
      a.market.tick();
      b.market.tick();
    }
    expect(JSON.stringify(a.trades)).not.toBe(JSON.stringify(b.trades));
  });
});
